namespace Picollo.PerfEvents;

/// <summary>How <see cref="PerfEventCounterSession.Read"/> obtained the counts, or why it could not.</summary>
public enum PerfEventReadStatus
{
    /// <summary>No read yet.</summary>
    None,

    /// <summary>One read() of the whole group.</summary>
    Syscall,

    /// <summary>rdpmc through the mmap'ed pages, no syscall.</summary>
    Rdpmc,

    /// <summary>The session has no counter that could be opened (see <see cref="PerfEventCounterSession.UnavailableCounters"/>).</summary>
    NoCounters,

    /// <summary>
    /// read() returned 0 bytes: the group is pinned and lost its PMU to another user, so the kernel put it in
    /// error state. Nothing is counted until it is re-enabled; values are not updated (never read as zeros).
    /// </summary>
    GroupInErrorState,

    /// <summary>The read failed; <see cref="PerfEventCounterSession.LastError"/> says why. Values are not updated.</summary>
    Failed,
}
