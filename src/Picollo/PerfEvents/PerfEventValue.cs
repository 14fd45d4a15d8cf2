using System.Runtime.InteropServices;

namespace Picollo.PerfEvents;

/// <summary>
/// One counter as the kernel reports it: the raw (unscaled) count and the group's times in ns. Same layout
/// as <c>picollo_perf_value</c> in native/picollo_native.h, so the rdpmc reader writes these directly.
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal struct PerfEventValue
{
    /// <summary>The raw count.</summary>
    public ulong Count;

    /// <summary>time_enabled: ns the event was enabled.</summary>
    public ulong Enabled;

    /// <summary>time_running: ns the event was actually on a counter (less than Enabled when multiplexed).</summary>
    public ulong Running;

    public PerfEventValue(ulong count, ulong enabled, ulong running)
    {
        Count = count;
        Enabled = enabled;
        Running = running;
    }

    /// <summary>
    /// The count extrapolated to the whole enabled time, as perf stat does: count × enabled / running.
    /// <c>running == 0</c> means the event never reached a counter: "not counted", not zero, and no division.
    /// </summary>
    /// <returns><see langword="false"/> when not counted.</returns>
    public static bool TryScale(ulong count, ulong enabled, ulong running, out ulong scaled)
    {
        if (running == 0)
        {
            scaled = 0;
            return false;
        }

        if (running >= enabled)
        {
            // Not multiplexed (running == enabled), or clock skew between the two reads: nothing to extrapolate.
            scaled = count;
            return true;
        }

        // 128-bit product: count × enabled overflows 64 bits after ~5 s of a 3 GHz cycle counter × 1e9 ns.
        UInt128 product = (UInt128)count * enabled / running;
        scaled = product > ulong.MaxValue ? ulong.MaxValue : (ulong)product;
        return true;
    }
}
