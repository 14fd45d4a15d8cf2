using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// Warmup: does a measurement sample the body's final (tier-1) code, and what does the warmup cost? Every figure comes
/// from fresh child processes, as tiering is process state:
/// <list type="bullet">
/// <item>the first measurement of a process with <c>TimeBudget</c> 200 ms of a body with a loop (in the lambda, or in a
/// method it calls), against the same delegate measured again in the same process 1.5 s later with a long warmup: a TSC
/// P50 ratio above <see cref="SlowRatio"/> means the first one sampled slower code;</item>
/// <item>the wall time of default measurements of a ~100 ns body: five fresh bodies, then one of them five times more.</item>
/// </list>
/// </summary>
internal static class WarmupBenchmark
{
    public const int DefaultProcesses = 10;

    private const int ChainSteps = 2_000;

    private const double SlowRatio = 1.1;

    private static readonly string[] s_shapes = ["loop", "call"];

    // Distinct lambdas: each one is a method of its own, fresh at its first measurement.
    private static readonly Func<int, long>[] s_fresh =
    [
        static n => Chain(n),
        static n => Chain(n) + 1,
        static n => Chain(n) + 2,
        static n => Chain(n) + 3,
        static n => Chain(n) + 4,
    ];

    public static int Run(string[] args)
    {
        int processes = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : DefaultProcesses;
        MachineInfo machine = MachineInfo.Current();
        string load = MachineInfo.ReadLoadAverage();

        var table = new StringBuilder("| Shape | Process | first / settled TSC P50 | wall | warmup | warmup end | code may have changed |\n|---|---:|---:|---:|---:|---|---|\n");
        var slow = new Dictionary<string, int>(StringComparer.Ordinal);
        var walls = new Dictionary<string, List<double>>(StringComparer.Ordinal);
        foreach (string shape in s_shapes)
        {
            slow[shape] = 0;
            walls[shape] = [];
            for (int p = 1; p <= processes; p++)
            {
                string[] fields = RunChild("warmup-first", shape).Split(' ');
                double ratio = double.Parse(fields[0], CultureInfo.InvariantCulture);
                double wall = double.Parse(fields[1], CultureInfo.InvariantCulture);
                walls[shape].Add(wall);
                if (ratio > SlowRatio)
                    slow[shape]++;
                table.Append(CultureInfo.InvariantCulture, $"| {shape} | {p} | {ratio:F3} | {wall:F0} ms | {fields[2]} ms | {fields[3]} | {fields[4]} |\n");
                Console.WriteLine($"{shape} {p}: ratio {ratio:F3}, wall {wall:F0} ms, warmup {fields[2]} ms {fields[3]}");
            }
        }

        var verdicts = new StringBuilder("| Process | fresh bodies: wall per measurement | one body again: wall per measurement |\n|---:|---|---|\n");
        for (int p = 1; p <= 3; p++)
        {
            string[] halves = RunChild("warmup-default", "-").Split('|');
            verdicts.Append(CultureInfo.InvariantCulture, $"| {p} | {halves[0].Trim()} | {halves[1].Trim()} |\n");
            Console.WriteLine($"default {p}: fresh {halves[0].Trim()}; again {halves[1].Trim()}");
        }

        string summary = string.Join("; ", s_shapes.Select(shape => string.Create(CultureInfo.InvariantCulture,
            $"{shape}: {slow[shape]}/{processes} sampled slower code (ratio > {SlowRatio:F1}), wall {walls[shape].Min():F0}-{walls[shape].Max():F0} ms")));
        string section = string.Create(CultureInfo.InvariantCulture,
            $"""
            ## Warmup: first measurement of a process, and the wall time of default measurements

            Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- warmup {processes}`

            - Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average before {load}
            - CPU: {machine.Cpu}, {machine.LogicalCores} logical cores; {machine.OperatingSystem}; {machine.Runtime}
            - First measurement: `PerfOptions.Default with {"{"} TimeBudget = 200 ms, Counters = [tsc, task-clock] {"}"}` of a {ChainSteps:N0}-step dependent xor-add chain, `loop` in the lambda itself, `call` in a method the lambda calls; settled: the same delegate 1.5 s later, `WarmupTime` 300 ms, `TimeBudget` 1 s
            - {summary}

            {table}
            Default measurements (`PerfOptions.Default`, a 250-step chain ≈ 100 ns), wall time per `Perf.Measure` in ms, each row a fresh process:

            {verdicts}
            """);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "warmup", section);
        return 0;
    }

    /// <summary>The child's side: one experiment, one line on stdout.</summary>
    public static int RunChildCommand(string[] args)
    {
        if (args[0] == "warmup-first")
        {
            Func<int, long> body = args[1] == "loop"
                ? static n =>
                {
                    long x = n;
                    for (int i = 0; i < n; i++)
                        x += x ^ i;
                    return x;
                }
            : static n => Chain(n);
            PerfOptions options = PerfOptions.Default with { TimeBudget = TimeSpan.FromMilliseconds(200), Counters = ["tsc", "task-clock"] };
            long start = Stopwatch.GetTimestamp();
            PerfResult first = Perf.Measure(options, ChainSteps, body);
            double wall = Stopwatch.GetElapsedTime(start).TotalMilliseconds;
            Thread.Sleep(1_500);
            PerfResult settled = Perf.Measure(options with { WarmupTime = TimeSpan.FromMilliseconds(300), TimeBudget = TimeSpan.FromSeconds(1) }, ChainSteps, body);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{first.Tsc.P50 / settled.Tsc.P50:F3} {wall:F0} {first.Run.WarmupTime.TotalMilliseconds:F0} {first.Run.WarmupEnd} {first.Run.CodeMayHaveChanged}"));
            return 0;
        }

        var fresh = new List<double>();
        foreach (Func<int, long> body in s_fresh)
            fresh.Add(TimedDefault(body));
        var again = new List<double>();
        for (int i = 0; i < 5; i++)
            again.Add(TimedDefault(s_fresh[0]));
        Console.WriteLine(string.Join(" ", fresh.Select(w => w.ToString("F0", CultureInfo.InvariantCulture))) + " | " + string.Join(" ", again.Select(w => w.ToString("F0", CultureInfo.InvariantCulture))));
        return 0;
    }

    private static double TimedDefault(Func<int, long> body)
    {
        long start = Stopwatch.GetTimestamp();
        _ = Perf.Measure(PerfOptions.Default, 250, body);
        return Stopwatch.GetElapsedTime(start).TotalMilliseconds;
    }

    private static string RunChild(string command, string argument)
    {
        // Under `dotnet run` the process is the app host; under `dotnet Picollo.Benchmarks.dll` it is dotnet itself.
        string host = Environment.ProcessPath!;
        var start = new ProcessStartInfo(host) { RedirectStandardOutput = true, UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(host) == "dotnet")
            start.ArgumentList.Add(typeof(WarmupBenchmark).Assembly.Location);
        start.ArgumentList.Add(command);
        start.ArgumentList.Add(argument);
        using Process child = Process.Start(start)!;
        string output = child.StandardOutput.ReadToEnd().Trim();
        child.WaitForExit();
        if (child.ExitCode != 0)
            throw new InvalidOperationException($"{command} {argument} exited with {child.ExitCode}: {output}");
        return output;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static long Chain(int n)
    {
        long x = n;
        for (int i = 0; i < n; i++)
            x += x ^ i;
        return x;
    }
}
