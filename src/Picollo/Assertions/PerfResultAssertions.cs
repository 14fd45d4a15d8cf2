using System.Runtime.CompilerServices;
using Picollo.Measurement;
using static Picollo.Assertions.PerfAssertionMessage;

namespace Picollo.Assertions;

/// <summary>Fluent bounds on ratios of two counters of one run: instructions per cycle, misses per 1,000 instructions.</summary>
/// <remarks>
/// Ratios are of means (total of one counter over total of the other), the only ratio that stays meaningful when
/// samples differ. When either counter is unavailable the assertion does not run and is reported to
/// <see cref="PerfAssertionHost.Current"/>.
/// </remarks>
public static class PerfResultAssertions
{
    /// <summary>Asserts that instructions per cycle (instructions / cycles) is at least <paramref name="min"/>.</summary>
    /// <param name="result">The run.</param>
    /// <param name="min">The lowest accepted IPC.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="result"/>.</returns>
    /// <exception cref="PerfAssertionException">The IPC is lower.</exception>
    public static PerfResult ShouldHaveIpcAtLeast(
        this PerfResult result,
        double min,
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        CounterResult instructions = result.Instructions, cycles = result.Cycles;
        string call = Call(expression, nameof(ShouldHaveIpcAtLeast), Number(min));
        if (!Available(call, instructions, cycles))
            return result;

        PerfAssertionScope.Ran();
        double ipc = instructions.Mean / cycles.Mean;
        if (!(ipc >= min))
        {
            throw new PerfAssertionException(Format(
                expression, "have IPC (instructions / cycles) at least", Number(min), Number(ipc), instructions, cycles));
        }

        return result;
    }

    /// <summary>Asserts that <paramref name="counterName"/> per 1,000 instructions (MPKI) is at most <paramref name="max"/>.</summary>
    /// <param name="result">The run.</param>
    /// <param name="counterName">The miss counter, e.g. <c>branch-misses</c> or <c>cache-misses</c>.</param>
    /// <param name="max">The highest accepted misses per 1,000 instructions.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="result"/>.</returns>
    /// <exception cref="PerfAssertionException">The rate is higher.</exception>
    public static PerfResult ShouldHaveMissesPerKiloInstructionsAtMost(
        this PerfResult result,
        string counterName,
        double max,
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(counterName);
        CounterResult misses = result[counterName], instructions = result.Instructions;
        string call = Call(expression, nameof(ShouldHaveMissesPerKiloInstructionsAtMost), $"\"{counterName}\", {Number(max)}");
        if (!Available(call, misses, instructions))
            return result;

        PerfAssertionScope.Ran();
        double mpki = 1_000 * misses.Mean / instructions.Mean;
        if (!(mpki <= max))
        {
            throw new PerfAssertionException(Format(
                expression, $"have {misses.Name} per 1,000 instructions at most", Number(max), Number(mpki), misses, instructions));
        }

        return result;
    }

    private static bool Available(string call, params CounterResult[] counters)
    {
        foreach (CounterResult counter in counters)
        {
            if (!counter.IsAvailable)
            {
                PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
                return false;
            }
        }

        return true;
    }
}
