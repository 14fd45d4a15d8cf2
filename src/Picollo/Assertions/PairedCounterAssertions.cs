using System.Globalization;
using System.Runtime.CompilerServices;
using Picollo.Measurement;
using static Picollo.Assertions.PerfAssertionMessage;

namespace Picollo.Assertions;

/// <summary>
/// Relative claims on one counter of a <see cref="PerfComparison"/>: <c>c.Tsc.ShouldBeFasterBy(1.5)</c>,
/// <c>c.Tsc.ShouldNotBeSlower(maxChange: 0.05)</c>, <c>c.AllocatedBytes.ShouldNotIncrease()</c> (docs/VERDICTS.md,
/// "Paired comparisons").
/// </summary>
/// <remarks>
/// A noisy counter's claim passes when the whole interval of the paired ratio is on its side, and fails when the whole
/// interval is on the other. Between the two, the comparison measures both bodies again, up to
/// <see cref="MaxMeasurements"/> in all, pooling the pairs; a claim still undecided then fails, saying the bodies could
/// not be told apart at that precision and how to get more: a relative assertion is the test's explicit claim, so
/// "cannot tell" never passes. Exact counters are compared exactly, once.
/// </remarks>
public static class PairedCounterAssertions
{
    /// <summary>The measurements a claim may pool before it fails as undecided: the first and two more.</summary>
    public const int MaxMeasurements = 3;

    /// <summary>
    /// Asserts that the candidate is at least <paramref name="factor"/> times faster than the reference: the whole interval
    /// of candidate / reference at or below 1 / <paramref name="factor"/>.
    /// </summary>
    /// <param name="counter">A counter of the comparison, e.g. <c>c.Tsc</c>.</param>
    /// <param name="factor">The least speed-up, e.g. 1.5 for 1.5× faster; positive and finite (below 1 allows a bounded slowdown).</param>
    /// <param name="minCohensD">
    /// When given, Cohen's d_z of the speed-up must reach it too (0.8 is "large"): a gate beside the interval, for claims
    /// that must also stand out of the paired noise; never instead of it.
    /// </param>
    /// <param name="confidence">The interval's coverage, in [0.5, 0.9999]; default 99%.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>'s comparison's counter after any further measurement.</returns>
    /// <exception cref="PerfAssertionException">The candidate is not that much faster, or could not be told apart from it.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A factor, d_z or confidence out of range.</exception>
    public static PairedCounter ShouldBeFasterBy(this PairedCounter counter, double factor, double? minCohensD = null, double confidence = PairedCounter.DefaultConfidence, [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        if (!(factor > 0) || !double.IsFinite(factor))
            throw new ArgumentOutOfRangeException(nameof(factor), factor, $"{expression}.ShouldBeFasterBy({Number(factor)}): a speed-up is a positive, finite factor: 1.5 means at least 1.5× faster, 0.95 allows at most ~5% slower.");
        if (minCohensD is { } d && (!(d >= 0) || !double.IsFinite(d)))
            throw new ArgumentOutOfRangeException(nameof(minCohensD), d, $"{expression}.ShouldBeFasterBy(minCohensD: {Number(d)}): Cohen's d_z is a size, 0 or more (0.2 small, 0.5 medium, 0.8 large).");
        CheckConfidence(confidence, expression);

        string arguments = Number(factor) + (minCohensD is { } m ? $", minCohensD: {Number(m)}" : string.Empty);
        string call = Call(expression, nameof(ShouldBeFasterBy), arguments);
        double bound = 1 / factor;
        string claim = string.Create(CultureInfo.InvariantCulture, $"{Number(factor)}× ({counter.Comparison.CandidateName} / {counter.Comparison.ReferenceName} at most {bound:0.000}× at {confidence * 100:0.##}% confidence{(minCohensD is { } g ? $", Cohen's d_z at most −{Number(g)}" : string.Empty)})");
        return Judge(counter, call, expression, "be faster by at least", claim, bound, confidence, c => minCohensD is { } g && !(-c.CohensDz >= g)
            ? string.Create(CultureInfo.InvariantCulture, $"{Speed(c.Ratio)}, but Cohen's d_z = {c.CohensDz:0.00} does not reach −{Number(g)}: the speed-up does not stand that many paired standard deviations out of the noise")
            : null);
    }

    /// <summary>
    /// Asserts that the candidate is not more than <paramref name="maxChange"/> slower than the reference: the whole interval
    /// of candidate / reference at or below 1 + <paramref name="maxChange"/>.
    /// </summary>
    /// <param name="counter">A counter of the comparison, e.g. <c>c.Tsc</c>.</param>
    /// <param name="maxChange">The largest slowdown allowed, e.g. 0.05 for 5%; 0 or more, finite.</param>
    /// <param name="confidence">The interval's coverage, in [0.5, 0.9999]; default 99%.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>'s comparison's counter after any further measurement.</returns>
    /// <exception cref="PerfAssertionException">The candidate is slower than that, or could not be told apart from it.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The change or confidence is out of range.</exception>
    public static PairedCounter ShouldNotBeSlower(this PairedCounter counter, double maxChange = 0.05, double confidence = PairedCounter.DefaultConfidence, [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        CheckMaxChange(maxChange, expression);
        CheckConfidence(confidence, expression);
        string call = Call(expression, nameof(ShouldNotBeSlower), $"maxChange: {Number(maxChange)}");
        string claim = string.Create(CultureInfo.InvariantCulture, $"+{maxChange:0.##%} ({counter.Comparison.CandidateName} / {counter.Comparison.ReferenceName} at most {1 + maxChange:0.000}× at {confidence * 100:0.##}% confidence)");
        return Judge(counter, call, expression, "not be slower than the reference by more than", claim, 1 + maxChange, confidence, static _ => null);
    }

    /// <summary>
    /// Asserts that an exact counter (allocated bytes, JIT counts) counts no more per operation in the candidate than in the reference.
    /// </summary>
    /// <param name="counter">An exact counter of the comparison, e.g. <c>c.AllocatedBytes</c>.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The candidate counts more.</exception>
    /// <exception cref="InvalidOperationException">
    /// The counter is noisy (time, hardware events): use <see cref="ShouldNotBeSlower"/>.
    /// </exception>
    public static PairedCounter ShouldNotIncrease(this PairedCounter counter, [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        string call = Call(expression, nameof(ShouldNotIncrease), string.Empty);
        if (!counter.IsAvailable)
        {
            PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
            return counter;
        }

        if (!counter.IsExact)
        {
            throw new InvalidOperationException($"{call}: {counter.Name} is not an exact counter, so \"no increase\" cannot be shown exactly: " +
                (counter.IsTimeLike
                    ? $"claim a bounded change instead, {expression}.{nameof(ShouldNotBeSlower)}(maxChange: 0.05)."
                    : $"its counts land in some samples and not others; compare allocated-bytes exactly, or claim a bounded change with {nameof(ShouldNotBeSlower)}(maxChange: 0.05)."));
        }

        PerfAssertionScope.Ran();
        if (counter.CandidateMean > counter.ReferenceMean)
        {
            throw new PerfAssertionException(Format(expression, "not increase over the reference's",
                $"{Number(counter.ReferenceMean)} {counter.Unit} per operation ({counter.Comparison.ReferenceName})",
                $"{Number(counter.CandidateMean)} {counter.Unit} per operation ({counter.Comparison.CandidateName}, +{Number(counter.CandidateMean - counter.ReferenceMean)}, exact)")
                + "\n" + counter.Comparison.PairedTable());
        }

        return counter;
    }

    /// <summary>The shared rule: pass inside, fail beyond, measure again in between, then fail as undecided.</summary>
    internal static PairedCounter Judge(
        PairedCounter counter, string call, string? expression, string expectation, string claim, double bound, double confidence, Func<PairedCounter, string?> gate)
    {
        if (!counter.IsAvailable)
        {
            PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
            return counter;
        }

        if (counter.IsOccasional)
        {
            throw new InvalidOperationException($"{call}: {counter.Name} counts events that land in some samples and not others, so it has no paired interval: compare time (tsc, task-clock) or an exact counter (allocated-bytes) instead.");
        }

        PerfAssertionScope.Ran();
        PerfComparison comparison = counter.Comparison;
        int measurements = comparison.Measurements;
        while (true)
        {
            (double low, double high, double coverage) = counter.IntervalAt(confidence);
            bool settled = coverage >= confidence - 1e-9;
            if (settled && high <= bound)
            {
                if (gate(counter) is { } gated)
                    throw Failure(counter, expression, expectation, claim, gated, low, high, coverage);
                // The verdict line: a passing claim says what it saw, so a reader can tell a narrow pass from a wide one.
                string line = string.Create(CultureInfo.InvariantCulture,
                    $"{call}: pass, {Speed(counter.Ratio)} ({counter.Name} {counter.Ratio:0.000}×, {low:0.000}–{high:0.000}× at {coverage * 100:0.#}%, Cohen's d_z = {counter.CohensDz:0.00})");
                PerfAssertionHost.Current.ReportOutput(comparison.Measurements > measurements
                    ? $"{line}, after measuring again ({comparison.Measurements} measurements pooled).\n\n{comparison.PairedTable()}"
                    : line + "\n");
                return counter;
            }

            if (settled && low > bound)
                throw Failure(counter, expression, expectation, claim, Outcome(counter), low, high, coverage);

            if (comparison.Measurements >= MaxMeasurements || !comparison.CanMeasureAgain)
                throw Undecided(counter, expression, expectation, claim, low, high, coverage, bound);

            comparison.MeasureAgain();
            counter = comparison[counter.Name];
        }
    }

    private static PerfAssertionException Failure(PairedCounter c, string? expression, string expectation, string claim, string outcome, double low, double high, double coverage) =>
        new(Format(expression, expectation, claim, string.Create(CultureInfo.InvariantCulture,
            $"{outcome}: {c.Name} ratio {c.Ratio:0.000}× ({low:0.000}–{high:0.000}× at {coverage * 100:0.#}%), Cohen's d_z = {c.CohensDz:0.00}, floors {c.FloorRatio:0.000}×, {c.Pairs:N0} pairs in {c.Measurements} measurement{(c.Measurements == 1 ? string.Empty : "s")}"))
            + "\n" + c.Comparison.PairedTable());

    private static PerfAssertionException Undecided(PairedCounter c, string? expression, string expectation, string claim, double low, double high, double coverage, double bound) =>
        new(Format(expression, expectation, claim, string.Create(CultureInfo.InvariantCulture,
            $"not told apart at this precision: {c.Name} ratio {c.Ratio:0.000}× ({low:0.000}–{high:0.000}× at {coverage * 100:0.#}%) holds {bound:0.000}× after {c.Measurements} measurement{(c.Measurements == 1 ? string.Empty : "s")} ({c.Pairs:N0} pairs), Cohen's d_z = {c.CohensDz:0.00}. A claim the comparison cannot settle fails rather than pass unshown. For more precision: more pairs (Samples, e.g. {Math.Max(2_000, c.Reference.SampleCount * 2):N0}), a longer TimeBudgetMs, a quieter machine; or claim a bound further from the measured {c.Ratio:0.000}×."))
            + "\n" + c.Comparison.PairedTable());

    // The measured change in words: "1.02× faster", "1.31× slower (+31%)", "as fast as the reference".
    private static string Outcome(PairedCounter c) => "it was " + Speed(c.Ratio);

    private static string Speed(double ratio) => Math.Abs(Math.Log(ratio)) < 0.005
        ? "as fast as the reference"
        : ratio < 1
            ? string.Create(CultureInfo.InvariantCulture, $"{1 / ratio:0.00}× faster")
            : string.Create(CultureInfo.InvariantCulture, $"{ratio:0.00}× slower ({ratio - 1:+0.#%})");

    private static void CheckMaxChange(double maxChange, string? expression)
    {
        if (!(maxChange >= 0) || !double.IsFinite(maxChange))
            throw new ArgumentOutOfRangeException(nameof(maxChange), maxChange, $"{expression}.ShouldNotBeSlower(maxChange: {Number(maxChange)}): the allowed slowdown is a fraction, 0 or more: 0.05 allows +5%.");
    }

    private static void CheckConfidence(double confidence, string? expression)
    {
        if (!(confidence >= 0.5 && confidence <= 0.9999))
            throw new ArgumentOutOfRangeException(nameof(confidence), confidence, $"{expression}: confidence {Number(confidence)} is outside [0.5, 0.9999]: 0.99 (the default) for a 99% interval.");
    }
}
