namespace Picollo.PerfEvents;

public sealed partial class PerfEventCounterSession
{
    /// <summary>
    /// The number of fixed and programmable hardware counters of the CPU PMU. Returns <see langword="false"/>
    /// with 0/0 when the kernel exposes no core PMU (<c>/sys/bus/event_source/devices/cpu</c>, <c>cpu_core</c>
    /// or <c>cpu_atom</c>: virtual machines without a vPMU, CI runners, non-Linux) or the counts are unknown.
    /// </summary>
    /// <param name="fixedCounters">Fixed-function counters (Intel: cycles, instructions, ref-cycles, …; AMD: 0).</param>
    /// <param name="programmableCounters">General-purpose counters per logical CPU.</param>
    /// <returns>Whether a core PMU exists and its counter counts are known.</returns>
    /// <remarks>
    /// Reads CPUID (Intel leaf 0xA; AMD leaf 0x80000022 or the PerfCtrExtCore bit), a VM exit costing µs:
    /// call it once, never on a hot path. On hybrid CPUs it describes the core type it runs on.
    /// </remarks>
    public static bool TryGetNumberOfCounters(out uint fixedCounters, out uint programmableCounters) =>
        PerfPmu.TryGetNumberOfCounters(out fixedCounters, out programmableCounters);

    /// <summary>
    /// Whether every mapped page allows user-space rdpmc right now (<c>cap_user_rdpmc</c>): the question a span
    /// asks once per thread to know whether its reads will cost a few ns or a system call. False without pages.
    /// </summary>
    internal bool AllowsUserRdpmc
    {
        get
        {
            if (_pages is null)
                return false;
            foreach (nint page in _pages)
            {
                // struct perf_event_mmap_page: the capabilities word is at byte 40, cap_user_rdpmc its bit 2.
                if ((System.Runtime.InteropServices.Marshal.ReadInt64(page, 40) & (1L << 2)) == 0)
                    return false;
            }

            return true;
        }
    }
}
