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
/// "cannot tell" never passes. Exact counters are compared exactly, once. A measurement in which either side's code was
/// not final is measured again in its place (<see cref="PerfComparison"/>), as its pairs mix two speeds.
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
    public static PairedCounter ShouldBeFasterBy(
        this PairedCounter counter,
        double factor,
        double? minCohensD = null,
        double confidence = PairedCounter.DefaultConfidence,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        if (!(factor > 0) || !double.IsFinite(factor))
            throw new ArgumentOutOfRangeException(nameof(factor), factor, AssertionMessages.SpeedUpOutOfRange(expression, factor));
        if (minCohensD is { } d && (!(d >= 0) || !double.IsFinite(d)))
            throw new ArgumentOutOfRangeException(nameof(minCohensD), d, AssertionMessages.CohensDOutOfRange(expression, d));
        CheckConfidence(confidence, expression);

        string arguments = Number(factor) + (minCohensD is { } m ? $", minCohensD: {Number(m)}" : string.Empty);
        string call = Call(expression, nameof(ShouldBeFasterBy), arguments);
        double bound = 1 / factor;
        string claim = AssertionMessages.FasterByClaim(
            factor, counter.Comparison.CandidateName, counter.Comparison.ReferenceName, bound, confidence, minCohensD);
        return Judge(
            counter,
            call,
            expression,
            "be faster by at least",
            claim,
            bound,
            confidence,
            c => minCohensD is { } g && !(-c.CohensDz >= g)
                ? AssertionMessages.SpeedUpBelowCohensD(AssertionMessages.Speed(c.Ratio), c.CohensDz, g)
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
    public static PairedCounter ShouldNotBeSlower(
        this PairedCounter counter,
        double maxChange = 0.05,
        double confidence = PairedCounter.DefaultConfidence,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        CheckMaxChange(maxChange, expression);
        CheckConfidence(confidence, expression);
        string call = Call(expression, nameof(ShouldNotBeSlower), $"maxChange: {Number(maxChange)}");
        string claim = AssertionMessages.NotSlowerClaim(
            maxChange, counter.Comparison.CandidateName, counter.Comparison.ReferenceName, confidence);
        return Judge(
            counter, call, expression, "not be slower than the reference by more than", claim, 1 + maxChange, confidence, static _ => null);
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
    public static PairedCounter ShouldNotIncrease(
        this PairedCounter counter, [CallerArgumentExpression(nameof(counter))] string? expression = null)
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
            throw new InvalidOperationException(AssertionMessages.NotAnExactCounter(call, counter.Name, counter.IsTimeLike, expression));
        }

        PerfAssertionScope.Ran();
        counter = FinalCode(counter);
        if (counter.CandidateMean > counter.ReferenceMean)
        {
            string increased = AssertionMessages.Increased(
                expression,
                counter.Unit,
                counter.ReferenceMean,
                counter.Comparison.ReferenceName,
                counter.CandidateMean,
                counter.Comparison.CandidateName);
            throw new PerfAssertionException(increased + "\n" + counter.Comparison.PairedTable());
        }

        return counter;
    }

    /// <summary>The shared rule: pass inside, fail beyond, measure again in between, then fail as undecided.</summary>
    internal static PairedCounter Judge(
        PairedCounter counter,
        string call,
        string? expression,
        string expectation,
        string claim,
        double bound,
        double confidence,
        Func<PairedCounter, string?> gate)
    {
        if (!counter.IsAvailable)
        {
            PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
            return counter;
        }

        if (counter.IsOccasional)
        {
            throw new InvalidOperationException(AssertionMessages.NoPairedInterval(call, counter.Name));
        }

        PerfAssertionScope.Ran();
        PerfComparison comparison = counter.Comparison;
        int measurements = comparison.Measurements;
        int setAside = comparison.SetAside.Count;
        counter = FinalCode(counter);
        while (true)
        {
            (double low, double high, double coverage) = counter.IntervalAt(confidence);
            bool settled = coverage >= confidence - 1e-9;
            if (settled && high <= bound)
            {
                if (gate(counter) is { } gated)
                    throw Failure(counter, expression, expectation, claim, gated, low, high, coverage);
                // The verdict line: a passing claim says what it saw, so a reader can tell a narrow pass from a wide one.
                string line = AssertionMessages.PairedPass(
                    call, AssertionMessages.Speed(counter.Ratio), counter.Name, counter.Ratio, low, high, coverage, counter.CohensDz);
                string? again = comparison.Measurements > measurements
                    ? $", after measuring again ({comparison.Measurements} measurements pooled)."
                    : comparison.SetAside.Count > setAside ? ", after measuring again." : null;
                PerfAssertionHost.Current.ReportOutput(again is null ? line + "\n" : $"{line}{again}\n\n{comparison.PairedTable()}");
                return counter;
            }

            if (settled && low > bound)
                throw Failure(counter, expression, expectation, claim, Outcome(counter), low, high, coverage);

            if (comparison.Measurements >= MaxMeasurements || !comparison.CanMeasureAgain)
                throw Undecided(counter, expression, expectation, claim, low, high, coverage, bound);

            comparison.MeasureAgain();
            counter = FinalCode(comparison[counter.Name]);
        }
    }

    // The counter of the comparison once its latest measurement ran both sides' final code, or nothing more could be done.
    private static PairedCounter FinalCode(PairedCounter counter)
    {
        if (counter.Comparison.RanFinalCode)
            return counter;
        counter.Comparison.MeasureFinalCode();
        return counter.Comparison[counter.Name];
    }

    private static PerfAssertionException Failure(
        PairedCounter c, string? expression, string expectation, string claim, string outcome, double low, double high, double coverage) =>
        new(AssertionMessages.PairedFailure(expression, expectation, claim, outcome, Evidence(c, low, high, coverage))
            + "\n" + c.Comparison.PairedTable());

    private static PerfAssertionException Undecided(
        PairedCounter c, string? expression, string expectation, string claim, double low, double high, double coverage, double bound) =>
        new(AssertionMessages.PairedUndecided(
                expression, expectation, claim, bound, Math.Max(2_000, c.Reference.SampleCount * 2), Evidence(c, low, high, coverage))
            + "\n" + c.Comparison.PairedTable());

    private static PairedEvidence Evidence(PairedCounter c, double low, double high, double coverage) =>
        new(c.Name, c.Ratio, low, high, coverage, c.CohensDz, c.FloorRatio, c.Pairs, c.Measurements);

    // The measured change in words: "1.02× faster", "1.31× slower (+31%)", "as fast as the reference".
    private static string Outcome(PairedCounter c) => "it was " + AssertionMessages.Speed(c.Ratio);

    private static void CheckMaxChange(double maxChange, string? expression)
    {
        if (!(maxChange >= 0) || !double.IsFinite(maxChange))
        {
            throw new ArgumentOutOfRangeException(
                nameof(maxChange), maxChange, AssertionMessages.MaxChangeOutOfRange(expression, maxChange));
        }
    }

    private static void CheckConfidence(double confidence, string? expression)
    {
        if (!(confidence >= 0.5 && confidence <= 0.9999))
        {
            throw new ArgumentOutOfRangeException(
                nameof(confidence), confidence, AssertionMessages.ConfidenceOutOfRange(expression, confidence));
        }
    }
}
