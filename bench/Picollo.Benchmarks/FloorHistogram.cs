using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Picollo.Metrics;

namespace Picollo.Benchmarks;

/// <summary>
/// The floor: the bucket arithmetic of <see cref="HdrBuckets.GetLogicalIndexForValue(ulong)"/> and the
/// overflow clamp of <c>HdrHistogram.GetStorageIndex</c> inlined by hand into a loop whose layout
/// parameters and counter array are locals (registers), incrementing a plain array.
/// Nothing a histogram type adds (field loads, null checks, storage-width dispatch) is left: this is
/// what "≤ 1.3× a plain loop doing the same bucket arithmetic" (docs/ARCHITECTURE.md, Hot paths) and the
/// writers' ≤ 1.1× (issue 15) are measured against. Its overflow counter is the array's last slot, in
/// memory like the histogram's, so the overflow-heavy case compares like with like.
/// </summary>
/// <remarks>
/// The increment skips the bounds check, as <c>HdrHistogram.Record</c> does (the clamp keeps the index
/// ≤ length and the array has length + 1 slots). A checked <c>counts[index]++</c> with a
/// <see cref="nuint"/> index costs a sign test, a length load and a compare per value, work Picollo does
/// not do, and would flatter the ratio.
/// </remarks>
internal sealed class FloorHistogram : RecordVariant
{
    private readonly int _blockScale;
    private readonly nuint _firstIndex;
    private readonly nuint _length;
    private readonly uint[]? _counts32;
    private readonly ulong[]? _counts64;
    private readonly bool _overflowInLocal;

    /// <summary>Takes the layout, first index and length of <paramref name="twin"/>, so both fill the same buckets.</summary>
    /// <param name="twin">The Picollo histogram whose buckets this floor fills.</param>
    /// <param name="uint64Storage">64-bit counters, else 32-bit ones.</param>
    /// <param name="overflowInLocal">
    /// 64-bit only, not a floor for any budget: count overflows in a local (a register) and add them to the
    /// array after the loop, to show what the in-memory overflow counter costs when most values overflow.
    /// </param>
    public FloorHistogram(Metrics.HdrHistogram twin, bool uint64Storage, bool overflowInLocal = false)
    {
        _overflowInLocal = overflowInLocal && uint64Storage;
        _blockScale = twin.Layout.BlockScale;
        _firstIndex = (nuint)twin.FirstLogicalIndex;
        _length = (nuint)twin.BucketCount;
        if (uint64Storage)
            _counts64 = new ulong[_length + 1];
        else
            _counts32 = new uint[_length + 1];
    }

    public override string Name => _overflowInLocal ? "Floor u64, overflow in a local" : NameFor(CounterBits);

    public override int CounterBits => _counts64 is null ? 32 : 64;

    public override long FootprintInBytes => ((long)_length + 1) * (CounterBits / 8);

    public override void Run(long[] values, int repeats)
    {
        if (_counts64 is null)
            Run32(values, repeats, _counts32!, _blockScale, _firstIndex, _length);
        else if (_overflowInLocal)
            Run64LocalOverflow(values, repeats, _counts64, _blockScale, _firstIndex, _length);
        else
            Run64(values, repeats, _counts64, _blockScale, _firstIndex, _length);
    }

    /// <summary>The floor's name for a counter width: "Floor u32" or "Floor u64".</summary>
    public static string NameFor(int counterBits) => $"Floor u{counterBits}";

    public override void Reset()
    {
        if (_counts64 is null)
            Array.Clear(_counts32!);
        else
            Array.Clear(_counts64);
    }

    private static void Run32(long[] values, int repeats, uint[] counts, int blockScale, nuint firstIndex, nuint length)
    {
        for (int r = 0; r < repeats; r++)
        {
            foreach (long v in values)
            {
                ulong value = (ulong)v;
                int stepScale = BitOperations.Log2(value >> blockScale);
                nuint index = (nuint)((uint)stepScale << blockScale) + (nuint)(value >> stepScale) - firstIndex;
                Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(counts), index < length ? index : length)++;
            }
        }
    }

    private static void Run64(long[] values, int repeats, ulong[] counts, int blockScale, nuint firstIndex, nuint length)
    {
        for (int r = 0; r < repeats; r++)
        {
            foreach (long v in values)
            {
                ulong value = (ulong)v;
                int stepScale = BitOperations.Log2(value >> blockScale);
                nuint index = (nuint)((uint)stepScale << blockScale) + (nuint)(value >> stepScale) - firstIndex;
                Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(counts), index < length ? index : length)++;
            }
        }
    }

    private static void Run64LocalOverflow(long[] values, int repeats, ulong[] counts, int blockScale, nuint firstIndex, nuint length)
    {
        ulong overflow = 0;
        for (int r = 0; r < repeats; r++)
        {
            foreach (long v in values)
            {
                ulong value = (ulong)v;
                int stepScale = BitOperations.Log2(value >> blockScale);
                nuint index = (nuint)((uint)stepScale << blockScale) + (nuint)(value >> stepScale) - firstIndex;
                if (index < length)
                    Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(counts), index)++;
                else
                    overflow++;
            }
        }

        counts[length] += overflow;
    }
}
