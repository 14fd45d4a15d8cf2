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
/// <para>Concurrency: one writer at a time. Readers on other threads are safe and always see a state
/// that is consistent with respect to <see cref="Reset"/> (reads retry while a reset is in progress).
/// A reset racing with a writer can leave one bucket at its old count + 1 (the increment is a
/// load-add-store that may straddle the clear): callers that reset a live histogram must stop the
/// writer first.</para>
/// </remarks>
public sealed partial class HdrHistogram
{
    private readonly HdrBuckets _layout;
    private readonly nuint _firstIndex;

    // Storage length without the overflow slot, which lives at [_length] in the same array so the
    // record path clamps the index instead of branching to a separate field.
    private readonly nuint _length;
    private readonly ulong[]? _counts64;
    private readonly uint[]? _counts32;
    private readonly Lock _resetLock = new();

    // Odd while a reset is clearing the storage; readers copy, then retry if it changed (seqlock).
    private int _version;

    internal HdrHistogram(HdrBuckets layout, ulong minTrackableValue, ulong maxTrackableValue, bool uint64Storage)
    {
        _layout = layout;
        MinTrackableValue = minTrackableValue;
        MaxTrackableValue = maxTrackableValue;
        _firstIndex = layout.GetLogicalIndexForValue(minTrackableValue);
        _length = layout.GetLogicalIndexForValue(maxTrackableValue) + 1 - _firstIndex;

        int slots = checked((int)_length + 1);
        if (uint64Storage)
            _counts64 = new ulong[slots];
        else
            _counts32 = new uint[slots];
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

    /// <summary>Bytes per bucket counter: 4 or 8.</summary>
    public int CounterSize => _counts64 is null ? sizeof(uint) : sizeof(ulong);

    /// <summary>Number of buckets between the min and max trackable values (the overflow slot excluded).</summary>
    public int BucketCount => (int)_length;

    /// <summary>Logical index (in <see cref="Layout"/>) of the first stored bucket.</summary>
    public int FirstLogicalIndex => (int)_firstIndex;

    /// <summary>Bytes held by the bucket counters, the overflow counter included.</summary>
    public long FootprintInBytes => ((long)_length + 1) * CounterSize;

    /// <summary>How many times <see cref="Reset"/> has completed.</summary>
    public long ResetCount => Volatile.Read(ref _version) >> 1;

    /// <summary>Adds one to the bucket of <paramref name="value"/>, or to the overflow counter when out of range.</summary>
    /// <param name="value">The value to record.</param>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(ulong value)
    {
        nuint index = GetStorageIndex(value);
        // index ≤ _length and the arrays have _length + 1 slots: the bounds check is proven away by hand.
        if (_counts64 is not null)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts64), index)++;
        else
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts32!), index)++;
    }

    /// <summary>Adds <paramref name="count"/> to the bucket of <paramref name="value"/> (or to the overflow counter).</summary>
    /// <param name="value">The value to record.</param>
    /// <param name="count">How many times it was observed.</param>
    /// <exception cref="ArgumentOutOfRangeException">32-bit storage and <paramref name="count"/> above <see cref="uint.MaxValue"/>.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(ulong value, ulong count)
    {
        nuint index = GetStorageIndex(value);
        if (_counts64 is not null)
        {
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts64), index) += count;
        }
        else
        {
            if (count > uint.MaxValue)
                ThrowCountTooLargeFor32Bit(count);
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_counts32!), index) += (uint)count;
        }
    }

    /// <summary>Clears every counter. Readers never observe a half-cleared histogram.</summary>
    public void Reset()
    {
        lock (_resetLock)
        {
            Interlocked.Increment(ref _version);
            try
            {
                if (_counts64 is not null)
                    Array.Clear(_counts64);
                else
                    Array.Clear(_counts32!);
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
            int version;
            ulong total;
            do
            {
                version = BeginRead();
                total = SumInRange();
            }
            while (!EndRead(version));

            return total;
        }
    }

    /// <summary>Number of values recorded outside the trackable range.</summary>
    public ulong OverflowCount => _counts64 is not null ? Volatile.Read(ref _counts64[_length]) : Volatile.Read(ref _counts32![_length]);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private nuint GetStorageIndex(ulong value)
    {
        // Values below the min trackable wrap around to huge unsigned indexes and values above land
        // past the end: both collapse onto the overflow slot at [_length].
        // The layout is copied to a local first: calling its instance method on the field passes the
        // field's address, and the JIT then emits an explicit null check of `this` plus an lea on every
        // call; the local copy is promoted to registers and the block scale becomes one plain load
        // (7-12% of Record's time on .NET 10 x64, see bench/RESULTS.md).
        HdrBuckets layout = _layout;
        nuint index = layout.GetLogicalIndexForValue(value) - _firstIndex;
        return index < _length ? index : _length;
    }

    private ulong SumInRange()
    {
        ulong total = 0;
        if (_counts64 is not null)
        {
            foreach (ulong c in _counts64.AsSpan(0, (int)_length))
                total += c;
        }
        else
        {
            foreach (uint c in _counts32.AsSpan(0, (int)_length))
                total += c;
        }

        return total;
    }

    /// <summary>
    /// Copies the counters into <paramref name="destination"/> (length ≥ <see cref="BucketCount"/>) with
    /// the optimistic retry against <see cref="Reset"/>, and returns the overflow count of the same copy.
    /// </summary>
    internal ulong CopyCounts(Span<ulong> destination)
    {
        int version;
        ulong overflow;
        do
        {
            version = BeginRead();
            overflow = CopyCountsUnchecked(destination);
        }
        while (!EndRead(version));

        return overflow;
    }

    // Seqlock read side: wait for an even version (no reset in progress), read, then check that no
    // reset started meanwhile; the caller retries otherwise.
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

    private ulong CopyCountsUnchecked(Span<ulong> destination)
    {
        int length = (int)_length;
        if (_counts64 is not null)
        {
            _counts64.AsSpan(0, length).CopyTo(destination);
            return Volatile.Read(ref _counts64[length]);
        }

        ReadOnlySpan<uint> source = _counts32.AsSpan(0, length);
        for (int i = 0; i < source.Length; i++)
            destination[i] = source[i];
        return Volatile.Read(ref _counts32![length]);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void ThrowCountTooLargeFor32Bit(ulong count) =>
        throw new ArgumentOutOfRangeException(
            nameof(count),
            count,
            "A 32-bit histogram cannot add more than 4,294,967,295 at once: create it with WithUInt64Storage().");
}
