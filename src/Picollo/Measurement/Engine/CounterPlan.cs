using System.Collections.Immutable;
using Picollo.Counters;
using Picollo.PerfEvents;

namespace Picollo.Measurement.Engine;

/// <summary>
/// The counters of one run: the requested names resolved to sources, composed into one <see cref="CounterSet"/>, and
/// where each requested counter sits in its read span (or why it does not count).
/// </summary>
internal sealed class CounterPlan : IDisposable
{
    private CounterPlan(CounterSet set, CounterDescriptor[] descriptors, int[] slots, PerfEventCounterSession? session)
    {
        Set = set;
        Descriptors = descriptors;
        Slots = slots;
        Session = session;
    }

    /// <summary>Every source that has a counter to read, read back to back at each boundary.</summary>
    public CounterSet Set { get; }

    /// <summary>The requested counters (canonical names, deduplicated), in request order.</summary>
    public CounterDescriptor[] Descriptors { get; }

    /// <summary>Per requested counter, its index in <see cref="Set"/>'s read span, or -1 when it does not count.</summary>
    public int[] Slots { get; }

    /// <summary>The perf_event group, when at least one event opened.</summary>
    public PerfEventCounterSession? Session { get; }

    /// <summary>Resolves <paramref name="names"/> and opens the sources on the calling thread (perf events count this thread).</summary>
    /// <exception cref="ArgumentException">A name is neither <c>tsc</c>, <c>clock</c>, a runtime counter nor a perf event.</exception>
    public static CounterPlan Open(ImmutableArray<string> names)
    {
        var runtimeSource = new RuntimeCounterSource();
        (List<string> requested, List<PerfEventSpec> perfSpecs, bool tsc, bool clock, bool runtime) = ResolveNames(names, runtimeSource);
        var sources = new List<ICounterSource>();
        var unavailable = new Dictionary<string, CounterDescriptor>(StringComparer.OrdinalIgnoreCase);
        PerfEventCounterSession? session = OpenSession(perfSpecs, unavailable);
        if (session is not null)
            sources.Add(session);
        if (runtime)
            sources.Add(runtimeSource);
        if (tsc)
            sources.Add(new TscCounterSource());
        if (clock)
            sources.Add(new ClockCounterSource());

        var set = new CounterSet([.. sources]);
        var descriptors = new CounterDescriptor[requested.Count];
        var slots = new int[requested.Count];
        for (int i = 0; i < requested.Count; i++)
        {
            int slot = set.IndexOf(requested[i]);
            CounterDescriptor? descriptor = slot >= 0 ? set.Descriptors[slot] : null;
            if (descriptor is null || !descriptor.IsAvailable)
            {
                descriptor ??= KnownCounters.SimulatedName(requested[i]) is { } simulated
                    ? new CounterDescriptor(
                        simulated, "events", CounterKind.Simulated, MeasurementMessages.SimulatedNotMeasuredHere(simulated))
                    : null;
                descriptor = descriptor ?? (unavailable.TryGetValue(requested[i], out CounterDescriptor? reason)
                    ? reason
                    : new CounterDescriptor(
                        requested[i], "events", CounterKind.Hardware, MeasurementMessages.CounterNotOpened(requested[i])));
                slot = -1;
            }

            descriptors[i] = descriptor;
            slots[i] = slot;
        }

        return new CounterPlan(set, descriptors, slots, session);
    }

    // Each name as the source that counts it (tsc, clock, a runtime counter, a perf event), under its canonical name.
    private static (List<string> Requested, List<PerfEventSpec> PerfSpecs, bool Tsc, bool Clock, bool Runtime) ResolveNames(
        ImmutableArray<string> names, RuntimeCounterSource runtimeSource)
    {
        var requested = new List<string>();
        var perfSpecs = new List<PerfEventSpec>();
        bool tsc = false, clock = false, runtime = false;
        foreach (string name in names)
        {
            string canonical;
            if (KnownCounters.SimulatedName(name) is { } simulated)
            {
                // Counted by the simulation worker, not by this engine's sources: the engine merges its counts in (PerfEngine).
                canonical = simulated;
            }
            else if (string.Equals(name, CounterNames.Tsc, StringComparison.OrdinalIgnoreCase))
            {
                tsc = true;
                canonical = CounterNames.Tsc;
            }
            else if (string.Equals(name, CounterNames.Clock, StringComparison.OrdinalIgnoreCase))
            {
                clock = true;
                canonical = CounterNames.Clock;
            }
            else if (runtimeSource.Descriptors.FirstOrDefault(d => string.Equals(d.Name, name, StringComparison.OrdinalIgnoreCase))
                is { } runtimeCounter)
            {
                runtime = true;
                canonical = runtimeCounter.Name;
            }
            else
            {
                PerfEventSpec spec = Resolve(name);
                perfSpecs.Add(spec);
                canonical = spec.Name;
            }

            // Aliases (cycles, cpu-cycles) name one counter: measured and reported once.
            if (!requested.Contains(canonical, StringComparer.OrdinalIgnoreCase))
                requested.Add(canonical);
        }

        return (requested, perfSpecs, tsc, clock, runtime);
    }

    // The perf events in one session, or null when there are none or none opened; why each unavailable one did not open goes
    // into unavailable.
    private static PerfEventCounterSession? OpenSession(List<PerfEventSpec> perfSpecs, Dictionary<string, CounterDescriptor> unavailable)
    {
        if (perfSpecs.Count == 0)
            return null;

        PerfEventCounterSessionBuilder builder = PerfEventCounterSession.Factory.WithKernel(false);
        foreach (PerfEventSpec spec in perfSpecs)
            builder = builder.WithCounter(spec);
        PerfEventCounterSession session = builder.Create();
        foreach (CounterDescriptor descriptor in session.UnavailableCounters)
            unavailable[descriptor.Name] = descriptor;
        if (session.Counters.Count > 0)
            return session;

        // Nothing opened: the session would only read zeros; its descriptors already carry the reasons.
        session.Dispose();
        return null;
    }

    /// <summary>Disposes the sources (closes the perf fds).</summary>
    public void Dispose() => Set.Dispose();

    /// <summary>
    /// The name <paramref name="name"/> is reported under: <c>tsc</c>, <c>clock</c>, a runtime counter's, or a perf event's
    /// canonical name.
    /// </summary>
    /// <param name="name">A counter name as a user writes it (case-insensitive, aliases allowed).</param>
    /// <returns>The canonical name, e.g. <c>cpu-cycles</c> for <c>cycles</c>.</returns>
    /// <exception cref="ArgumentException">
    /// A name is neither <c>tsc</c>, <c>clock</c>, a runtime counter nor a perf event (the message lists the valid ones).
    /// </exception>
    public static string CanonicalName(string name)
    {
        if (KnownCounters.SimulatedName(name) is { } simulated)
            return simulated;
        if (string.Equals(name, CounterNames.Tsc, StringComparison.OrdinalIgnoreCase))
            return CounterNames.Tsc;
        if (string.Equals(name, CounterNames.Clock, StringComparison.OrdinalIgnoreCase))
            return CounterNames.Clock;
        if (new RuntimeCounterSource().Descriptors.FirstOrDefault(d => string.Equals(d.Name, name, StringComparison.OrdinalIgnoreCase))
            is { } runtimeCounter)
        {
            return runtimeCounter.Name;
        }

        return Resolve(name).Name;
    }

    private static PerfEventSpec Resolve(string name)
    {
        try
        {
            return PerfEventCatalog.Default.ResolveSingle(name);
        }
        catch (PerfEventNameException e)
        {
            string[] own =
            [
                CounterNames.Tsc, CounterNames.Clock, .. new RuntimeCounterSource().Descriptors.Select(static d => d.Name),
                .. KnownCounters.SimulatedSet,
            ];
            if (!e.IsUnknownName)
                throw new ArgumentException(MeasurementMessages.NotACounter(name, own, e.Message), e);

            // A name that is nothing at all: the nearest names of every kind, Picollo's own first, and none that is far (the
            // perf catalog's own list always has its five nearest, and "allocated-byte" drew LLC-load-misses; issue 27).
            List<string> near = PerfEventSuggestions.Nearest(name, own, PerfEventCatalog.Default.SuggestableNames());
            throw new ArgumentException(MeasurementMessages.UnknownCounter(name, own, near), e);
        }
    }
}
