using System.Runtime.InteropServices;

namespace Picollo.Interop;

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
}
