using System.Runtime.InteropServices;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Interop;

/// <summary>The managed mirrors of the kernel's and the native shim's structs keep their byte layouts.</summary>
public sealed class PerfEventLayoutTests
{
    [Fact]
    public void PerfEventAttr_HasTheKernelLayout()
    {
        // Offsets of struct perf_event_attr in linux/perf_event.h (checked with offsetof on this machine's header).
        Marshal.SizeOf<Picollo.Interop.PerfEventAttr>().ShouldBe(128);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.Config)).ShouldBe(8);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.ReadFormat)).ShouldBe(32);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.Flags)).ShouldBe(40);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.Config1)).ShouldBe(56);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.Config2)).ShouldBe(64);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.ClockId)).ShouldBe(92);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.AuxSampleSize)).ShouldBe(112);
        Marshal.OffsetOf<Picollo.Interop.PerfEventAttr>(nameof(Picollo.Interop.PerfEventAttr.SigData)).ShouldBe(120);
    }

    [Fact]
    public void PerfEventValue_HasTheNativeLayout()
    {
        Marshal.SizeOf<Picollo.Interop.PerfEventValue>().ShouldBe(24);
        Marshal.OffsetOf<Picollo.Interop.PerfEventValue>(nameof(Picollo.Interop.PerfEventValue.Count)).ShouldBe(0);
        Marshal.OffsetOf<Picollo.Interop.PerfEventValue>(nameof(Picollo.Interop.PerfEventValue.Enabled)).ShouldBe(8);
        Marshal.OffsetOf<Picollo.Interop.PerfEventValue>(nameof(Picollo.Interop.PerfEventValue.Running)).ShouldBe(16);
    }
}
