using System.Globalization;
using System.Text;
using Picollo.Text;

namespace Picollo.Benchmarks;

/// <summary>Turns the record measurements into the figures table, the budgets' verdicts (docs/ARCHITECTURE.md, Hot paths; issue 15) and the method notes.</summary>
internal sealed class RecordReport
{
    public const double FloorBudget = 1.3;
    public const double WriterFloorBudget = 1.1;
    public const double HdrHistogramNetSpeedup = 4.0;

    private const string LongHistogramName = "HdrHistogram.NET";

    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    private readonly List<RecordMeasurement> _measurements;
    private readonly MachineInfo _machine;
    private readonly DateTimeOffset _started;
    private readonly double _seconds;
    private readonly string _loadBefore;
    private readonly string _loadAfter;

    public RecordReport(List<RecordMeasurement> measurements, MachineInfo machine, DateTimeOffset started, double seconds, string loadBefore, string loadAfter)
    {
        _loadBefore = loadBefore;
        _loadAfter = loadAfter;
        _measurements = measurements;
        _machine = machine;
        _started = started;
        _seconds = seconds;
    }

    public string ToConsoleText()
    {
        var text = new StringBuilder();
        BuildFigures().WriteTo(text, "Record, single thread (ns per recorded value)");
        BuildGoals().WriteTo(text, "Goals (issue 15; docs/ARCHITECTURE.md, Hot paths)");
        return text.ToString();
    }

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.Append("## Record, single thread\n\n");
        text.Append("Command: `dotnet run -c Release --project bench/Picollo.Benchmarks -- record`\n\n");
        text.Append(Invariant, $"- Date: {_started:yyyy-MM-dd HH:mm} UTC (whole run {_seconds:F0} s)\n");
        text.Append(Invariant, $"- CPU: {_machine.Cpu}, {_machine.LogicalCores} logical cores\n");
        text.Append(Invariant, $"- Load average (1/5/15 min) before: {_loadBefore}, after: {_loadAfter} (other processes share the cores)\n");
        text.Append(Invariant, $"- OS: {_machine.OperatingSystem}\n");
        text.Append(Invariant, $"- Runtime: {_machine.Runtime}, Release, TieredCompilation on, TieredPGO on, workstation non-concurrent GC\n\n");

        BuildFigures().WriteTo(text, "Figures (ns per recorded value; best and median of the timed runs)");
        text.Append(
            "`÷ floor` divides a variant's best time by the best time of the floor loop with the same counter width. " +
            "`HdrHistogram.NET ÷` is how many times faster a Picollo variant is than HdrHistogram.NET's `LongHistogram`. " +
            "Footprints: Picollo `FootprintInBytes` (counters and the overflow slot), HdrHistogram.NET `GetEstimatedFootprintInBytes()`.\n\n");

        BuildGoals().WriteTo(text, "Goals (issue 15; docs/ARCHITECTURE.md, Hot paths)");
        text.Append(
            "The verdict uses `Best ÷ best`, the article's statistic. `Paired median` is the median over the rounds of the ratio " +
            "between the two runs of the same round, a second opinion that is less sensitive to bursts of outside load.\n\n");

        text.Append("##### Method\n");
        text.Append(
            "- Workload (the article's): 1,000,000 values `(long)(Math.Pow(random.NextDouble(), 3) * max)` from `new Random(42)`, then " +
            "`random.Shuffle(values)`. The article declares the multiplier as `MaxValue = 7716549600` and varies the max trackable value; " +
            "HdrHistogram.NET's `RecordValue` throws `IndexOutOfRangeException` above its highest trackable value, so its figures at 30,000 and " +
            "1,000,000,000 can only come from values generated with the case's own max. This benchmark does the same: the values are " +
            "regenerated per case with `max` = the max trackable value, so every variant measures the in-range path (same seed, same order). " +
            "The last case, `30,000 ← 7,716,549,600`, is the article's own: values drawn with `max` = 7,716,549,600 into histograms whose max " +
            "trackable value is 30,000, so about 98.4 % of them land in the overflow slot. HdrHistogram.NET cannot take part (it throws); " +
            "`Floor u64, overflow in a local` takes its place: the floor with a branch that counts overflows in a register and adds them to " +
            "the array once, after the loop, to show what the in-memory overflow counter costs. " +
            "The budgets are judged on the four in-range cases; the overflow-heavy one is reported (see the notes).\n");
        text.Append(
            "- Variants, all in one process on the same array: Picollo `HdrHistogram.Factory.WithRelativeError(0.0005).WithMaxTrackableValue(max)` " +
            "with `WithUInt32Storage()` (the article's) and `WithUInt64Storage()`, `Record((ulong)v)`; Writer: the same histogram configuration, " +
            "`HdrHistogramWriter writer = histogram.GetWriter()` once per run, then `writer.Record((ulong)v)`; HdrHistogram.NET 2.5.0 " +
            "`new LongHistogram(highestTrackableValue: max, numberOfSignificantValueDigits: 3)` (lowest 1), `RecordValue(v)` " +
            "(only this type: see the notes below about `IntHistogram`); the floor: " +
            "`HdrBuckets.GetLogicalIndexForValue` plus the overflow clamp inlined by hand into a static loop whose block scale, first index, " +
            "length and `uint[]`/`ulong[]` are locals, incrementing the array without a bounds check exactly like `Record` does " +
            "(`Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(counts), index)++`); its overflow counter is the array's last slot, in memory " +
            "like Picollo's. Each loop is " +
            "`for (r < repeats) foreach (long v in values) record(v)` in a method that knows the concrete histogram type.\n");
        double warmupSeconds = RecordBenchmark.WarmupNanos / 1e9;
        text.Append(Invariant, $"- Warm-up: each variant runs its loop at least {RecordBenchmark.WarmupCalls} times and at least {warmupSeconds:F0} s ");
        text.Append(
            "(on a 10,000-value prefix, with a full pass every 50 calls), so the measured methods run their final tier-1 code with " +
            "dynamic PGO, as in the article. `AggressiveOptimization` is deliberately not used: it would disable PGO.\n");
        long targetMillis = RecordBenchmark.TargetRunNanos / 1_000_000;
        text.Append(Invariant, $"- Timing: `Stopwatch.GetTimestamp()` around one run, converted with `NanoScope.TicksToNanos`. ");
        text.Append(Invariant, $"A run records the 1,000,000 values `repeats` times, with `repeats` calibrated per variant for ~{targetMillis} ms. ");
        text.Append(Invariant, $"{RecordBenchmark.Rounds} rounds; in each round every variant runs once, in a rotating order, so noise hits all alike. ");
        text.Append("Counters are reset before each run, outside the timed region.\n");
        text.Append(
            "- Allocation: `GC.GetAllocatedBytesForCurrentThread()` before and after each timed run (exact with background GC off), " +
            "summed over the runs and divided by the recorded values.\n");
        return text.ToString();
    }

    private MarkdownTable BuildFigures()
    {
        var table = new MarkdownTable(
            ("Max trackable", true),
            ("Variant", false),
            ("Best ns/op", true),
            ("Median ns/op", true),
            ("÷ floor", true),
            ("HdrHistogram.NET ÷", true),
            ("Footprint B", true),
            ("Alloc B/op", true),
            ("Runs × repeats", true));

        foreach (RecordMeasurement m in _measurements)
        {
            RecordMeasurement? floor = Find(m.Case, FloorHistogram.NameFor(m.Variant.CounterBits));
            RecordMeasurement? legacy = Find(m.Case, LongHistogramName);
            bool isPicollo = IsPicollo(m);
            table.AddRow(
                m.Case.Label,
                m.Variant.Name,
                m.BestNanosPerOp.ToString("F2", Invariant),
                m.MedianNanosPerOp.ToString("F2", Invariant),
                floor is null ? "" : Ratio(m.BestNanosPerOp / floor.BestNanosPerOp),
                isPicollo && legacy is not null ? Ratio(legacy.BestNanosPerOp / m.BestNanosPerOp) : "",
                m.Variant.FootprintInBytes.ToString("N0", Invariant),
                m.AllocatedBytes == 0 ? "0" : m.AllocatedBytesPerOp.ToString("G3", Invariant),
                string.Create(Invariant, $"{m.RunCount} × {m.Repeats}"));
        }

        return table;
    }

    private MarkdownTable BuildGoals()
    {
        var table = new MarkdownTable(("Goal", false), ("Case", false), ("Best ÷ best", true), ("Paired median", true), ("Verdict", false));
        AddFloorGoals(table, "Record", FloorBudget, m => m.Variant is PicolloRecordVariant);
        AddFloorGoals(table, "Writer", WriterFloorBudget, m => m.Variant is PicolloWriterRecordVariant);

        string speedupGoal = string.Create(Invariant, $"≥ {HdrHistogramNetSpeedup}× faster than LongHistogram.RecordValue");
        RecordCase everything = RecordCase.InRange(long.MaxValue);
        RecordMeasurement legacy = Find(everything, LongHistogramName)!;
        foreach (RecordMeasurement m in _measurements.Where(m => m.Variant is PicolloRecordVariant && m.Case == everything))
            AddGoal(table, speedupGoal, m, legacy, m, speedup => speedup >= HdrHistogramNetSpeedup);

        long bytes = Picollo().Sum(m => m.AllocatedBytes);
        long calls = Picollo().Sum(m => m.Operations);
        table.AddRow(
            "0 bytes allocated per Record (histogram and writer)",
            string.Create(Invariant, $"all timed Picollo runs ({calls:N0} calls)"),
            string.Create(Invariant, $"{bytes} B"),
            "",
            Verdict(bytes == 0));
        return table;
    }

    // The budgets hold for the in-range cases; the overflow-heavy case is reported, not judged (see the notes).
    private void AddFloorGoals(MarkdownTable table, string name, double budget, Func<RecordMeasurement, bool> variant)
    {
        string goal = string.Create(Invariant, $"{name} ≤ {budget}× the floor");
        foreach (RecordMeasurement m in _measurements.Where(m => variant(m) && !m.Case.IsOverflowHeavy))
            AddGoal(table, goal, m, m, Find(m.Case, FloorHistogram.NameFor(m.Variant.CounterBits))!, ratio => ratio <= budget);
    }

    // One goal row about the Picollo variant `judged`: numerator's best ÷ denominator's best, checked by met.
    private static void AddGoal(
        MarkdownTable table, string goal, RecordMeasurement judged, RecordMeasurement numerator, RecordMeasurement denominator, Func<double, bool> met)
    {
        double best = numerator.BestNanosPerOp / denominator.BestNanosPerOp;
        table.AddRow(
            goal,
            string.Create(Invariant, $"{judged.Case.ShortLabel}, u{judged.Variant.CounterBits}"),
            Ratio(best),
            Ratio(PairedMedian(numerator, denominator)),
            Verdict(met(best)));
    }

    // Median over the rounds of numerator run ÷ denominator run of the same round: both ran within
    // the same second, so a burst of outside load that slows a whole round cancels out of its ratio.
    private static double PairedMedian(RecordMeasurement numerator, RecordMeasurement denominator) =>
        RecordMeasurement.Median(numerator.NanosPerOp.Zip(denominator.NanosPerOp, (n, d) => n / d));

    private IEnumerable<RecordMeasurement> Picollo() => _measurements.Where(IsPicollo);

    private static bool IsPicollo(RecordMeasurement m) => m.Variant is PicolloRecordVariant or PicolloWriterRecordVariant;

    private static string Verdict(bool met) => met ? "met" : "**not met**";

    private RecordMeasurement? Find(RecordCase recordCase, string name) =>
        _measurements.FirstOrDefault(m => m.Case == recordCase && m.Variant.Name == name);

    private static string Ratio(double ratio) => ratio.ToString("F2", Invariant) + "×";
}
