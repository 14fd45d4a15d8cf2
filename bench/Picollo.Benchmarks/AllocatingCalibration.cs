using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// How many multiply-adds make the allocating verdict body a given factor slower without allocating more (issue 24: its time
/// verdict is judged on its own, confirmed as a time regression is, where an arm that also allocated more failed at once
/// on the exact allocated-bytes counter and left its time judged once). The body runs them in series with its allocations
/// (<see cref="VerdictBody.Allocating.RunInSeries"/>), and each factor is calibrated in its cell, beside the cell's noise and
/// before its baseline is recorded, by the paired engine: the body with the steps against the body without them, interleaved
/// (<see cref="Perf.Compare{TState, TResult}(PerfOptions, TState, Func{TState, TResult}, Func{TState, TResult})"/>).
/// </summary>
/// <remarks>
/// Two earlier calibrations sized the arm from separate readings of each count, once per process on a quiet machine, and
/// both left "+30 %" short: a binary search over half-second floors (run 10 of issue 24: 20 steps read +25.2 %, and beside
/// the busy process the arm read +16 … +30 %), then that search checked by three readings of each side in turn (run 12: 24
/// steps at +21.0 %). The body has levels that change within a process (its allocation speed, the host's branchy state),
/// and a reading of one count at one level against a reading of the other at another is off by as much as the change
/// sought. Paired batches put both sides in the same moments, so a level change moves both; a line fitted through all the readings of a cell, each factor corrected by its own, sizes the
/// count. The cell's noise changes how much of the body the steps are (beside the busy process the
/// allocations slow, the steps less), so each cell calibrates its own.
/// </remarks>
internal static class AllocatingCalibration
{
    private const int MostSteps = 1_024;

    // Steps at which the cost of one step is first read: far enough past the few the allocations may hide.
    private const int ProbeSteps = 48;

    // Readings of each factor's count, each from the line fitted so far.
    private const int Rounds = 3;

    // The cells run one after another on the bench's thread, which also measures the arms: no lock.
    private static Dictionary<double, int> s_steps = [];

    private static string s_cell = "none";

    /// <summary>
    /// Calibrates the steps of each factor for the cell about to run (its noise already started) and prints what was found;
    /// <see cref="ExtraSteps"/> answers from them until the next cell calibrates.
    /// </summary>
    public static void ForCell(string cell, IEnumerable<double> works)
    {
        // First the body alone, as the arms measure it, so that the engine sees it compiled and reach its final code. The
        // paired sides below call it, and once it is compiled at tier 1 as their callee, a warmup of it alone has no
        // compilation of it to see and waits for the whole process to be quiet instead: a recording right after the
        // calibration ended all 5 of its warmups at the time cap, beside the calibration's methods tiering up, and kept no
        // time counter.
        _ = Perf.Measure(Options(), new VerdictBody.Allocating(VerdictBody.AllocatingUnits), VerdictBody.Allocating.RunInSeries);

        double[] factors = [.. works.Where(static w => w != 1.0).Order()];
        var readings = new List<Reading> { Read(ProbeSteps) };
        var own = factors.ToDictionary(static w => w, static _ => new List<Reading>());
        for (int round = 0; round < Rounds; round++)
        {
            foreach (double work in factors)
            {
                Reading reading = Read(Fit(readings).Steps(work, own[work]));
                readings.Add(reading);
                own[work].Add(reading);
            }
        }

        Line line = Fit(readings);
        var steps = factors.ToDictionary(static w => w, w => line.Steps(w, own[w]));
        foreach (double work in factors)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"[calibration] {cell} / allocating ×{work}: {steps[work]} extra multiply-adds (one step {line.PerStep * 100:0.00}% over {readings.Count} paired readings); read {string.Join(", ", own[work].Select(static r => $"{Percent(r.Ratio)} at {r.Steps}"))}"));
        }

        (s_steps, s_cell) = (steps, cell);
    }

    private static PerfOptions Options() => PerfOptions.Default with { Counters = [CounterNames.Tsc], TimeBudget = TimeSpan.FromSeconds(1) };

    /// <summary>The extra steps that make the body <paramref name="work"/> times its time in the current cell (0 at 1.0).</summary>
    public static int ExtraSteps(double work)
    {
        if (work == 1.0)
            return 0;

        return s_steps.TryGetValue(work, out int steps)
            ? steps
            : throw new InvalidOperationException($"The allocating body's ×{work} arm is not calibrated for cell '{s_cell}': call ForCell first.");
    }

    // The line through every reading of the cell: the ratio's change grows by one step's cost per step, less the few steps
    // the allocations hide (the intercept). Fitted over all of them, and each factor's own readings averaged, one noisy
    // comparison moves a count by a step or two, where keeping the closest reading kept the luckiest (a count read +30.5 %,
    // then +27.4 %).
    private static Line Fit(List<Reading> readings)
    {
        if (readings.Count == 1)
            return new Line(0, (readings[0].Ratio - 1) / readings[0].Steps);

        double meanSteps = readings.Average(static r => (double)r.Steps), meanChange = readings.Average(static r => r.Ratio - 1);
        double covariance = readings.Sum(r => (r.Steps - meanSteps) * (r.Ratio - 1 - meanChange));
        double variance = readings.Sum(r => (r.Steps - meanSteps) * (r.Steps - meanSteps));
        if (variance == 0)
            return new Line(0, meanChange / meanSteps);

        double perStep = covariance / variance;
        return new Line(meanChange - (perStep * meanSteps), perStep);
    }

    // The ratio's change at a count of steps: intercept + per step × steps. The steps hide more beside the allocations at
    // small counts than at large ones (the line read +9.9 % for ×1.1's count, which read +8.2 %, and +29.8 % for ×1.3's,
    // which read +27.4 %), so a factor's count comes from the line's slope through the factor's own readings.
    private readonly record struct Line(double Intercept, double PerStep)
    {
        public double Change(int steps) => Intercept + (PerStep * steps);

        public int Steps(double work, List<Reading> own)
        {
            if (PerStep <= 0)
                return MostSteps;
            Line line = this;
            double miss = own.Count == 0 ? 0 : own.Average(r => r.Ratio - 1 - line.Change(r.Steps));
            return Math.Clamp((int)Math.Round((work - 1 - Intercept - miss) / PerStep), 1, MostSteps);
        }
    }

    private static string Percent(double ratio) => string.Create(CultureInfo.InvariantCulture, $"{(ratio - 1) * 100:+0.0;-0.0}%");

    // The body with the steps against the body without them, in paired batches for a second (tsc only).
    private static Reading Read(int steps)
    {
        var sides = new Sides(steps);
        PairedCounter tsc = Perf.Compare(Options(), sides, Sides.Reference, Sides.Candidate).Tsc;
        return new Reading(steps, tsc.Ratio);
    }

    private readonly record struct Reading(int Steps, double Ratio);

    // Both sides as the one state the paired engine passes: the same body without and with the extra steps.
    private sealed class Sides(int steps)
    {
        private readonly VerdictBody.Allocating _reference = new(VerdictBody.AllocatingUnits);
        private readonly VerdictBody.Allocating _candidate = new(VerdictBody.AllocatingUnits) { Extra = steps };

        public static ulong Reference(Sides sides) => VerdictBody.Allocating.RunInSeries(sides._reference);

        public static ulong Candidate(Sides sides) => VerdictBody.Allocating.RunInSeries(sides._candidate);
    }
}
