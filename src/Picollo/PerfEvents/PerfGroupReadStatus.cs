namespace Picollo.PerfEvents;

/// <summary>What one group read produced.</summary>
internal enum PerfGroupReadStatus
{
    /// <summary>Every value was written.</summary>
    Ok,

    /// <summary>read() failed with the errno returned alongside (ENOSPC: the buffer is shorter than the group).</summary>
    Failed,

    /// <summary>read() returned 0 bytes: a pinned group that lost its PMU is in error state (perf_event_open(2)).</summary>
    EndOfFile,

    /// <summary>Fewer bytes than the group layout needs.</summary>
    Truncated,

    /// <summary>The kernel reported another number of events than the session opened.</summary>
    CountMismatch,

    /// <summary>An id the session does not know.</summary>
    UnknownId,

    /// <summary>The same id twice (so another one is missing).</summary>
    DuplicateId,
}
