using System.Diagnostics;
using System.Globalization;
using System.Text;
using Picollo.Cli.History.ChangePoints;

namespace Picollo.Benchmarks;

/// <summary>
/// <c>bench changepoints</c> (issue 52, "Proof"): the change-point detector on synthetic histories of 60 runs with the noise
/// the benches measure (<see cref="ChangePointSeries"/>): a step of 2, 5, 10, 20 and 50 % planted at a random run, 200
/// series per magnitude, precision and recall (a hit is a change point within ±3 runs of the step); 1,000 stationary
/// series, false alarms. The same seeded series for every setting, so the settings' rows compare like with like.
/// </summary>
internal static class ChangePointsBenchmark
{
    private const int Length = 60;
    private const int Tolerance = 3;
    private static readonly double[] s_steps = [0.02, 0.05, 0.10, 0.20, 0.50];

    public static int Run(string[] args)
    {
        int perStep = Option(args, "--series", 200), stationary = Option(args, "--stationary", 1000), seed = Option(args, "--seed", 52);
        var clock = Stopwatch.StartNew();
        List<(double Step, int At, double[] Series)> stepped = [.. Stepped(perStep, seed)];
        List<double[]> flat = [.. Flat(stationary, seed)];

        var table = new StringBuilder();
        table.Append("| Setting | ").AppendJoin(" | ", s_steps.Select(static s => $"+{s * 100:0} %: recall / precision"))
            .Append(" | Stationary: series with a false alarm / false alarms |\n")
            .Append("|---|").Append(string.Concat(s_steps.Select(static _ => "---:|"))).Append("---:|\n");
        foreach ((string name, ChangePointOptions options) in Settings())
        {
            string row = Row(name, options, stepped, flat);
            Console.Error.WriteLine(row);
            table.Append(row).Append('\n');
        }

        string timing = LongSeriesTiming(seed);
        MachineInfo machine = MachineInfo.Current();
        string section =
            "## Change points: the detector on synthetic histories\n\n"
            + $"Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- changepoints --series {perStep} --stationary {stationary} --seed {seed}`\n\n"
            + $"- Date: {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC; {clock.Elapsed.TotalSeconds:0.0} s in all; {machine.Cpu}, {machine.LogicalCores} cores; {machine.Runtime}\n"
            + $"- Series: {Length} runs each; per magnitude {perStep} series slower from a run drawn in [10, 50]; {stationary} stationary series. "
            + "Noise per run: a normal error of 1-3 % (drawn per series), and about one run in ten in a slow host state, 20-70 % slower, "
            + "sometimes two in a row (`ChangePointSeries`, from the spreads in \"Verdict quality\" and \"Levels\")\n"
            + $"- Recall: the share of stepped series with a change point within ±{Tolerance} runs of the step; precision: the share of the change "
            + "points reported on stepped series that are such hits; false alarms: any change point on a stationary series\n"
            + $"- {timing}\n\n"
            + table;
        Console.WriteLine(section);
        ResultsWriter.WriteSection(ResultsWriter.DefaultPath(), "changepoints", section);
        return 0;
    }

    // Default first, then the settings it was chosen from: one knob at a time around it, and Otava's own.
    private static IEnumerable<(string Name, ChangePointOptions Options)> Settings()
    {
        ChangePointOptions d = ChangePointOptions.Default;
        yield return ($"**Default** (min segment {d.MinSegment}, alpha {d.Alpha}, first pass {d.FirstPassAlpha}, min magnitude {d.MinMagnitude * 100:0} %, ranks)", d);
        yield return ("Otava's settings (t on the values, alpha 0.001, min magnitude 0, min segment 2)",
            d with { Test = ChangePointTest.Values, Alpha = 0.001, FirstPassAlpha = 0.01, MinMagnitude = 0, MinSegment = 2 });
        yield return ("t on the values", d with { Test = ChangePointTest.Values });
        foreach (int minSegment in new[] { 4, 5, 8 })
            yield return ($"min segment {minSegment}", d with { MinSegment = minSegment });
        foreach (double magnitude in new[] { 0.0, 0.05, 0.10 })
            yield return ($"min magnitude {magnitude * 100:0} %", d with { MinMagnitude = magnitude });
        foreach (double alpha in new[] { 0.001, 0.0003 })
            yield return ($"alpha {alpha} (first pass {alpha * 10:0.####})", d with { Alpha = alpha, FirstPassAlpha = alpha * 10 });
        yield return ("no first pass (one level)", d with { FirstPassAlpha = d.Alpha });
    }

    private static string Row(string name, ChangePointOptions options, List<(double Step, int At, double[] Series)> stepped, List<double[]> flat)
    {
        var cells = new List<string>();
        foreach (double step in s_steps)
        {
            int series = 0, found = 0, reported = 0, hits = 0;
            foreach ((double s, int at, double[] values) in stepped.Where(x => x.Step == step))
            {
                IReadOnlyList<ChangePoint> points = ChangePointDetector.Find(values, exact: false, options);
                int near = points.Count(p => Math.Abs(p.Index - at) <= Tolerance);
                series++;
                found += near > 0 ? 1 : 0;
                reported += points.Count;
                hits += near;
            }

            cells.Add($"{Percent(found, series)} / {(reported == 0 ? "–" : Percent(hits, reported))}");
        }

        int alarmed = 0, alarms = 0;
        foreach (double[] values in flat)
        {
            int count = ChangePointDetector.Find(values, exact: false, options).Count;
            alarmed += count > 0 ? 1 : 0;
            alarms += count;
        }

        return $"| {name} | {string.Join(" | ", cells)} | {alarmed} / {alarms} of {flat.Count} |";
    }

    private static IEnumerable<(double Step, int At, double[] Series)> Stepped(int perStep, int seed)
    {
        var random = new Random(seed);
        foreach (double step in s_steps)
        {
            for (int i = 0; i < perStep; i++)
            {
                int at = random.Next(10, 51);
                yield return (step, at, ChangePointSeries.Make(random, Length, step, at));
            }
        }
    }

    private static IEnumerable<double[]> Flat(int count, int seed)
    {
        var random = new Random(seed + 1);
        for (int i = 0; i < count; i++)
            yield return ChangePointSeries.Make(random, Length, 0, Length);
    }

    // The windows' promise: a long history costs in proportion to its length. 5,000 runs with a +10 % step every 500.
    private static string LongSeriesTiming(int seed)
    {
        var random = new Random(seed + 2);
        double[] series = ChangePointSeries.Make(random, 5000, 0, 5000);
        for (int i = 0; i < series.Length; i++)
            series[i] *= Math.Pow(1.10, i / 500);

        ChangePointDetector.Find(series, exact: false, ChangePointOptions.Default);
        var clock = Stopwatch.StartNew();
        int found = ChangePointDetector.Find(series, exact: false, ChangePointOptions.Default).Count;
        return string.Create(CultureInfo.InvariantCulture,
            $"A history of 5,000 runs (a +10 % step every 500): {clock.Elapsed.TotalMilliseconds:0} ms, {found} change points (9 planted)");
    }

    private static string Percent(int part, int whole) =>
        string.Create(CultureInfo.InvariantCulture, $"{100.0 * part / whole:0} %");

    private static int Option(string[] args, string name, int fallback)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? int.Parse(args[i + 1], CultureInfo.InvariantCulture) : fallback;
    }
}
