using System.Numerics;
using System.Runtime.CompilerServices;

namespace Picollo.Metrics;

/// <summary>
/// Gives a thread-local histogram a small integer index into a per-thread array of shards, so a writer
/// finds its own counters with one thread-static load, one bounds check and one reference compare.
/// </summary>
/// <remarks>
/// Indexes are recycled when the histogram is collected (this object's finalizer), which bounds every
/// thread's array by the number of live thread-local histograms. A recycled index may still hold the
/// previous owner's shard in some thread's array: <see cref="Token"/> tells them apart. Shards hold the
/// token, never this object, so a stale shard cannot keep the slot from being finalized.
/// </remarks>
internal sealed class HdrShardSlot
{
    private static readonly Lock s_lock = new();
    private static readonly Stack<int> s_free = new();
    private static int s_next;

    [ThreadStatic]
    private static HdrShard?[]? t_shards;

    public HdrShardSlot()
    {
        lock (s_lock)
            Index = s_free.Count > 0 ? s_free.Pop() : s_next++;
    }

    ~HdrShardSlot()
    {
        lock (s_lock)
            s_free.Push(Index);
    }

    public int Index { get; }

    /// <summary>The identity shared by this slot's shards; compared by reference.</summary>
    public object Token { get; } = new();

    /// <summary>The calling thread's shard for this slot, or <see langword="null"/> on its first record.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public HdrShard? TryGetCurrent()
    {
        HdrShard?[]? shards = t_shards;
        if (shards is not null && (uint)Index < (uint)shards.Length)
        {
            HdrShard? shard = shards[Index];
            if (shard is not null && ReferenceEquals(shard.Token, Token))
                return shard;
        }

        return null;
    }

    /// <summary>Makes <paramref name="shard"/> the calling thread's shard for this slot.</summary>
    public void SetCurrent(HdrShard shard)
    {
        HdrShard?[]? shards = t_shards;
        if (shards is null || shards.Length <= Index)
        {
            Array.Resize(ref shards, Math.Max(4, (int)BitOperations.RoundUpToPowerOf2((uint)Index + 1)));
            t_shards = shards;
        }

        shards[Index] = shard;
    }
}
