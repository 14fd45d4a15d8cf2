using System.Runtime.CompilerServices;
using Picollo.Measurement;

namespace Picollo.Assertions;

/// <summary>Claims on a whole <see cref="PerfComparison"/>: every time counter at once (docs/VERDICTS.md, "Paired comparisons").</summary>
public static class PerfComparisonAssertions
{
    /// <summary>
    /// Asserts that the candidate is not more than <paramref name="maxChange"/> slower than the reference on every time
    /// counter that counted (tsc, task-clock, cycles where the machine has a PMU), each by
    /// <see cref="PairedCounterAssertions.ShouldNotBeSlower"/>.
    /// </summary>
    /// <param name="comparison">The comparison.</param>
    /// <param name="maxChange">The largest slowdown allowed, e.g. 0.05 for 5%.</param>
    /// <param name="confidence">The intervals' coverage; default 99%.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="comparison"/>.</returns>
    /// <exception cref="PerfAssertionException">A time counter is slower than that, or could not be told apart from it.</exception>
    public static PerfComparison ShouldNotBeSlower(
        this PerfComparison comparison,
        double maxChange = 0.05,
        double confidence = PairedCounter.DefaultConfidence,
        [CallerArgumentExpression(nameof(comparison))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(comparison);

        // By name, not by the list: a counter's further measurement replaces the comparison's counters.
        foreach (string name in comparison.Counters.Where(static c => c.IsTimeLike && c.IsAvailable).Select(static c => c.Name).ToArray())
            comparison[name].ShouldNotBeSlower(maxChange, confidence, $"{expression}[\"{name}\"]");
        return comparison;
    }
}
