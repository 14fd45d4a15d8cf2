using System.Runtime.InteropServices;

namespace Picollo.Benchmarks;

/// <summary>What the figures were measured on.</summary>
internal sealed record MachineInfo(string Cpu, int LogicalCores, string OperatingSystem, string Runtime)
{
    public static MachineInfo Current() => new(
        ReadCpuModel(),
        Environment.ProcessorCount,
        RuntimeInformation.OSDescription,
        $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.ProcessArchitecture})");

    /// <summary>The 1, 5 and 15 minute load averages: other processes on the machine disturb the timings.</summary>
    public static string ReadLoadAverage()
    {
        const string loadAverage = "/proc/loadavg";
        if (!File.Exists(loadAverage))
            return "unknown";

        string[] fields = File.ReadAllText(loadAverage).Split(' ');
        return fields.Length >= 3 ? $"{fields[0]} {fields[1]} {fields[2]}" : "unknown";
    }

    private static string ReadCpuModel()
    {
        const string cpuInfo = "/proc/cpuinfo";
        if (!File.Exists(cpuInfo))
            return "unknown";

        foreach (string line in File.ReadLines(cpuInfo))
        {
            if (line.StartsWith("model name", StringComparison.Ordinal))
                return line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
        }

        return "unknown";
    }
}
