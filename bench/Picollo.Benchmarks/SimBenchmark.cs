using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Simulated;
using Picollo.Simulation;

namespace Picollo.Benchmarks;

/// <summary>
/// <c>bench sim</c>: do simulated counters repeat across fresh processes, under noise, and does a +1 % change of work
/// stand out? Each body is counted under callgrind exactly as a test's simulation worker counts it
/// (<see cref="SimulationCommand"/>'s arguments and environment, <see cref="SimulatedSampling"/>), in a fresh process per
/// count: <c>--processes</c> counts of the body as it is and as many with about 1 % more instructions (a dependent
/// multiply-add chain after it). The first unchanged count is the baseline; every other count is judged by the verdict's
/// own tolerances (<see cref="CounterVerdictRule.SimulatedCount"/>, <see cref="CounterVerdictRule.SimulatedMisses"/>).
/// Noise runs on the other core while the processes run (<see cref="NoiseMode"/>).
/// </summary>
internal static class SimBenchmark
{
    private const string ChildCommand = "sim-child";

    private static readonly string[] s_counters =
        [CounterNames.SimInstructions, CounterNames.SimBranchMisses, CounterNames.SimCacheMisses];

    private static readonly string[] s_bodies = ["words", "join", "lookup", "linq", "row"];

    private static readonly string s_sentence = "The quick brown fox jumps over the lazy dog, 42 times before breakfast.";
    private static readonly string[] s_parts = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
    private static readonly Dictionary<string, int> s_table = s_parts.Select((p, i) => (p, i)).ToDictionary(t => t.p, t => t.i);
    private static readonly int[] s_numbers = [.. Enumerable.Range(0, 64)];

    // A theory's row: 256 values from a fixed seed, whose branches go one way or the other by value.
    private static readonly int[] s_row = [.. Enumerable.Range(0, 256).Select(static i => (int)((uint)(i * 2654435761u) >> 24))];

    public static int Run(string[] args)
    {
        int processes = Option(args, "--processes", 3);
        string[] noises = (OptionText(args, "--noise") ?? "idle,spinner").Split(',');
        ValgrindInstallation valgrind = ValgrindInstallation.Current;
        if (valgrind.UnavailableReason is { } missing)
        {
            Console.Error.WriteLine(missing);
            return 2;
        }

        var table = new StringBuilder();
        table.Append("| noise | body | sim-instructions/op | spread, unchanged | sim-branch-misses/op | spread | sim-cache-misses/op | spread | ")
            .Append("false regressions | +work | caught | s/process |\n")
            .Append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        foreach (string noise in noises)
        {
            using NoiseMode mode = NoiseMode.Start(noise);
            foreach (string body in s_bodies)
            {
                string row = Row(valgrind, noise, body, processes);
                Console.Error.WriteLine(row);
                table.Append(row).Append('\n');
            }
        }

        MachineInfo machine = MachineInfo.Current();
        string section =
            "## Simulated counters: spread across fresh processes, and +1 % of work, under noise\n\n"
            + $"Run {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC: "
            + $"`dotnet run -c Release --project bench/Picollo.Benchmarks -- sim --processes {processes} --noise {string.Join(',', noises)}`"
            + $" on {machine.Cpu}, {machine.LogicalCores} cores, {valgrind.Path} {valgrind.Version}.\n\n"
            + $"Each body counted in {processes} fresh processes unchanged and {processes} with about 1 % more instructions; the "
            + "first unchanged count is the baseline, the others are judged by the verdict's tolerances (instructions ±0.1 %; "
            + "branch and cache misses ±1 % and at least 0.05 per operation). Spread: (max − min) / min over the unchanged processes.\n\n"
            + table;
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "sim", section);
        return 0;
    }

    // One body under one noise: unchanged and +work counts, each in its own process.
    private static string Row(ValgrindInstallation valgrind, string noise, string body, int processes)
    {
        var unchanged = new List<(double Instructions, double Misses, double CacheMisses)>();
        var seconds = new List<double>();
        for (int i = 0; i < processes; i++)
            unchanged.Add(Count(valgrind, body, 0, seconds));

        // About 1 % of the body's instructions as chain steps (each step about 6.5 instructions: the multiply, the add, the loop's).
        int steps = Math.Max(1, (int)Math.Round(unchanged[0].Instructions * 0.01 / 6.5));
        var more = new List<(double Instructions, double Misses, double CacheMisses)>();
        for (int i = 0; i < processes; i++)
            more.Add(Count(valgrind, body, steps, seconds));

        (double baseI, double baseM, double baseC) = unchanged[0];
        int falseRegressions = unchanged.Skip(1).Count(c => Regressed(baseI, c.Instructions, CounterVerdictRule.SimulatedCount)
            || Regressed(baseM, c.Misses, CounterVerdictRule.SimulatedMisses)
            || Regressed(baseC, c.CacheMisses, CounterVerdictRule.SimulatedMisses));
        int caught = more.Count(c => Regressed(baseI, c.Instructions, CounterVerdictRule.SimulatedCount));
        double change = (more.Average(c => c.Instructions) / baseI) - 1;
        return string.Create(
            CultureInfo.InvariantCulture,
            $"| {noise} | {body} | {baseI:N1} | {Spread(unchanged.Select(c => c.Instructions)):0.0000} % | {baseM:N2} | "
            + $"{Spread(unchanged.Select(c => c.Misses)):0.00} % | {baseC:N3} | {Spread(unchanged.Select(c => c.CacheMisses)):0.00} % | "
            + $"{falseRegressions}/{processes - 1} | +{change:P2} | "
            + $"{caught}/{processes} | {seconds.Average():0.0} |");
    }

    private static bool Regressed(double baseline, double current, CounterVerdictRule rule) =>
        current - baseline >= Math.Max(rule.MinRelativeChange * baseline, rule.MinAbsoluteChange);

    private static double Spread(IEnumerable<double> values)
    {
        double[] all = [.. values];
        return all.Min() > 0 ? (all.Max() - all.Min()) / all.Min() * 100 : 0;
    }

    // The body counted in a fresh process under callgrind, as a simulation worker runs.
    private static (double Instructions, double Misses, double CacheMisses) Count(ValgrindInstallation valgrind, string body, int steps, List<double> seconds)
    {
        string folder = Directory.CreateTempSubdirectory("picollo-bench-sim-").FullName;
        try
        {
            var info = new ProcessStartInfo(valgrind.Path!) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in SimulationCommand.ValgrindArguments(folder))
                info.ArgumentList.Add(argument);
            // The apphost, or dotnet with this assembly, as the bench itself was started.
            string host = Environment.ProcessPath!;
            info.ArgumentList.Add(host);
            if (Path.GetFileNameWithoutExtension(host) == "dotnet")
                info.ArgumentList.Add(typeof(SimBenchmark).Assembly.Location);
            foreach (string argument in new[] { ChildCommand, body, steps.ToString(CultureInfo.InvariantCulture), folder })
                info.ArgumentList.Add(argument);
            foreach ((string name, string value) in SimulationCommand.Environment)
                info.Environment[name] = value;
            long start = Stopwatch.GetTimestamp();
            using Process process = Process.Start(info)!;
            string output = process.StandardOutput.ReadToEnd();
            string error = process.StandardError.ReadToEnd();
            process.WaitForExit();
            seconds.Add(Stopwatch.GetElapsedTime(start).TotalSeconds);
            string? line = output.Split('\n').FirstOrDefault(static l => l.StartsWith("COUNTS ", StringComparison.Ordinal));
            if (process.ExitCode != 0 || line is null)
                throw new InvalidOperationException($"sim-child {body} {steps} exited {process.ExitCode}: {output} {error}");
            string[] fields = line.Split(' ');
            return (
                double.Parse(fields[1], CultureInfo.InvariantCulture),
                double.Parse(fields[2], CultureInfo.InvariantCulture),
                double.Parse(fields[3], CultureInfo.InvariantCulture));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>The child: counts one body (plus <c>steps</c> chain steps) and prints <c>COUNTS instructions misses</c>.</summary>
    public static int RunChild(string[] args)
    {
        string body = args[1];
        int steps = int.Parse(args[2], CultureInfo.InvariantCulture);
        var session = new CallgrindSession(SimulationWorkerProtocol.CallgrindOutput(args[3]));
        if (!CallgrindSession.IsUnderValgrind)
            throw new InvalidOperationException("sim-child runs under valgrind --tool=callgrind only.");
        Func<int> work = body switch
        {
            "words" => () => Words(s_sentence) + Chain(steps),
            "join" => () => string.Join(',', s_parts).Length + Chain(steps),
            "lookup" => () => Lookup() + Chain(steps),
            "row" => () => Row(s_row) + Chain(steps),
            "linq" => () => s_numbers.Where(static n => n % 3 != 0).Select(static n => n * 2).Sum() + Chain(steps),
            _ => throw new ArgumentException($"unknown body '{body}'", nameof(args)),
        };
        SimulatedMeasurement measured = SimulatedSampling.Run(
            PerfOptions.Default, [.. s_counters], new FuncLoop<int>(work), new FuncLoop<int>(static () => 0), session, CancellationToken.None);
        double PerOperation(string name)
        {
            SimulatedCounterSamples samples = measured.Counters.Single(c => c.Name == name);
            double[] perOperation = [.. samples.Samples.Select(s => (s - (double)samples.Overhead) / measured.OperationsPerSample).Order()];
            return perOperation[perOperation.Length / 2];
        }

        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"COUNTS {PerOperation(CounterNames.SimInstructions):R} {PerOperation(CounterNames.SimBranchMisses):R} "
            + $"{PerOperation(CounterNames.SimCacheMisses):R}"));
        return 0;
    }

    private static int Words(string text)
    {
        int words = 0;
        bool inWord = false;
        foreach (char c in text)
        {
            if (c == ' ')
            {
                inWord = false;
            }
            else if (!inWord)
            {
                inWord = true;
                words++;
            }
        }

        return words;
    }

    private static int Row(int[] row)
    {
        int low = 0, high = 0;
        foreach (int value in row)
        {
            if (value < 100)
                low += value;
            else if (value > 200)
                high ^= value;
        }

        return low + high;
    }

    private static int Lookup()
    {
        int sum = 0;
        foreach (string part in s_parts)
            sum += s_table[part];
        return sum;
    }

    private static int Chain(int steps)
    {
        ulong x = 1;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        return (int)x;
    }

    private static int Option(string[] args, string name, int fallback) =>
        OptionText(args, name) is { } text ? int.Parse(text, CultureInfo.InvariantCulture) : fallback;

    private static string? OptionText(string[] args, string name)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? args[i + 1] : null;
    }
}
