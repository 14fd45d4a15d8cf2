using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Picollo.Metrics;

/// <summary>
/// A high-dynamic-range histogram of <see cref="ulong"/> values with a bounded relative error, built for
/// recording on hot paths: one shift, one leading-zero count, one mask and one increment per value.
/// </summary>
/// <remarks>
/// <para>Create one with <see cref="Factory"/>. Values outside the trackable range are counted in
/// <see cref="OverflowCount"/>; recording never throws.</para>
/// <para>Writers: see <see cref="HdrConcurrency"/>. The default is one writer at a time; a reset racing a
/// single writer can leave one bucket at its old count + 1 (the increment is a load-add-store that may
/// straddle the clear), so stop the writer before resetting, or use the interlocked or thread-local mode.</para>
/// <para>Readers on any thread always see a state consistent with respect to <see cref="Reset"/>: every
/// read copies the counters and retries while a reset (or the folding of exited threads) is in progress.
/// Each read method takes its own copy; use <see cref="GetSnapshot"/> or the batch methods when several
/// numbers must agree.</para>
/// </remarks>
// Longer than 400 lines: one public data structure, its partial files summed. Recording, percentiles, snapshots and
// serialization all read its private counts through one copy-and-retry protocol against resets, and its partial files
// already part them by concern; moving a part to another type would change the public API (HdrHistogram.FromJson, ...).
public sealed partial class HdrHistogram
{
    private readonly HdrBuckets _layout;
    private readonly nuint _firstIndex;

    // Storage length without the overflow slot, which lives at [_length] in the same array so the
    // record path clamps the index instead of branching to a separate field.
    private readonly nuint _length;

    // The counters (single writer, interlocked) or the accumulator of exited threads (thread-local).
    private readonly ulong[]? _counts64;
    private readonly uint[]? _counts32;
    private readonly StorageMode _mode;
    private readonly Lock _lock = new();

    // Thread-local mode only: the slot that finds the calling thread's shard, and every live shard
    // (copy-on-write under _lock, so readers iterate without locking).
    private readonly HdrShardSlot? _slot;
    private HdrShard[] _shards = [];

    // Odd while a reset or a fold rewrites the storage; readers copy, then retry if it changed (seqlock).
    private int _version;
    private long _resetCount;

    internal HdrHistogram(
        HdrBuckets layout, ulong minTrackableValue, ulong maxTrackableValue, bool uint64Storage, HdrConcurrency concurrency)
    {
        _layout = layout;
        MinTrackableValue = minTrackableValue;
        MaxTrackableValue = maxTrackableValue;
        Concurrency = concurrency;
        _firstIndex = layout.GetLogicalIndexForValue(minTrackableValue);
        _length = layout.GetLogicalIndexForValue(maxTrackableValue) + 1 - _firstIndex;

        int slots = checked((int)_length + 1);
        if (uint64Storage)
            _counts64 = new ulong[slots];
        else
            _counts32 = new uint[slots];

        _mode = (concurrency, uint64Storage) switch
        {
            (HdrConcurrency.SingleWriter, true) => StorageMode.Single64,
            (HdrConcurrency.SingleWriter, false) => StorageMode.Single32,
            (HdrConcurrency.Interlocked, true) => StorageMode.Interlocked64,
            (HdrConcurrency.Interlocked, false) => StorageMode.Interlocked32,
            _ => StorageMode.ThreadLocal,
        };
        if (_mode == StorageMode.ThreadLocal)
            _slot = new HdrShardSlot();
    }

    /// <summary>How the counters are written; a <see cref="HdrHistogramWriter"/> uses the first four.</summary>
    internal enum StorageMode : byte
    {
        Single64,
        Single32,
        Interlocked64,
        Interlocked32,
        ThreadLocal,
    }

    /// <summary>The starting point for a new histogram: <c>HdrHistogram.Factory.WithRelativeError(0.01).Create()</c>.</summary>
    public static HdrHistogramBuilder Factory => new();

    /// <summary>The bucket layout (block size, relative error) shared by all histograms of the same precision.</summary>
    public HdrBuckets Layout => _layout;

    /// <summary>The effective worst-case relative error of a bucket midpoint: 0.5 / BlockSize.</summary>
    public double RelativeError => _layout.RelativeError;

    /// <summary>The min trackable value the histogram was created with.</summary>
    public ulong MinTrackableValue { get; }

    /// <summary>The max trackable value the histogram was created with.</summary>
    public ulong MaxTrackableValue { get; }

    /// <summary>How several threads may record into this histogram.</summary>
    public HdrConcurrency Concurrency { get; }

    /// <summary>Bytes per bucket counter: 4 or 8.</summary>
    public int CounterSize => _counts64 is null ? sizeof(uint) : sizeof(ulong);

    /// <summary>Number of buckets between the min and max trackable values (the overflow slot excluded).</summary>
    public int BucketCount => (int)_length;

    /// <summary>Logical index (in <see cref="Layout"/>) of the first stored bucket.</summary>
    public int FirstLogicalIndex => (int)_firstIndex;

    /// <summary>
    /// Bytes held by the bucket counters, overflow counters included: one array, plus one per writing
    /// thread in the thread-local mode.
    /// </summary>
    public long FootprintInBytes => ((long)_length + 1) * CounterSize * (1 + Volatile.Read(ref _shards).Length);

    /// <summary>How many times <see cref="Reset"/> has completed.</summary>
    public long ResetCount => Volatile.Read(ref _resetCount);

    /// <summary>Adds one to the bucket of <paramref name="value"/>, or to the overflow counter when out of range.</summary>
    /// <param name="value">The value to record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(ulong value)
    {
        nuint index = GetStorageIndex(value);
        // index ≤ _length and the arrays have _length + 1 slots: the bounds check is proven away by hand.
        if (_mode == StorageMode.Single64)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts64!), index)++;
        else if (_mode == StorageMode.Single32)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts32!), index)++;
        else
            RecordConcurrent(index, 1);
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
        if (_counts32 is not null && count > uint.MaxValue)
            ThrowCountTooLargeFor32Bit(count);

        nuint index = GetStorageIndex(value);
        if (_mode == StorageMode.Single64)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts64!), index) += count;
        else if (_mode == StorageMode.Single32)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts32!), index) += (uint)count;
        else
            RecordConcurrent(index, count);
    }

    /// <summary>Clears every counter (of every thread, in the thread-local mode). Readers never observe a half-cleared histogram.</summary>
    public void Reset()
    {
        lock (_lock)
        {
            Interlocked.Increment(ref _version);
            try
            {
                ClearStorage(_counts64, _counts32);
                foreach (HdrShard shard in _shards)
                    ClearStorage(shard.Counts64, shard.Counts32);
                Interlocked.Increment(ref _resetCount);
            }
            finally
            {
                Interlocked.Increment(ref _version);
            }
        }
    }

    /// <summary>Number of values recorded inside the trackable range (the overflow excluded). O(buckets).</summary>
    public ulong TotalCount
    {
        get
        {
            FoldExitedThreads();
            int version;
            ulong total;
            do
            {
                version = BeginRead();
                total = Sum(_counts64, _counts32, (int)_length);
                foreach (HdrShard shard in Volatile.Read(ref _shards))
                    total += Sum(shard.Counts64, shard.Counts32, (int)_length);
            }
            while (!EndRead(version));

            return total;
        }
    }

    /// <summary>Number of values recorded outside the trackable range.</summary>
    public ulong OverflowCount
    {
        get
        {
            FoldExitedThreads();
            int version;
            ulong overflow;
            do
            {
                version = BeginRead();
                overflow = ReadOverflow(_counts64, _counts32, _length);
                foreach (HdrShard shard in Volatile.Read(ref _shards))
                    overflow += ReadOverflow(shard.Counts64, shard.Counts32, _length);
            }
            while (!EndRead(version));

            return overflow;
        }
    }

    /// <summary>
    /// Copies the counters (every thread's, summed) into <paramref name="destination"/> (length ≥
    /// <see cref="BucketCount"/>) with the optimistic retry against <see cref="Reset"/>, and returns the
    /// overflow count of the same copy and the number of resets it follows.
    /// </summary>
    internal ulong CopyCounts(Span<ulong> destination, out long resetCount)
    {
        FoldExitedThreads();
        int version;
        ulong overflow;
        Span<ulong> target = destination[..(int)_length];
        do
        {
            version = BeginRead();
            resetCount = Volatile.Read(ref _resetCount);
            overflow = CopyStorage(_counts64, _counts32, target, _length);
            foreach (HdrShard shard in Volatile.Read(ref _shards))
                overflow += AddStorage(shard.Counts64, shard.Counts32, target, _length);
        }
        while (!EndRead(version));

        return overflow;
    }

    /// <inheritdoc cref="CopyCounts(Span{ulong}, out long)"/>
    internal ulong CopyCounts(Span<ulong> destination) => CopyCounts(destination, out _);

    /// <summary>
    /// The storage index of <paramref name="value"/>: its bucket's, or <paramref name="length"/> (the
    /// overflow slot) when it lies outside [first index, first index + length).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static nuint GetStorageIndex(ulong value, int blockScale, nuint firstIndex, nuint length)
    {
        // Values below the min trackable wrap around to huge unsigned indexes and values above land
        // past the end: both collapse onto the overflow slot at [length].
        nuint index = HdrBuckets.GetLogicalIndexForValue(value, blockScale) - firstIndex;
        return index < length ? index : length;
    }

    /// <summary>The interlocked modes' add, shared with <see cref="HdrHistogramWriter"/>.</summary>
    /// <param name="mode"><see cref="StorageMode.Interlocked64"/> or <see cref="StorageMode.Interlocked32"/>.</param>
    /// <param name="counts">The <see cref="ulong"/>[] or <see cref="uint"/>[] that <paramref name="mode"/> says.</param>
    /// <param name="index">A storage index (≤ length, so inside the array).</param>
    /// <param name="count">What to add (≤ <see cref="uint.MaxValue"/> for 32-bit counters, checked by the caller).</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static void AddInterlocked(StorageMode mode, object counts, nuint index, ulong count)
    {
        if (mode == StorageMode.Interlocked64)
            Interlocked.Add(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<ulong[]>(counts)), index), count);
        else
            Interlocked.Add(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Unsafe.As<uint[]>(counts)), index), (uint)count);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private nuint GetStorageIndex(ulong value)
    {
        // The layout is copied to a local first: reading the block scale through the field passes the
        // field's address, and the JIT then emits an explicit null check of `this` plus an lea on every
        // call; the local copy is promoted to registers and the block scale becomes one plain load
        // (7-12% of Record's time on .NET 10 x64, see bench/RESULTS.md).
        HdrBuckets layout = _layout;
        return GetStorageIndex(value, layout.BlockScale, _firstIndex, _length);
    }

    // Out of line so the single-writer paths of Record stay small enough to inline into callers. One
    // test picks thread-local or interlocked; the interlocked add then tests the counter width itself.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RecordConcurrent(nuint index, ulong count)
    {
        if (_mode == StorageMode.ThreadLocal)
            CurrentShard().Add(index, count);
        else
            AddInterlocked(_mode, _counts64 ?? (object)_counts32!, index, count);
    }

    /// <summary>The calling thread's shard in the thread-local mode, registered on its first use.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private HdrShard CurrentShard() => _slot!.TryGetCurrent() ?? RegisterCurrentThread();

    /// <summary>First record of the calling thread in the thread-local mode: give it a shard of its own.</summary>
    private HdrShard RegisterCurrentThread()
    {
        var shard = new HdrShard(_slot!.Token, Thread.CurrentThread, (int)_length + 1, _counts64 is not null);
        lock (_lock)
        {
            FoldExitedThreadsLocked();
            // An empty shard changes no total, so publishing it needs no version bump.
            HdrShard[] shards = _shards;
            var grown = new HdrShard[shards.Length + 1];
            shards.CopyTo(grown, 0);
            grown[^1] = shard;
            Volatile.Write(ref _shards, grown);
        }

        _slot.SetCurrent(shard);
        return shard;
    }

    /// <summary>Moves the counts of threads that have exited into the accumulator and drops their shards.</summary>
    private void FoldExitedThreads()
    {
        if (_mode != StorageMode.ThreadLocal || !HasExitedOwner(Volatile.Read(ref _shards)))
            return;
        lock (_lock)
            FoldExitedThreadsLocked();
    }

    private void FoldExitedThreadsLocked()
    {
        HdrShard[] shards = _shards;
        if (!HasExitedOwner(shards))
            return;

        // A fold moves counts between arrays: readers summing both would count them twice, so it is
        // bracketed by the version like a reset. The exited owner can no longer write its shard, and
        // the join-like synchronization of thread exit makes its last increments visible here.
        Interlocked.Increment(ref _version);
        try
        {
            var alive = new List<HdrShard>(shards.Length);
            foreach (HdrShard shard in shards)
            {
                if (shard.Owner.IsAlive)
                    alive.Add(shard);
                else
                    AddStorage(shard.Counts64, shard.Counts32, _counts64, _counts32);
            }

            Volatile.Write(ref _shards, alive.ToArray());
        }
        finally
        {
            Interlocked.Increment(ref _version);
        }
    }

    private static bool HasExitedOwner(HdrShard[] shards)
    {
        foreach (HdrShard shard in shards)
        {
            if (!shard.Owner.IsAlive)
                return true;
        }

        return false;
    }

    // Seqlock read side: wait for an even version (nothing rewriting the storage), read, then check that
    // nothing started rewriting meanwhile; the caller retries otherwise.
    private int BeginRead()
    {
        var spinner = new SpinWait();
        int version;
        while (((version = Volatile.Read(ref _version)) & 1) != 0)
            spinner.SpinOnce();
        return version;
    }

    private bool EndRead(int version)
    {
        // The reads must complete before the version is loaded again (a seqlock's read barrier);
        // Volatile.Read only orders the loads that follow it.
        Interlocked.MemoryBarrier();
        return version == Volatile.Read(ref _version);
    }

    private static void ClearStorage(ulong[]? counts64, uint[]? counts32)
    {
        if (counts64 is not null)
            Array.Clear(counts64);
        else
            Array.Clear(counts32!);
    }

    private static ulong Sum(ulong[]? counts64, uint[]? counts32, int length)
    {
        ulong total = 0;
        if (counts64 is not null)
        {
            foreach (ulong c in counts64.AsSpan(0, length))
                total += c;
        }
        else
        {
            foreach (uint c in counts32.AsSpan(0, length))
                total += c;
        }

        return total;
    }

    private static ulong ReadOverflow(ulong[]? counts64, uint[]? counts32, nuint length) =>
        counts64 is not null ? Volatile.Read(ref counts64[length]) : Volatile.Read(ref counts32![length]);

    private static ulong CopyStorage(ulong[]? counts64, uint[]? counts32, Span<ulong> destination, nuint length)
    {
        if (counts64 is not null)
        {
            counts64.AsSpan(0, destination.Length).CopyTo(destination);
        }
        else
        {
            ReadOnlySpan<uint> source = counts32.AsSpan(0, destination.Length);
            for (int i = 0; i < source.Length; i++)
                destination[i] = source[i];
        }

        return ReadOverflow(counts64, counts32, length);
    }

    private static ulong AddStorage(ulong[]? counts64, uint[]? counts32, Span<ulong> destination, nuint length)
    {
        if (counts64 is not null)
        {
            ReadOnlySpan<ulong> source = counts64.AsSpan(0, destination.Length);
            for (int i = 0; i < source.Length; i++)
                destination[i] += source[i];
        }
        else
        {
            ReadOnlySpan<uint> source = counts32.AsSpan(0, destination.Length);
            for (int i = 0; i < source.Length; i++)
                destination[i] += source[i];
        }

        return ReadOverflow(counts64, counts32, length);
    }

    /// <summary>Adds one storage (overflow slot included) into another of the same shape and width.</summary>
    private static void AddStorage(ulong[]? from64, uint[]? from32, ulong[]? to64, uint[]? to32)
    {
        if (from64 is not null)
        {
            for (int i = 0; i < from64.Length; i++)
                to64![i] += from64[i];
        }
        else
        {
            for (int i = 0; i < from32!.Length; i++)
                to32![i] += from32[i];
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static void ThrowCountTooLargeFor32Bit(ulong count) =>
        throw new ArgumentOutOfRangeException(
            nameof(count),
            count,
            "A 32-bit histogram cannot add more than 4,294,967,295 at once: create it with WithUInt64Storage().");
}
