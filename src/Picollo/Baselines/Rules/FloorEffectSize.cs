using Picollo.Baselines.Records;
using Picollo.Metrics;

namespace Picollo.Baselines.Rules;

/// <summary>
/// Cohen's d of a time counter over the floor region of each side (docs/VERDICTS.md, "Cohen's d"): the lowest quarter of
/// the samples, on a log scale of the per-operation values. d = (mean₁ − mean₀ − allowance) / s, with s the pooled
/// standard deviation of the two floor regions.
/// </summary>
/// <remarks>
/// A d over all the samples goes blind under noise: a disturbed upper half (collections, a busy neighbour, preemption)
/// inflates the standard deviation and shrinks d, so a real +30 % read d = 0.21 beside a spinning core. The
/// lowest quarter is what disturbances, which only ever slow samples down, leave alone until three quarters of the
/// samples are disturbed; it holds the floor (P10) that time is judged by. The log scale makes d independent of the
/// operations per sample, and the allowance of the verdict (the recorded spread, a busy machine, a corrected allocation
/// speed) is taken off the mean difference as it is from z, so the gate measures the change beyond what the conditions
/// explain. A floor region inside one bucket has no spread of its own: the bucket's width (a uniform error) stands for it.
/// </remarks>
internal static class FloorEffectSize
{
    /// <summary>The share of each side's samples, from the fastest, that makes its floor region.</summary>
    public const double FloorShare = 0.25;

    /// <summary>Cohen's d of <paramref name="current"/> against <paramref name="reference"/> beyond <paramref name="allowance"/>.</summary>
    /// <param name="reference">The baseline's counter.</param>
    /// <param name="current">The measured counter.</param>
    /// <param name="allowance">
    /// What the conditions explain of the change, on a log scale (the correction and the slowest allowed level): taken off
    /// the difference of the means. 0 for the plain floor shift.
    /// </param>
    /// <returns>d; <see langword="null"/> when a side has no positive samples.</returns>
    public static double? Of(BaselineCounter reference, BaselineCounter current, double allowance = 0)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(current);
        if (Floor(reference) is not { } before || Floor(current) is not { } after)
            return null;

        // Equal weights: both sides are measurements of the same design (about 1,000 samples each), and a floor region of a
        // run cut short by its time budget should not count for less.
        double pooled = Math.Sqrt((before.Variance + after.Variance) / 2);
        return (after.Mean - before.Mean - allowance) / pooled;
    }

    // Mean and variance of ln(per-operation value) over the lowest FloorShare of the samples, each bucket taken at its
    // midpoint; the variance never below the bucket's own uniform error, (relative width)² / 12.
    private static (double Mean, double Variance)? Floor(BaselineCounter counter)
    {
        HdrHistogram histogram = counter.Histogram;
        ulong total = histogram.GetSummary().TotalCount;
        if (total == 0 || counter.OperationsPerSample <= 0)
            return null;

        double wanted = Math.Max(1, Math.Ceiling(total * FloorShare));
        double taken = 0, sum = 0, sumOfSquares = 0;
        foreach (HdrBucket bucket in histogram.BucketsWithValues)
        {
            if (taken >= wanted)
                break;
            if (bucket.Midpoint == 0)
                continue;
            double count = Math.Min(bucket.Count, wanted - taken);
            double value = Math.Log(bucket.Midpoint / counter.OperationsPerSample);
            taken += count;
            sum += count * value;
            sumOfSquares += count * value * value;
        }

        if (taken == 0)
            return null;
        double mean = sum / taken;
        double variance = Math.Max(0, (sumOfSquares / taken) - (mean * mean));

        // A bucket of relative width 2·e holds values uniform within ±e of its midpoint: variance e²/3 on a log scale.
        double resolution = histogram.RelativeError * histogram.RelativeError / 3;
        return (mean, Math.Max(variance, resolution));
    }
}
