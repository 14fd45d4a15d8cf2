using System.Globalization;
using Picollo.Counters;
using Picollo.Measurement.Paired;

namespace Picollo.Measurement;

/// <summary>
/// One counter of a <see cref="PerfComparison"/>: the candidate over the reference. A noisy counter (time, and the
/// hardware events) by its paired statistic: the median over batches of the ratio of the two sides' floors, its order-statistic interval,
/// Cohen's d_z; an exact counter (allocated bytes, JIT counts) by its means per operation, exactly (docs/VERDICTS.md,
/// "Paired comparisons").
/// </summary>
public sealed class PairedCounter
{
    /// <summary>The change under which a paired comparison calls a counter unchanged: 1%.</summary>
    public const double PracticalChange = 0.01;

    /// <summary>The coverage of the intervals the comparison reports: 99%.</summary>
    public const double DefaultConfidence = 0.99;

    private readonly double[] _units;
    private readonly double[] _batchRatios;

    internal PairedCounter(PerfComparison comparison, IReadOnlyList<(CounterResult Reference, CounterResult Candidate)> measurements)
    {
        Comparison = comparison;
        (CounterResult reference, CounterResult candidate) = measurements[^1];
        Reference = reference;
        Candidate = candidate;
        Measurements = measurements.Count;
        CounterTraits traits = KnownCounters.Of(reference.Name, reference.Kind);
        IsExact = traits.IsDeterministic;
        IsTimeLike = traits.IsTimeLike;
        IsOccasional = traits.IsOccasional;
        UnavailableReason = !reference.IsAvailable ? reference.UnavailableReason
            : !candidate.IsAvailable ? candidate.UnavailableReason
            : null;

        var units = new List<double>();
        var ratios = new List<double>();
        double referenceSum = 0, candidateSum = 0;
        long referenceOperations = 0, candidateOperations = 0;
        foreach ((CounterResult r, CounterResult c) in measurements)
        {
            if (!r.IsAvailable || !c.IsAvailable)
                continue;
            Pairs += Math.Min(r.SampleCount, c.SampleCount);
            referenceSum += r.Mean * r.SampleCount * r.OperationsPerSample;
            candidateSum += c.Mean * c.SampleCount * c.OperationsPerSample;
            referenceOperations += r.SampleCount * r.OperationsPerSample;
            candidateOperations += c.SampleCount * c.OperationsPerSample;
            if (IsExact || IsOccasional)
                continue;
            double[] measured = PairedStatistics.Units(r.Samples, c.Samples);
            units.AddRange(measured);
            ratios.AddRange(PairedStatistics.BatchRatios(r.Samples, c.Samples));
        }

        _units = [.. units];
        _batchRatios = [.. ratios];
        ReferenceMean = referenceOperations > 0 ? referenceSum / referenceOperations : double.NaN;
        CandidateMean = candidateOperations > 0 ? candidateSum / candidateOperations : double.NaN;
        FloorRatio = IsAvailable ? Candidate.GetPercentile(10) / Reference.GetPercentile(10) : double.NaN;

        if (!IsAvailable)
        {
            (Ratio, Low, High, Confidence, CohensDz) = (double.NaN, double.NaN, double.NaN, double.NaN, double.NaN);
        }
        else if (IsExact || IsOccasional)
        {
            Ratio = ReferenceMean == 0 ? (CandidateMean == 0 ? 1 : double.PositiveInfinity) : CandidateMean / ReferenceMean;
            (Low, High, Confidence, CohensDz) = IsExact ? (Ratio, Ratio, 1, double.NaN) : (double.NaN, double.NaN, double.NaN, double.NaN);
        }
        else
        {
            (double location, double low, double high, double coverage) = PairedStatistics.Interval(_batchRatios, DefaultConfidence);
            (Ratio, Low, High, Confidence) = (Math.Exp(location), Math.Exp(low), Math.Exp(high), coverage);
            CohensDz = PairedStatistics.CohensDz(_units);
        }
    }

    /// <summary>The counter's name.</summary>
    public string Name => Reference.Name;

    /// <summary>The unit of one count.</summary>
    public string Unit => Reference.Unit;

    /// <summary>Whether both sides counted; when not, <see cref="UnavailableReason"/> says why.</summary>
    public bool IsAvailable => UnavailableReason is null;

    /// <summary>Why the counter did not count on this machine; <see langword="null"/> when it did.</summary>
    public string? UnavailableReason { get; }

    /// <summary>Whether the counter is deterministic (allocated bytes, JIT counts): compared exactly, by its means per operation.</summary>
    public bool IsExact { get; }

    /// <summary>
    /// Whether the counter measures time (tsc, task-clock, cycles): the counters a comparison's "not slower" check
    /// covers.
    /// </summary>
    public bool IsTimeLike { get; }

    /// <summary>
    /// Whether the counter counts events that land in some samples only (collections, page faults): compared by its
    /// means, with no interval.
    /// </summary>
    public bool IsOccasional { get; }

    /// <summary>The reference's result of the latest measurement.</summary>
    public CounterResult Reference { get; }

    /// <summary>The candidate's result of the latest measurement.</summary>
    public CounterResult Candidate { get; }

    /// <summary>The measurements pooled: 1, or more when an assertion measured again to settle an inconclusive comparison.</summary>
    public int Measurements { get; }

    /// <summary>The pairs over all measurements.</summary>
    public int Pairs { get; }

    /// <summary>
    /// Candidate over reference: the paired location (the median over batches of contiguous pairs of the candidate's
    /// floor over the reference's) for a noisy counter; the ratio of the means per operation for an exact or occasional
    /// one. Below 1: the candidate counts less (is faster).
    /// </summary>
    public double Ratio { get; }

    /// <summary>The lower end of <see cref="Ratio"/>'s interval (<see cref="Confidence"/>); NaN for an occasional counter.</summary>
    public double Low { get; }

    /// <summary>The upper end of <see cref="Ratio"/>'s interval; NaN for an occasional counter.</summary>
    public double High { get; }

    /// <summary>
    /// The interval's coverage: at least <see cref="DefaultConfidence"/>, or less when the measurement had too few pairs for
    /// that (a body so slow that the time budget allowed only a few; measuring again adds batches); 1 for an exact counter.
    /// </summary>
    public double Confidence { get; }

    /// <summary>
    /// Cohen's d_z of the per-unit log differences (mean over standard deviation, over the units winsorized at their 10th
    /// and 90th percentiles): how far apart the two sides are in units of their paired noise. Positive when the candidate
    /// is slower; NaN for exact and occasional counters.
    /// </summary>
    public double CohensDz { get; }

    /// <summary>
    /// The ratio of the two floors (P10 per operation) of the latest measurement: what an unpaired comparison would
    /// report.
    /// </summary>
    public double FloorRatio { get; }

    /// <summary>The reference's mean per operation over all measurements.</summary>
    public double ReferenceMean { get; }

    /// <summary>The candidate's mean per operation over all measurements.</summary>
    public double CandidateMean { get; }

    /// <summary>What the comparison says at <see cref="PracticalChange"/>.</summary>
    public PairedChange Change => ChangeAt(PracticalChange);

    /// <summary>The comparison this counter belongs to.</summary>
    internal PerfComparison Comparison { get; }

    /// <summary>What the comparison says at a practical change of <paramref name="threshold"/>.</summary>
    /// <param name="threshold">The relative change below which the counter is unchanged, e.g. 0.01.</param>
    /// <returns>The change.</returns>
    internal PairedChange ChangeAt(double threshold)
    {
        if (!IsAvailable)
            return PairedChange.Inconclusive;
        if (IsExact || IsOccasional)
        {
            // Exact means are equal or not; an occasional counter's means move by chance, so only equality is a finding.
            if (ReferenceMean == CandidateMean)
                return PairedChange.Unchanged;
            if (IsOccasional)
                return PairedChange.Inconclusive;
            return CandidateMean > ReferenceMean ? PairedChange.Increased : PairedChange.Decreased;
        }

        if (Low > 1 + threshold)
            return PairedChange.Increased;
        if (High < 1 / (1 + threshold))
            return PairedChange.Decreased;
        if (Low >= 1 / (1 + threshold) && High <= 1 + threshold)
            return PairedChange.Unchanged;
        return PairedChange.Inconclusive;
    }

    /// <summary>The interval at another coverage: (low, high, coverage) as ratios.</summary>
    /// <param name="confidence">The wanted coverage, in (0, 1).</param>
    internal (double Low, double High, double Coverage) IntervalAt(double confidence)
    {
        if (IsExact)
            return (Ratio, Ratio, 1);
        (_, double low, double high, double coverage) = PairedStatistics.Interval(_batchRatios, confidence);
        return (Math.Exp(low), Math.Exp(high), coverage);
    }

    /// <summary>The change as the report words it: "0.500× (0.497–0.503×), 2.0× faster".</summary>
    /// <returns>One line.</returns>
    public override string ToString()
    {
        if (!IsAvailable)
            return $"{Name}: unavailable ({UnavailableReason})";
        if (IsExact || IsOccasional)
        {
            return string.Create(
                CultureInfo.InvariantCulture,
                $"{Name}: {CandidateMean:#,0.###} vs {ReferenceMean:#,0.###} {Unit} per operation ({Words(Change, IsTimeLike)})");
        }

        return string.Create(CultureInfo.InvariantCulture,
            $"{Name}: {Ratio:0.000}× ({Low:0.000}–{High:0.000}× at {Confidence * 100:0.#}%), d_z = {CohensDz:0.00}, {Pairs:N0} pairs: " +
            $"{Words(Change, IsTimeLike)}");
    }

    /// <summary>A change in words: slower/faster for time, more/less for other counters.</summary>
    internal static string Words(PairedChange change, bool timeLike) => change switch
    {
        PairedChange.Increased => timeLike ? "slower" : "more",
        PairedChange.Decreased => timeLike ? "faster" : "less",
        PairedChange.Unchanged => "unchanged",
        _ => "inconclusive",
    };
}
