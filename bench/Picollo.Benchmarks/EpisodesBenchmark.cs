using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;

namespace Picollo.Benchmarks;

/// <summary>
/// The allocating body's two speeds (issue 10, docs/VERDICTS.md "Limits"): for a given number of seconds, one timed sample
/// of the allocating verdict body after another, each followed by three reference loops timed at the same moment (a core
/// chain, small allocations, a memory fill), and per second the median of each. Seconds in which the body runs slow show
/// which reference slows with it: the candidate for a gate on time verdicts of allocating code.
/// </summary>
internal static class EpisodesBenchmark
{
    private const int DefaultSeconds = 300;

    private const int BodyOperations = 3_000;

    private const int ChainSteps = 100_000;

    private const int Allocations = 2_000;

    private const int FillBytes = 256 << 10;

    // A second is "slow" when the body's median is this much above the median of all seconds.
    private const double SlowFactor = 1.3;

    private static ulong s_sink;

    public static int Run(string[] args)
    {
        int seconds = args.Length > 0 && int.TryParse(args[0], CultureInfo.InvariantCulture, out int s) ? s : DefaultSeconds;
        if (!CpuSpinner.PinCurrentThread(NoiseMode.MeasuredCpu))
        {
            Console.Error.WriteLine($"episodes pins the measuring thread to CPU {NoiseMode.MeasuredCpu}, which failed.");
            return 1;
        }

        MachineInfo machine = MachineInfo.Current();
        string loadBefore = MachineInfo.ReadLoadAverage();
        var body = new VerdictBody.Allocating(VerdictBody.AllocatingUnits);
        byte[] buffer = GC.AllocateUninitializedArray<byte>(32 << 20, pinned: true);
        Array.Fill(buffer, (byte)1);
        object[] sink = new object[16];
        int offset = 0;
        var timings = new List<double>[4];
        for (int i = 0; i < timings.Length; i++)
            timings[i] = [];
        var perSecond = new List<double[]>();
        var watch = Stopwatch.StartNew();
        long nextSecond = Stopwatch.Frequency;
        Console.WriteLine("second  body ns/op  chain ns/1,000 steps  allocation ns  fill ns/KiB");
        while (watch.Elapsed.TotalSeconds < seconds)
        {
            long t0 = Stopwatch.GetTimestamp();
            for (int i = 0; i < BodyOperations; i++)
                s_sink += VerdictBody.Allocating.Run(body);
            long t1 = Stopwatch.GetTimestamp();
            s_sink += Chain(ChainSteps);
            long t2 = Stopwatch.GetTimestamp();
            Allocate(sink, Allocations);
            long t3 = Stopwatch.GetTimestamp();
            buffer.AsSpan(offset, FillBytes).Fill(2);
            long t4 = Stopwatch.GetTimestamp();
            offset = (offset + FillBytes) % buffer.Length;

            timings[0].Add(Nanoseconds(t1 - t0) / BodyOperations);
            timings[1].Add(Nanoseconds(t2 - t1) * 1_000 / ChainSteps);
            timings[2].Add(Nanoseconds(t3 - t2) / Allocations);
            timings[3].Add(Nanoseconds(t4 - t3) / (FillBytes / 1024));
            if (watch.ElapsedTicks < nextSecond)
                continue;

            nextSecond += Stopwatch.Frequency;
            double[] medians = [.. timings.Select(Median)];
            perSecond.Add(medians);
            foreach (List<double> list in timings)
                list.Clear();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{perSecond.Count,6}  {medians[0],10:F1}  {medians[1],20:F0}  {medians[2],13:F2}  {medians[3],10:F1}"));
        }

        string section = Section(perSecond, seconds, machine, loadBefore, MachineInfo.ReadLoadAverage());
        Console.WriteLine();
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "episodes", section);
        return 0;
    }

    private static string Section(List<double[]> perSecond, int seconds, MachineInfo machine, string loadBefore, string loadAfter)
    {
        double bodyMedian = Median(perSecond.Select(static m => m[0]).ToList());
        double[][] slow = [.. perSecond.Where(m => m[0] > SlowFactor * bodyMedian)];
        double[][] fast = [.. perSecond.Where(m => m[0] <= SlowFactor * bodyMedian)];
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"""
            ## Episodes: which reference slows with the allocating body

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- episodes {seconds}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC; load average before {loadBefore}, after {loadAfter}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - One timed sample of the allocating verdict body ({BodyOperations:N0} operations), then at once a {ChainSteps:N0}-step multiply-add chain, {Allocations:N0} `new byte[8]`, and a {FillBytes / 1024:N0} KiB fill of a 32 MiB buffer; medians per second, on CPU {NoiseMode.MeasuredCpu}
            - A second is slow when the body's median exceeds {SlowFactor:0.#}× the median of all seconds ({bodyMedian:F1} ns/op)

            | Seconds | n | body ns/op | chain ns/1,000 steps | allocation ns | fill ns/KiB |
            |---|---:|---:|---:|---:|---:|

            """);
        AppendRow(text, "fast", fast);
        AppendRow(text, "slow", slow);
        if (slow.Length > 0 && fast.Length > 0)
        {
            text.Append(CultureInfo.InvariantCulture,
                $"| slow ÷ fast | | {Mean(slow, 0) / Mean(fast, 0):F2}× | {Mean(slow, 1) / Mean(fast, 1):F2}× | {Mean(slow, 2) / Mean(fast, 2):F2}× | {Mean(slow, 3) / Mean(fast, 3):F2}× |\n");
        }

        return text.ToString();
    }

    private static void AppendRow(StringBuilder text, string name, double[][] seconds) => text.Append(seconds.Length == 0
        ? $"| {name} | 0 | | | | |\n"
        : string.Create(CultureInfo.InvariantCulture, $"| {name} | {seconds.Length} | {Mean(seconds, 0):F1} | {Mean(seconds, 1):F0} | {Mean(seconds, 2):F2} | {Mean(seconds, 3):F1} |\n"));

    private static double Mean(double[][] rows, int column) => rows.Average(r => r[column]);

    private static double Median(List<double> values)
    {
        values.Sort();
        return values.Count == 0 ? double.NaN : values[values.Count / 2];
    }

    private static double Nanoseconds(long ticks) => ticks * 1e9 / Stopwatch.Frequency;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong Chain(int steps)
    {
        ulong x = (ulong)steps;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        return x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Allocate(object[] sink, int count)
    {
        for (int i = 0; i < count; i++)
            sink[i & 15] = new byte[8];
    }
}
