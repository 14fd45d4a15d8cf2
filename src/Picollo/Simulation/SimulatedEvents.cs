using System.Globalization;
using Picollo.Counters;

namespace Picollo.Simulation;

/// <summary>
/// The totals of one callgrind dump of the measuring thread: the events callgrind counted between the region's start and
/// end, by callgrind's own names (<c>Ir</c> instructions; <c>Bc</c>/<c>Bcm</c> conditional branches and their
/// mispredictions, <c>Bi</c>/<c>Bim</c> indirect ones; <c>I1mr</c>, <c>D1mr</c>, <c>D1mw</c> first-level misses,
/// <c>ILmr</c>, <c>DLmr</c>, <c>DLmw</c> last-level ones). An event callgrind was not asked to simulate reads as absent.
/// </summary>
internal readonly record struct SimulatedEvents
{
    private readonly ulong[] _values;
    private readonly string[] _names;

    private SimulatedEvents(string[] names, ulong[] values)
    {
        _names = names;
        _values = values;
    }

    /// <summary>
    /// The events of a dump: <paramref name="names"/> from its <c>events:</c> line, <paramref name="values"/> from its
    /// <c>summary:</c>.
    /// </summary>
    /// <param name="names">The event names, in callgrind's order.</param>
    /// <param name="values">The totals, in the same order; missing trailing values are 0 (callgrind omits trailing zeros).</param>
    /// <returns>The events.</returns>
    public static SimulatedEvents Of(IReadOnlyList<string> names, IReadOnlyList<ulong> values)
    {
        ArgumentNullException.ThrowIfNull(names);
        ArgumentNullException.ThrowIfNull(values);
        var all = new ulong[names.Count];
        for (int i = 0; i < Math.Min(all.Length, values.Count); i++)
            all[i] = values[i];
        return new SimulatedEvents([.. names], all);
    }

    /// <summary>The total of one callgrind event, or <see langword="null"/> when the dump has no such event.</summary>
    /// <param name="name">A callgrind event name, e.g. <c>Ir</c>.</param>
    /// <returns>The total.</returns>
    public ulong? Event(string name)
    {
        for (int i = 0; i < (_names?.Length ?? 0); i++)
        {
            if (string.Equals(_names![i], name, StringComparison.Ordinal))
                return _values[i];
        }

        return null;
    }

    /// <summary>
    /// The value of a simulated counter (<see cref="CounterNames.SimInstructions"/>, …), or <see langword="null"/> when the
    /// dump lacks an event it is made of (callgrind ran without the branch or cache simulation it needs).
    /// </summary>
    /// <param name="counter">The counter's canonical name.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentException">Not a simulated counter.</exception>
    public ulong? Counter(string counter) => counter switch
    {
        CounterNames.SimInstructions => Event("Ir"),
        CounterNames.SimBranches => Sum("Bc", "Bi"),
        CounterNames.SimBranchMisses => Sum("Bcm", "Bim"),
        CounterNames.SimL1Misses => Sum("I1mr", "D1mr", "D1mw"),
        CounterNames.SimCacheMisses => Sum("ILmr", "DLmr", "DLmw"),
        CounterNames.SimCycles => Cycles(),
        _ => throw new ArgumentException($"'{counter}' is not a simulated counter.", nameof(counter)),
    };

    /// <inheritdoc/>
    public override string ToString()
    {
        ulong[] values = _values;
        return string.Join(' ', (_names ?? []).Select((n, i) => string.Create(CultureInfo.InvariantCulture, $"{n}={values[i]}")));
    }

    // The cycle model of docs/COUNTERS.md ("Simulated counters"): KCachegrind's cycle estimation, each instruction one
    // cycle, each mispredicted branch and first-level miss 10 more, each last-level miss 100 more. A first-level miss that
    // also missed the last level pays both, as in that model.
    private ulong? Cycles() =>
        Event("Ir") is { } instructions && Sum("Bcm", "Bim") is { } mispredicted && Sum("I1mr", "D1mr", "D1mw") is { } l1
            && Sum("ILmr", "DLmr", "DLmw") is { } ll
            ? instructions + (10 * mispredicted) + (10 * l1) + (100 * ll)
            : null;

    private ulong? Sum(params ReadOnlySpan<string> events)
    {
        ulong sum = 0;
        foreach (string name in events)
        {
            if (Event(name) is not { } value)
                return null;
            sum += value;
        }

        return sum;
    }
}
