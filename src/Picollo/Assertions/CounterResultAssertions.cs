using System.Runtime.CompilerServices;
using Picollo.Measurement;
using static Picollo.Assertions.PerfAssertionMessage;

namespace Picollo.Assertions;

/// <summary>
/// Fluent bounds on one counter's per-operation statistics, e.g. <c>result.Tsc.ShouldHaveP99AtMost(20_000)</c> or
/// <c>result.BranchMisses.ShouldHaveZeroBudget(atPercentile: 50)</c>.
/// </summary>
/// <remarks>
/// A failure throws <see cref="PerfAssertionException"/> with the call, the bound, the measured value and the counter's
/// summary table. An assertion on an unavailable counter does not run and is reported to
/// <see cref="PerfAssertionHost.Current"/> (by default it throws <see cref="PerfCounterUnavailableException"/>): it never
/// passes silently. Every assertion returns the counter so several can be chained.
/// </remarks>
public static class CounterResultAssertions
{
    /// <summary>Asserts that a percentile per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="rank">The percentile rank in [0, 100].</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler: the counter expression as written.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The percentile exceeds <paramref name="max"/>.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The rank is outside [0, 100].</exception>
    public static CounterResult ShouldHavePercentileAtMost(
        this CounterResult counter,
        double rank,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        ArgumentOutOfRangeException.ThrowIfLessThan(rank, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(rank, 100);
        string name = "P" + Metrics.Percentile.FormatRank(rank);
        return CheckAtMost(counter, counter.IsAvailable ? counter.GetPercentile(rank) : double.NaN, max, name, expression,
            Call(expression, nameof(ShouldHavePercentileAtMost), $"{Metrics.Percentile.FormatRank(rank)}, {Number(max)}"));
    }

    /// <summary>Asserts that the median per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The median exceeds <paramref name="max"/>.</exception>
    public static CounterResult ShouldHaveP50AtMost(
        this CounterResult counter,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
        => At(counter, 50, max, nameof(ShouldHaveP50AtMost), expression);

    /// <summary>Asserts that the 90th percentile per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The percentile exceeds <paramref name="max"/>.</exception>
    public static CounterResult ShouldHaveP90AtMost(
        this CounterResult counter,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
        => At(counter, 90, max, nameof(ShouldHaveP90AtMost), expression);

    /// <summary>Asserts that the 99th percentile per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The percentile exceeds <paramref name="max"/>.</exception>
    public static CounterResult ShouldHaveP99AtMost(
        this CounterResult counter,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
        => At(counter, 99, max, nameof(ShouldHaveP99AtMost), expression);

    /// <summary>Asserts that the largest value per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The maximum exceeds <paramref name="max"/>.</exception>
    public static CounterResult ShouldHaveMaxAtMost(
        this CounterResult counter,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
        => At(counter, 100, max, nameof(ShouldHaveMaxAtMost), expression);

    /// <summary>Asserts that the mean per operation is at most <paramref name="max"/>.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The largest accepted value, in the counter's unit per operation.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The mean exceeds <paramref name="max"/>.</exception>
    public static CounterResult ShouldHaveMeanAtMost(
        this CounterResult counter,
        double max,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        return CheckAtMost(counter, counter.Mean, max, "mean", expression, Call(expression, nameof(ShouldHaveMeanAtMost), Number(max)));
    }

    /// <summary>
    /// Asserts a budget: at most <paramref name="max"/> per operation at <paramref name="atPercentile"/> (default: every sample).
    /// </summary>
    /// <param name="counter">The counter.</param>
    /// <param name="max">The budget, in the counter's unit per operation.</param>
    /// <param name="atPercentile">The percentile the budget holds at; 100 (default) means every sample.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The budget is exceeded.</exception>
    public static CounterResult ShouldHaveBudget(
        this CounterResult counter,
        double max,
        double atPercentile = 100,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        ArgumentOutOfRangeException.ThrowIfLessThan(atPercentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(atPercentile, 100);
        double actual = counter.IsAvailable ? counter.GetPercentile(atPercentile) : double.NaN;
        return CheckAtMost(counter, actual, max, "P" + Metrics.Percentile.FormatRank(atPercentile), expression,
            Call(expression, nameof(ShouldHaveBudget), $"{Number(max)}, atPercentile: {Metrics.Percentile.FormatRank(atPercentile)}"));
    }

    /// <summary>Asserts a zero budget: no count at all per operation at <paramref name="atPercentile"/> (default: every sample).</summary>
    /// <param name="counter">The counter, e.g. <c>result.BranchMisses</c> or <c>result.AllocatedBytes</c>.</param>
    /// <param name="atPercentile">The percentile the budget holds at; 100 (default) means every sample.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="counter"/>.</returns>
    /// <exception cref="PerfAssertionException">The counter counted.</exception>
    public static CounterResult ShouldHaveZeroBudget(
        this CounterResult counter,
        double atPercentile = 100,
        [CallerArgumentExpression(nameof(counter))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(counter);
        ArgumentOutOfRangeException.ThrowIfLessThan(atPercentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(atPercentile, 100);
        double actual = counter.IsAvailable ? counter.GetPercentile(atPercentile) : double.NaN;
        return CheckAtMost(counter, actual, 0, "P" + Metrics.Percentile.FormatRank(atPercentile), expression,
            Call(expression, nameof(ShouldHaveZeroBudget), $"atPercentile: {Metrics.Percentile.FormatRank(atPercentile)}"));
    }

    private static CounterResult At(CounterResult counter, double rank, double max, string method, string? expression)
    {
        ArgumentNullException.ThrowIfNull(counter);
        double actual = counter.IsAvailable ? counter.GetPercentile(rank) : double.NaN;
        return CheckAtMost(
            counter, actual, max, "P" + Metrics.Percentile.FormatRank(rank), expression, Call(expression, method, Number(max)));
    }

    private static CounterResult CheckAtMost(
        CounterResult counter,
        double actual,
        double max,
        string statistic,
        string? expression,
        string call)
    {
        if (!counter.IsAvailable)
        {
            PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
            return counter;
        }

        PerfAssertionScope.Ran();

        // NaN (no samples) fails too: "at most" must be shown, not assumed.
        if (!(actual <= max))
        {
            string unit = counter.Unit + " per operation";
            throw new PerfAssertionException(Format(
                expression,
                $"have {statistic} at most",
                $"{Number(max)} {unit}",
                $"{Number(actual)} {unit}",
                counter));
        }

        return counter;
    }
}
