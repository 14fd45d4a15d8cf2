using System.Collections.Immutable;

namespace Picollo.PerfEvents;

/// <summary>
/// One counter a builder asks for: the event it stands for and the events to open and sum. One event for most
/// counters; one per core PMU for a generic hardware or cache event on a hybrid CPU; one per PMU for a sysfs
/// event that several PMUs publish.
/// </summary>
internal sealed class PerfEventCounterRequest
{
    public PerfEventCounterRequest(PerfEventSpec identity, ImmutableArray<PerfEventSpec> events)
    {
        Identity = identity;
        Events = events;
        // Hybrid core PMUs take turns: a thread runs on one core type at a time, so each event's time_running only
        // covers the time spent on its core type (see PerfEventCounter.TryMeasure for why that changes the scaling).
        EventsShareTime = events.Length > 1 && events.All(static e => PerfPmu.IsHybridCorePmuName(e.Pmu));
    }

    /// <summary>What the counter stands for (name, unit, scale, kind; for hybrid expansions the generic event).</summary>
    public PerfEventSpec Identity { get; }

    /// <summary>The events to open, whose counts are summed.</summary>
    public ImmutableArray<PerfEventSpec> Events { get; }

    /// <summary>Whether the events count in turn (core PMUs of a hybrid CPU) rather than at the same time.</summary>
    public bool EventsShareTime { get; }

    public static PerfEventCounterRequest Single(PerfEventSpec spec) => new(spec, [spec]);

    /// <summary>Whether both open the same events (the session opens a counter once).</summary>
    public bool OpensSameEventsAs(PerfEventCounterRequest other)
    {
        if (Events.Length != other.Events.Length)
            return false;
        for (int i = 0; i < Events.Length; i++)
        {
            PerfEventSpec a = Events[i], b = other.Events[i];
            if (a.Type != b.Type || a.Config != b.Config || a.Config1 != b.Config1 || a.Config2 != b.Config2)
                return false;
        }

        return true;
    }
}
