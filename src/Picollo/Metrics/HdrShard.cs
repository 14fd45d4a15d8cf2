using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Picollo.Metrics;

/// <summary>One thread's private counters inside a thread-local histogram: written only by <see cref="Owner"/>.</summary>
internal sealed class HdrShard
{
    public HdrShard(object token, Thread owner, int slots, bool uint64Storage)
    {
        Token = token;
        Owner = owner;
        if (uint64Storage)
            Counts64 = new ulong[slots];
        else
            Counts32 = new uint[slots];
    }

    /// <summary>Identifies the histogram the shard belongs to (see <see cref="HdrShardSlot"/>).</summary>
    public object Token { get; }

    /// <summary>The only thread that writes the counters; once it has exited the shard is folded away.</summary>
    public Thread Owner { get; }

    public ulong[]? Counts64 { get; }

    public uint[]? Counts32 { get; }

    /// <summary>Plain add: the owner is the only writer, readers tolerate a value one increment old.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(nuint index, ulong count)
    {
        if (Counts64 is not null)
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Counts64), index) += count;
        else
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Counts32!), index) += (uint)count;
    }
}
