using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace Picollo.Tests.PerfEvents;

/// <summary>
/// A struct perf_event_mmap_page image in pinned managed memory, laid out at the byte offsets of
/// linux/perf_event.h (pinned by _Static_assert in native/perf_mmap.c).
/// </summary>
internal sealed class SyntheticPerfPage
{
    public const ulong CapUserRdpmc = 1UL << 2;
    public const ulong CapUserTime = 1UL << 3;
    public const ulong CapUserTimeZero = 1UL << 4;
    public const ulong CapUserTimeShort = 1UL << 5;

    private readonly byte[] _bytes = GC.AllocateArray<byte>(4096, pinned: true);

    public byte[] Bytes => _bytes;

    public nint Address => Marshal.UnsafeAddrOfPinnedArrayElement(_bytes, 0);

    public uint Lock { set => BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(8), value); }

    public uint Index { get => BinaryPrimitives.ReadUInt32LittleEndian(_bytes.AsSpan(12)); set => BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(12), value); }

    public long Offset { set => BinaryPrimitives.WriteInt64LittleEndian(_bytes.AsSpan(16), value); }

    public ulong TimeEnabled { set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(24), value); }

    public ulong TimeRunning { set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(32), value); }

    public ulong Capabilities { get => BinaryPrimitives.ReadUInt64LittleEndian(_bytes.AsSpan(40)); set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(40), value); }

    public ushort PmcWidth { set => BinaryPrimitives.WriteUInt16LittleEndian(_bytes.AsSpan(48), value); }

    public ushort TimeShift { set => BinaryPrimitives.WriteUInt16LittleEndian(_bytes.AsSpan(50), value); }

    public uint TimeMult { set => BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(52), value); }

    public ulong TimeOffset { set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(56), value); }

    public ulong TimeCycles { set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(80), value); }

    public ulong TimeMask { set => BinaryPrimitives.WriteUInt64LittleEndian(_bytes.AsSpan(88), value); }

    /// <summary>A page as x86 perf publishes it for a live hardware event: rdpmc allowed, 48-bit counters.</summary>
    public static SyntheticPerfPage LiveHardwareEvent(uint index = 1) => new()
    {
        Capabilities = (1UL << 1) | CapUserRdpmc,
        Index = index,
        PmcWidth = 48,
    };
}
