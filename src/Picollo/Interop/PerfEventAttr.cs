using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>
/// struct perf_event_attr (linux/perf_event.h) at PERF_ATTR_SIZE_VER7 (128 bytes, kernel 5.13+ layout).
/// Older kernels accept a larger struct as long as the bytes they do not know are zero, which they are
/// unless set. Offsets are pinned by tests against the UAPI header.
/// </summary>
[StructLayout(LayoutKind.Explicit, Size = Size)]
internal struct PerfEventAttr
{
    /// <summary>PERF_ATTR_SIZE_VER7.</summary>
    public const int Size = 128;

    /// <summary>
    /// PERF_ATTR_SIZE_VER1 (through config2): every kernel since 2.6.33 accepts it, and it reads no further, so an
    /// open at this size never fails with E2BIG over a field it does not need.
    /// </summary>
    public const int SizeVer1 = 72;

    // Bits of the flags word at offset 40, in the UAPI bit-field order.
    public const ulong FlagDisabled = 1UL << 0;
    public const ulong FlagInherit = 1UL << 1;
    public const ulong FlagPinned = 1UL << 2;
    public const ulong FlagExclusive = 1UL << 3;
    public const ulong FlagExcludeUser = 1UL << 4;
    public const ulong FlagExcludeKernel = 1UL << 5;
    public const ulong FlagExcludeHv = 1UL << 6;
    public const ulong FlagExcludeIdle = 1UL << 7;

    [FieldOffset(0)] public uint Type;
    [FieldOffset(4)] public uint AttrSize;
    [FieldOffset(8)] public ulong Config;
    [FieldOffset(16)] public ulong SamplePeriod;
    [FieldOffset(24)] public ulong SampleType;
    [FieldOffset(32)] public ulong ReadFormat;
    [FieldOffset(40)] public ulong Flags;
    [FieldOffset(48)] public uint WakeupEvents;
    [FieldOffset(52)] public uint BreakpointType;
    [FieldOffset(56)] public ulong Config1;
    [FieldOffset(64)] public ulong Config2;
    [FieldOffset(72)] public ulong BranchSampleType;
    [FieldOffset(80)] public ulong SampleRegsUser;
    [FieldOffset(88)] public uint SampleStackUser;
    [FieldOffset(92)] public int ClockId;
    [FieldOffset(96)] public ulong SampleRegsIntr;
    [FieldOffset(104)] public uint AuxWatermark;
    [FieldOffset(108)] public ushort SampleMaxStack;
    [FieldOffset(112)] public uint AuxSampleSize;
    [FieldOffset(120)] public ulong SigData;
}
