using System.Globalization;
using System.Text;
using Picollo.Counters;
using Picollo.Metrics;
using Picollo.Text;

namespace Picollo.Measurement;

/// <summary>
/// What one counter measured in one run: the overhead-subtracted per-sample distribution, its statistics per
/// operation, the overhead calibration, and whether the counter counted at all.
/// </summary>
/// <remarks>
/// <para>
/// <see cref="Histogram"/> and <see cref="Summary"/> hold per-sample totals of <see cref="OperationsPerSample"/>
/// operations (overhead-subtracted, clamped at 0), in the counter's <see cref="Unit"/>. When
/// <see cref="IsPerOperationDistribution"/> is <see langword="true"/> (one operation per sample) that is the
/// distribution of single operations; otherwise it is the distribution of per-sample means, which is narrower.
/// </para>
/// <para>
/// The plain numbers (<see cref="P50"/>, <see cref="Mean"/>, …) are per operation: exact order statistics of the
/// per-sample totals divided by <see cref="OperationsPerSample"/>, computed from the samples themselves rather than
/// from histogram buckets, so fractional values (0.01 branch misses per operation) and exact counts (88 allocated
/// bytes) survive. An unavailable counter has <see cref="double.NaN"/> everywhere, which no bound accepts.
/// </para>
/// </remarks>
public sealed class CounterResult
{
    private readonly ulong[] _samples;
    private readonly ulong[] _sorted;

    internal CounterResult(
        CounterDescriptor descriptor, long operationsPerSample, ulong[] samples, HdrHistogram histogram, CounterOverhead? overhead,
        double multiplexingRatio)
    {
        Descriptor = descriptor;
        OperationsPerSample = operationsPerSample;
        _samples = samples;
        _sorted = (ulong[])samples.Clone();
        Array.Sort(_sorted);
        Histogram = histogram;
        Overhead = overhead;
        MultiplexingRatio = multiplexingRatio;
        (Mean, StdDev) = MeanAndStdDev(_samples, operationsPerSample);
    }

    /// <summary>Creates the result of a counter that did not count, with the reason.</summary>
    /// <param name="descriptor">The counter, whose <see cref="CounterDescriptor.UnavailableReason"/> says why.</param>
    /// <param name="relativeError">The histogram precision the run would have used.</param>
    /// <returns>A result with no samples.</returns>
    internal static CounterResult Unavailable(CounterDescriptor descriptor, double relativeError)
        => new(descriptor, 1, [], HdrHistogram.Factory.WithRelativeError(relativeError).Create(), null, double.NaN);

    /// <summary>The counter: name, unit, kind and availability.</summary>
    public CounterDescriptor Descriptor { get; }

    /// <summary>The counter's canonical name (e.g. <c>tsc</c>, <c>task-clock</c>, <c>allocated-bytes</c>).</summary>
    public string Name => Descriptor.Name;

    /// <summary>The unit of one count (<c>ticks</c>, <c>ns</c>, <c>bytes</c>, <c>events</c>, …).</summary>
    public string Unit => Descriptor.Unit;

    /// <summary>The source family, which decides how far the values compare across machines.</summary>
    public CounterKind Kind => Descriptor.Kind;

    /// <summary><see langword="true"/> when the counter counted in this run.</summary>
    public bool IsAvailable => Descriptor.IsAvailable;

    /// <summary>Why the counter did not count, with the remedy; <see langword="null"/> when it did.</summary>
    public string? UnavailableReason => Descriptor.UnavailableReason;

    /// <summary>Operations per sample: the divisor from per-sample totals to per-operation values.</summary>
    public long OperationsPerSample { get; }

    /// <summary>
    /// <see langword="true"/> when each sample is one operation, so <see cref="Histogram"/> is a per-operation distribution;
    /// <see langword="false"/> when it is a distribution of per-sample totals (means of <see cref="OperationsPerSample"/> operations).
    /// </summary>
    public bool IsPerOperationDistribution => OperationsPerSample == 1;

    /// <summary>The number of samples.</summary>
    public int SampleCount => _samples.Length;

    /// <summary>The overhead-subtracted per-sample totals, in sampling order (what a baseline stores as a histogram).</summary>
    public ReadOnlySpan<ulong> Samples => _samples;

    /// <summary>The per-sample totals (overhead-subtracted, clamped at 0), bucketed with the run's relative error.</summary>
    public HdrHistogram Histogram { get; }

    /// <summary>The summary table of <see cref="Histogram"/> (per-sample totals).</summary>
    public HdrHistogramSummary Summary => field ??= Histogram.GetSummary();

    /// <summary>The overhead calibration; <see langword="null"/> for an unavailable counter.</summary>
    public CounterOverhead? Overhead { get; }

    /// <summary>
    /// The fraction of the run the kernel actually counted a perf event (time running / time enabled, 1 = never multiplexed);
    /// <see cref="double.NaN"/> when unknown or not a perf event.
    /// </summary>
    public double MultiplexingRatio { get; }

    /// <summary>The smallest per-operation value.</summary>
    public double P0 => GetPercentile(0);

    /// <summary>The median per-operation value.</summary>
    public double P50 => GetPercentile(50);

    /// <summary>The 90th percentile per operation.</summary>
    public double P90 => GetPercentile(90);

    /// <summary>The 99th percentile per operation.</summary>
    public double P99 => GetPercentile(99);

    /// <summary>The largest per-operation value.</summary>
    public double P100 => GetPercentile(100);

    /// <summary>The mean per operation.</summary>
    public double Mean { get; }

    /// <summary>
    /// The standard deviation of the per-sample values, per operation (of per-sample means when
    /// <see cref="OperationsPerSample"/> &gt; 1).
    /// </summary>
    public double StdDev { get; }

    /// <summary>
    /// A percentile per operation: the sample at position ⌈rank / 100 · count⌉ (at least the first) of the sorted
    /// samples, divided by <see cref="OperationsPerSample"/>.
    /// </summary>
    /// <param name="rank">The rank in [0, 100].</param>
    /// <returns>The value; <see cref="double.NaN"/> when the counter has no samples.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The rank is outside [0, 100].</exception>
    public double GetPercentile(double rank)
    {
        if (!(rank >= 0 && rank <= 100))
            throw new ArgumentOutOfRangeException(nameof(rank), rank, "A percentile rank lies in [0, 100].");
        return _sorted.Length == 0 ? double.NaN : (double)_sorted[CountAtRank(rank) - 1] / OperationsPerSample;
    }

    /// <summary>The title of this counter's table of <paramref name="values"/>, saying what the table's values are.</summary>
    /// <param name="values">Per operation or per sample.</param>
    /// <returns>
    /// For example <c>tsc (ticks per operation, from samples of 1,000 operations)</c> or <c>tsc (ticks per sample of 1,000
    /// operations)</c>; <c>tsc (ticks per operation)</c> either way when each sample is one operation.
    /// </returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="values"/> is not a defined value.</exception>
    public string Title(CounterValues values = CounterValues.PerOperation)
    {
        if (!Enum.IsDefined(values))
        {
            throw new ArgumentOutOfRangeException(
                nameof(values),
                values,
                $"Not a {nameof(CounterValues)} value: use {nameof(CounterValues.PerOperation)} or {nameof(CounterValues.PerSample)}.");
        }
        if (IsPerOperationDistribution)
            return string.Create(CultureInfo.InvariantCulture, $"{Name} ({Unit} per operation)");
        return values == CounterValues.PerOperation
            ? string.Create(
                CultureInfo.InvariantCulture, $"{Name} ({Unit} per operation, from samples of {OperationsPerSample:N0} operations)")
            : string.Create(CultureInfo.InvariantCulture, $"{Name} ({Unit} per sample of {OperationsPerSample:N0} operations)");
    }

    /// <summary>
    /// This counter's table in markdown, titled with what its values are; one line with the reason when it is
    /// unavailable.
    /// </summary>
    /// <param name="values">
    /// <see cref="CounterValues.PerOperation"/> (default): exact per-operation percentiles of the samples, up to 3
    /// decimals, with the count of samples at or below each, the mean and the standard deviation.
    /// <see cref="CounterValues.PerSample"/>: the <see cref="Summary"/> table of per-sample totals.
    /// </param>
    /// <returns>A level-5 heading, the table, and a blank line.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="values"/> is not a defined value.</exception>
    public string ToMarkdown(CounterValues values = CounterValues.PerOperation)
    {
        string title = Title(values);
        if (!IsAvailable)
            return $"{Name}: unavailable: {UnavailableReason}\n\n";
        if (values == CounterValues.PerSample)
            return Summary.ToMarkdown(title);

        var table = new MarkdownTable(("Percentile", false), ("Value", true), ("Count", true));
        foreach (double rank in HdrHistogramSummary.Ranks)
        {
            string count = CountAtRank(rank).ToString("N0", CultureInfo.InvariantCulture);
            table.AddRow(Percentile.FormatRank(rank), FormatValue(GetPercentile(rank)), count);
        }

        table.AddRow();
        table.AddRow("Mean:", FormatValue(Mean));
        table.AddRow("StDev:", FormatValue(StdDev));
        table.AddRow("Samples:", SampleCount.ToString("N0", CultureInfo.InvariantCulture));
        var text = new StringBuilder();
        table.WriteTo(text, title);
        return text.ToString();
    }

    /// <summary>A one-line digest: name, availability or P50 / mean per operation.</summary>
    /// <returns>For example <c>tsc: P50=312.5 ticks/op, Mean=313.1, 1,000 samples × 1,000 ops</c>.</returns>
    public override string ToString() => IsAvailable
        ? string.Create(
            CultureInfo.InvariantCulture,
            $"{Name}: P50={P50:#,0.###} {Unit}/op, Mean={Mean:#,0.###}, {SampleCount:N0} samples × {OperationsPerSample:N0} ops")
        : $"{Name}: unavailable ({UnavailableReason})";

    // The samples at or below a rank (1-based, at least the first; 0 without samples): the same definition as
    // HdrHistogram's CountAtRank, so the plain numbers and the summary table agree up to bucket precision.
    private long CountAtRank(double rank) => Math.Min(Math.Max(1, (long)Math.Ceiling(rank / 100.0 * _sorted.Length)), _sorted.Length);

    private static string FormatValue(double value) => value.ToString("#,0.###", CultureInfo.InvariantCulture);

    private static (double Mean, double StdDev) MeanAndStdDev(ulong[] samples, long operationsPerSample)
    {
        if (samples.Length == 0)
            return (double.NaN, double.NaN);

        // Welford: stable for large totals with a small spread (e.g. 10^9 ticks ± 100).
        double mean = 0, m2 = 0;
        for (int i = 0; i < samples.Length; i++)
        {
            double x = samples[i];
            double delta = x - mean;
            mean += delta / (i + 1);
            m2 += delta * (x - mean);
        }

        return (mean / operationsPerSample, Math.Sqrt(m2 / samples.Length) / operationsPerSample);
    }
}
