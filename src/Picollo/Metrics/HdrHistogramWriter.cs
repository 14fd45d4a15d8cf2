using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Picollo.Metrics;

/// <summary>
/// A recording handle of one <see cref="HdrHistogram"/> for one thread, from <see cref="HdrHistogram.GetWriter"/>:
/// it holds what recording needs (the counters, the layout's block scale, the trackable range), so
/// <see cref="Record(ulong)"/> does no thread lookup, no interface or virtual call and no allocation.
/// </summary>
/// <remarks>
/// <para><b>Thread binding.</b> A writer belongs to the thread that called <see cref="HdrHistogram.GetWriter"/>,
/// in every concurrency mode; use it on that thread only. In the thread-local mode it writes that thread's own
/// counters without any synchronization, so a writer used on another thread races with its owner and loses
/// counts, and once its owner has exited the histogram no longer reads what it writes. Debug builds of Picollo
/// assert the binding on every record.</para>
/// <para>Everything else is the histogram's: <see cref="HdrHistogram.Reset"/>, reads and snapshots see what
/// writers record, with the guarantees of the histogram's <see cref="HdrConcurrency"/> mode, and the counts of
/// a thread-local writer's thread are kept after it exits.</para>
/// <para>Keep a writer in a local variable in hot loops: the JIT then holds its fields in registers, whereas
/// a writer read from a field of an object is reloaded on every record (the increment's store may alias it).
/// A <see langword="default"/> writer throws <see cref="NullReferenceException"/>.</para>
/// </remarks>
public readonly struct HdrHistogramWriter
{
    // ulong[] or uint[] as _mode says; typed by Unsafe.As so that no cast is checked on the record path.
    private readonly object _counts;
    private readonly nuint _firstIndex;
    private readonly nuint _length;
    private readonly int _blockScale;
    private readonly HdrHistogram.StorageMode _mode;
#if DEBUG
    private readonly int _ownerThreadId;
#endif

    /// <param name="counts">The storage (overflow slot at [<paramref name="length"/>]) that <paramref name="mode"/> describes.</param>
    /// <param name="mode">
    /// Any mode but <see cref="HdrHistogram.StorageMode.ThreadLocal"/>: a thread-local writer is single-writer on its shard.
    /// </param>
    /// <param name="blockScale">The layout's block scale.</param>
    /// <param name="firstIndex">The logical index of storage index 0.</param>
    /// <param name="length">The number of buckets, overflow slot excluded.</param>
    internal HdrHistogramWriter(object counts, HdrHistogram.StorageMode mode, int blockScale, nuint firstIndex, nuint length)
    {
        Debug.Assert(mode != HdrHistogram.StorageMode.ThreadLocal, "A writer records into one thread's shard, never through the slot.");
        _counts = counts;
        _mode = mode;
        _blockScale = blockScale;
        _firstIndex = firstIndex;
        _length = length;
#if DEBUG
        _ownerThreadId = Environment.CurrentManagedThreadId;
#endif
    }

    /// <summary>Adds one to the bucket of <paramref name="value"/>, or to the overflow counter when out of range.</summary>
    /// <param name="value">The value to record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(ulong value)
    {
        AssertOwner();
        nuint index = HdrHistogram.GetStorageIndex(value, _blockScale, _firstIndex, _length);
        // index ≤ _length and the arrays have _length + 1 slots: the bounds check is proven away by hand.
        if (_mode == HdrHistogram.StorageMode.Single64)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<ulong[]>(_counts)), index)++;
        else if (_mode == HdrHistogram.StorageMode.Single32)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<uint[]>(_counts)), index)++;
        else
            HdrHistogram.AddInterlocked(_mode, _counts, index, 1);
    }

    /// <summary>Adds <paramref name="count"/> to the bucket of <paramref name="value"/> (or to the overflow counter).</summary>
    /// <param name="value">The value to record.</param>
    /// <param name="count">How many times it was observed.</param>
    /// <exception cref="ArgumentOutOfRangeException">
    /// 32-bit storage and <paramref name="count"/> above <see cref="uint.MaxValue"/>.
    /// </exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(ulong value, ulong count)
    {
        AssertOwner();
        if (count > uint.MaxValue && _counts is uint[])
            HdrHistogram.ThrowCountTooLargeFor32Bit(count);

        nuint index = HdrHistogram.GetStorageIndex(value, _blockScale, _firstIndex, _length);
        if (_mode == HdrHistogram.StorageMode.Single64)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<ulong[]>(_counts)), index) += count;
        else if (_mode == HdrHistogram.StorageMode.Single32)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<uint[]>(_counts)), index) += (uint)count;
        else
            HdrHistogram.AddInterlocked(_mode, _counts, index, count);
    }

#if DEBUG
    private void AssertOwner()
    {
        if (_counts is not null && Environment.CurrentManagedThreadId != _ownerThreadId)
            Debug.Fail(MetricsMessages.WriterUsedOnAnotherThread(_ownerThreadId, Environment.CurrentManagedThreadId));
    }
#else
    // Release builds do not check the binding: the record path stays the bare increment.
    [Conditional("DEBUG")]
    private static void AssertOwner()
    {
    }
#endif
}
