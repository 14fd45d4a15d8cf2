using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting.Serialization;

namespace Picollo.Reporting;

/// <summary>
/// Everything one performance test has to show (docs/ARCHITECTURE.md, "Baselines and verdicts"): per counter its
/// summary table with operations per sample and overhead, its verdict against the baseline, and the per-operation diff
/// table when a baseline entry was compared. The JSON file, the SVG plot and the step-summary digest are rendered from
/// it.
/// </summary>
internal sealed class PerfReport
{
    private readonly BaselineFile? _baseline;

    /// <summary>Creates a report.</summary>
    /// <param name="testName">The test as people know it, e.g. <c>ParserTests.Parse(size: 64)</c>.</param>
    /// <param name="result">The measurement.</param>
    /// <param name="check">The baseline check of <paramref name="result"/>, or <see langword="null"/> when none ran.</param>
    /// <param name="baseline">The baseline file the check compared with (<see cref="BaselineStore.Read"/>), for the
    /// diff tables and plots; <see langword="null"/> when there is none.</param>
    /// <param name="remeasurement">When <paramref name="result"/> is a second measurement taken to confirm a regression
    /// of the first, what each showed; else <see langword="null"/>.</param>
    public PerfReport(
        string testName, PerfResult result, BaselineCheckResult? check = null, BaselineFile? baseline = null, string? remeasurement = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(testName);
        ArgumentNullException.ThrowIfNull(result);
        TestName = testName;
        Result = result;
        Check = check;
        _baseline = baseline;
        Remeasurement = remeasurement;
    }

    /// <summary>The test's name.</summary>
    public string TestName { get; }

    /// <summary>The measurement.</summary>
    public PerfResult Result { get; }

    /// <summary>The baseline check, or <see langword="null"/>.</summary>
    public BaselineCheckResult? Check { get; }

    /// <summary>
    /// Why <see cref="Result"/> is a second measurement and what both showed, or <see langword="null"/> when the result was
    /// judged on its first measurement. A report shows the measurement whose check decided the outcome.
    /// </summary>
    public string? Remeasurement { get; }

    /// <summary>
    /// The test's verdict in one word: <c>pass</c>, <c>notice</c>, <c>fail</c>, <c>updated</c>, <c>not judged</c>
    /// (unoptimized code), or <c>measured</c> without a baseline check.
    /// </summary>
    public string Verdict => Check?.Outcome switch
    {
        null => "measured",
        BaselineOutcome.NotJudged => "not judged",
        { } outcome => outcome.ToString().ToLowerInvariant(),
    };

    /// <summary>The verdict of a counter, or <see langword="null"/> when no check ran or the counter was not compared.</summary>
    /// <param name="counterName">The counter's name (ordinal).</param>
    /// <returns>The verdict or <see langword="null"/>.</returns>
    public CounterVerdict? GetVerdict(string counterName) =>
        Check?.Verdicts.FirstOrDefault(v => string.Equals(v.Counter, counterName, StringComparison.Ordinal));

    /// <summary>The baseline counter a verdict compared with, or <see langword="null"/> when there is none.</summary>
    /// <param name="counterName">The counter's name (ordinal).</param>
    /// <returns>The baseline's counter from the entry the verdict names.</returns>
    public BaselineCounter? GetBaselineCounter(string counterName) =>
        GetVerdict(counterName) is { BaselineMachineId: { } id } verdict ? _baseline?.Find(id)?.Record.Find(verdict.Counter) : null;

    /// <summary>
    /// The report in markdown: a heading, the run line, the re-measurement when there was one, then per counter its
    /// verdict, summary table and diff table.
    /// </summary>
    /// <returns>The markdown text.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.Append("#### ").Append(TestName).Append(": ").Append(Verdict).Append('\n').Append('\n')
            .Append(CultureInfo.InvariantCulture, $"{Result.SampleCount:N0} samples × {Result.OperationsPerSample:N0} operations in ")
            .Append(CultureInfo.InvariantCulture, $"{Result.WallTime.TotalMilliseconds:N0} ms ")
            .Append(CultureInfo.InvariantCulture, $"(warmup {Result.Run.WarmupTime.TotalMilliseconds:N0} ms, ")
            .Append(CultureInfo.InvariantCulture, $"{WarmupEndText(Result.Run.WarmupEnd)})\n\n");

        // The caveats decide how far the numbers can be trusted (code changed under the samples, budget-bound, no pinning).
        foreach (string note in Result.Run.Notes)
            text.Append("Note: ").Append(note).Append('\n').Append('\n');
        if (Remeasurement is not null)
            text.Append(Remeasurement).Append('\n').Append('\n');
        var zeros = new List<CounterResult>();
        foreach (CounterResult counter in Result.Counters)
        {
            if (!counter.IsAvailable)
                continue;
            if (CountedNothing(counter))
            {
                zeros.Add(counter);
                continue;
            }

            text.Append(GetVerdict(counter.Name)?.Text ?? $"{counter.Name}: not compared with a baseline").Append('\n')
                .Append(CultureInfo.InvariantCulture, $"{counter.OperationsPerSample:N0} operations per sample")
                .Append(OverheadText(counter))
                .Append('\n').Append('\n')
                .Append(counter.ToMarkdown());
            if (GetBaselineCounter(counter.Name) is { } reference && GetVerdict(counter.Name) is { } verdict)
                text.Append(BaselineDiffTable.ToMarkdown(reference, BaselineCounter.FromResult(counter), verdict));
        }

        // A table of zeros says nothing its one line does not; the JSON result keeps the histograms all the same.
        foreach (IGrouping<string, CounterResult> group in zeros.GroupBy(ZeroOutcome, StringComparer.Ordinal))
            text.AppendJoin(", ", group.Select(static c => c.Name))
                .Append(": 0 in every sample").Append(group.Key).Append('\n').Append('\n');

        // The cause in a few words: the remedy paragraph is the same for every test of the run; the JSON result keeps it.
        foreach ((IReadOnlyList<string> names, string reason) in UnavailableCounterGroups.Group(
            Result.Counters.Where(static c => !c.IsAvailable).Select(static c => (c.Name, c.UnavailableReason))))
        {
            text.Append("Unavailable: ").AppendJoin(", ", names).Append(" (").Append(UnavailableReasons.Headline(reason))
                .Append("; 'picollo doctor' says why)").Append('\n').Append('\n');
        }

        if (Check is not null)
            text.Append("Baseline: ").Append(Check.BaselinePath).Append('\n');
        if (Check?.ReceivedPath is { } received)
            text.Append("Received: ").Append(received).Append('\n');

        return text.ToString();
    }

    // Only an overhead that was subtracted is named: "overhead subtracted: median 0 bytes per sample" beside 12,464 bytes per
    // operation read as a contradiction (issue 27). The runtime counters and software events usually have none.
    internal static string OverheadText(CounterResult counter) => counter.Overhead is { Median: > 0 } overhead
        ? string.Create(CultureInfo.InvariantCulture, $", overhead subtracted: median {overhead.Median:N0} {counter.Unit} per sample")
        : string.Empty;

    private static string WarmupEndText(WarmupEnd end) => end switch
    {
        WarmupEnd.CodeOptimized => "ended with the body's code optimized",
        WarmupEnd.CodeUnoptimized => "ended with the body's code final but unoptimized",
        WarmupEnd.JitQuiet => "ended once the JIT was quiet",
        _ => "ended by its time cap",
    };

    // Nothing counted now, and nothing in the baseline it was compared with (if any): the verdict cannot be a regression.
    internal bool CountedNothing(CounterResult counter)
    {
        foreach (ulong sample in counter.Samples)
        {
            if (sample != 0)
                return false;
        }

        return GetBaselineCounter(counter.Name) is not { } reference || reference.Histogram.GetSummary().P100.Value == 0;
    }

    private string ZeroOutcome(CounterResult counter) => GetVerdict(counter.Name) switch
    {
        { BaselineValue: not null } verdict => ", as in the baseline: "
            + (verdict.Status == CounterVerdictStatus.Pass ? "pass" : verdict.Status.ToString().ToLowerInvariant()),
        { } verdict => " (" + verdict.Text[(verdict.Counter.Length + 2)..] + ")",
        null => string.Empty,
    };

    private static VerdictModel VerdictModelOf(CounterVerdict v) => new(
        v.Status,
        v.Mode,
        v.Statistic,
        v.BaselineValue,
        v.CurrentValue,
        v.RelativeChange,
        v.EffectSize,
        v.EffectSize is null ? null : CounterVerdict.EffectSizeName,
        v.BaselineMachineId,
        v.Text)
    {
        CohensD = v.CohensD,
    };

    internal PerfReportModel ToModel()
    {
        var counters = Result.Counters.Select(c =>
        {
            CounterVerdict? v = GetVerdict(c.Name);
            return new CounterReportModel(
                c.Name,
                c.Unit,
                c.Kind,
                c.IsAvailable,
                c.UnavailableReason,
                c.OperationsPerSample,
                c.SampleCount,
                c.IsAvailable
                    ? new PerOperationModel(c.P0, c.GetPercentile(10), c.GetPercentile(25), c.P50, c.P90, c.P99, c.P100, c.Mean, c.StdDev)
                    : null,
                c.Overhead?.Median,
                c.IsAvailable ? JsonElement.Parse(c.Histogram.ToUtf8Json()) : null,
                v is null ? null : VerdictModelOf(v));
        }).ToList();
        return new PerfReportModel(
            TestName, Verdict, Result.TimestampUtc, Result.OperationsPerSample, Result.SampleCount, Result.WallTime.TotalMilliseconds,
            Result.Run.WarmupTime.TotalMilliseconds, Result.Run.WarmupEnd.ToString(), Result.Run.Notes,
            Check?.BaselinePath, Check?.ReceivedPath, Remeasurement, counters);
    }

    /// <summary>
    /// The report as JSON: per counter the unit, kind, availability, operations per sample, exact per-operation
    /// P0/P50/P90/P99/P100/mean/stdev, the overhead median, the sparse histogram of per-sample totals
    /// (<see cref="Metrics.HdrHistogram.ToJson"/>) and the verdict.
    /// </summary>
    /// <returns>Indented JSON with "\n" line ends.</returns>
    public string ToJson() => JsonSerializer.Serialize(ToModel(), PerfReportJsonContext.Default.PerfReportModel);

    /// <summary>
    /// The percentile distribution of every available counter as a self-contained SVG, one panel per counter: value per
    /// operation against the percentile on a log scale (like HdrHistogram plots), current and, when compared, baseline.
    /// </summary>
    /// <returns>The SVG document.</returns>
    public string ToSvg() => PercentilePlot.ToSvg(this);

    /// <inheritdoc/>
    public override string ToString() => $"{TestName}: {Verdict}";
}
