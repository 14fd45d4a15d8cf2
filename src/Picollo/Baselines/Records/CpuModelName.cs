using System.Globalization;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;
using System.Text;

namespace Picollo.Baselines.Records;

/// <summary>
/// The CPU's model name as each OS tells it, for the machine fingerprint: time compares only between machines with the
/// same model, so a name every machine of one architecture shares ("Arm64 (unknown model)") would compare an Apple M1 with
/// an M3, or one Arm server with another.
/// </summary>
/// <remarks>
/// Linux x86-64 (the "model name" of /proc/cpuinfo) is read on the development machines; the other sources are the OSes'
/// documented ones, not run here (docs/COUNTERS.md, "The portable clock", says what was verified where).
/// </remarks>
internal static class CpuModelName
{
    private const string CpuInfo = "/proc/cpuinfo";

    /// <summary>This machine's CPU model name.</summary>
    /// <returns>
    /// /proc/cpuinfo's model (Linux), <c>machdep.cpu.brand_string</c> (macOS), the registry's <c>ProcessorNameString</c>
    /// (Windows), else the CPUID brand string (x86), else the architecture with "(unknown model)".
    /// </returns>
    public static string Read() =>
        (File.Exists(CpuInfo) ? FromCpuInfo(File.ReadAllText(CpuInfo)) : null)
        ?? (OperatingSystem.IsMacOS() || OperatingSystem.IsFreeBSD() ? Interop.Sysctl.ReadString("machdep.cpu.brand_string") : null)
        ?? (OperatingSystem.IsWindows() ? FromWindowsRegistry() : null)
        ?? (X86Base.IsSupported ? FromCpuIdBrand() : RuntimeInformation.ProcessArchitecture + " (unknown model)");

    /// <summary>
    /// The model in the text of /proc/cpuinfo: its "model name" (x86, 32-bit Arm), else, as 64-bit Arm kernels write no model
    /// name, the first core's identification registers, e.g. <c>Arm implementer 0x41 part 0xd0c r3p1</c> (a Neoverse N1).
    /// </summary>
    /// <param name="cpuInfo">The file's text.</param>
    /// <returns>The model, or <see langword="null"/> when the text names none.</returns>
    public static string? FromCpuInfo(string cpuInfo)
    {
        ArgumentNullException.ThrowIfNull(cpuInfo);
        var fields = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (string line in cpuInfo.Split('\n'))
        {
            int colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon <= 0)
                continue;
            string key = line[..colon].Trim(), value = line[(colon + 1)..].Trim();
            if (key == "model name" && value.Length > 0)
                return value;

            // The first core's value of each field: a big.LITTLE CPU lists its cores' parts one after another.
            fields.TryAdd(key, value);
        }

        return fields.TryGetValue("CPU implementer", out string? implementer) && fields.TryGetValue("CPU part", out string? part)
            ? string.Create(
                CultureInfo.InvariantCulture,
                $"Arm implementer {implementer} part {part} r{Field(fields, "CPU variant")}p{Field(fields, "CPU revision")}")
            : null;
    }

    // A variant in hex (0x3) or a revision in decimal (1), as a number: r3p1.
    private static string Field(Dictionary<string, string> fields, string key) =>
        !fields.TryGetValue(key, out string? text) ? "?"
        : text.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
            && int.TryParse(text.AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out int hex)
            ? hex.ToString(CultureInfo.InvariantCulture)
        : text;

    // Windows keeps the brand string of every core under HARDWARE\DESCRIPTION\System\CentralProcessor (on Arm64 too, where
    // there is no CPUID).
    private static string? FromWindowsRegistry()
    {
        if (!OperatingSystem.IsWindows())
            return null;
        using Microsoft.Win32.RegistryKey? core = Microsoft.Win32.Registry.LocalMachine.OpenSubKey(
            @"HARDWARE\DESCRIPTION\System\CentralProcessor\0");
        return core?.GetValue("ProcessorNameString") is string name && name.Trim().Length > 0 ? name.Trim() : null;
    }

    // The brand string is 48 ASCII bytes in leaves 0x80000002..4 (EAX, EBX, ECX, EDX each), NUL padded.
    private static string FromCpuIdBrand()
    {
        if ((uint)X86Base.CpuId(unchecked((int)0x80000000), 0).Eax < 0x80000004)
            return "x86 (no brand string)";

        Span<byte> brand = stackalloc byte[48];
        for (int leaf = 0; leaf < 3; leaf++)
        {
            (int eax, int ebx, int ecx, int edx) = X86Base.CpuId(unchecked((int)0x80000002) + leaf, 0);
            Span<int> words = [eax, ebx, ecx, edx];
            MemoryMarshal.AsBytes(words).CopyTo(brand[(leaf * 16)..]);
        }

        return Encoding.ASCII.GetString(brand).TrimEnd('\0').Trim();
    }
}
