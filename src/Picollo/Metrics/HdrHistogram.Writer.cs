using System.Runtime.CompilerServices;

namespace Picollo.Metrics;

public sealed partial class HdrHistogram
{
    /// <summary>
    /// Gets a writer bound to the calling thread, for recording at the speed of a hand-inlined loop:
    /// in the thread-local mode it writes the thread's own counters (created on first use) without the
    /// per-record thread lookup of <see cref="Record(ulong)"/>; in the other modes it writes the shared counters.
    /// </summary>
    /// <returns>A writer to use on the calling thread only (see <see cref="HdrHistogramWriter"/>).</returns>
    /// <remarks>
    /// Getting a writer is cheap but not free (the thread-local mode looks up, or registers, the thread's
    /// counters): get one per thread and per batch of records, not per record. Writers and
    /// <see cref="Record(ulong)"/> can be mixed; they write the same counters.
    /// </remarks>
    /// <example>
    /// <code>
    /// var latencies = HdrHistogram.Factory.WithConcurrency(HdrConcurrency.ThreadLocal).Create();
    ///
    /// // on each worker thread
    /// HdrHistogramWriter writer = latencies.GetWriter();   // bound to this thread, kept in a local
    /// foreach (Request request in batch)
    ///     writer.Record(Handle(request));
    /// </code>
    /// </example>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public HdrHistogramWriter GetWriter()
    {
        HdrBuckets layout = _layout;
        return _mode != StorageMode.ThreadLocal
            ? new HdrHistogramWriter(_counts64 ?? (object)_counts32!, _mode, layout.BlockScale, _firstIndex, _length)
            : GetThreadLocalWriter();
    }

    private HdrHistogramWriter GetThreadLocalWriter()
    {
        // The thread's shard is single-writer storage of its own.
        HdrShard shard = CurrentShard();
        HdrBuckets layout = _layout;
        return shard.Counts64 is not null
            ? new HdrHistogramWriter(shard.Counts64, StorageMode.Single64, layout.BlockScale, _firstIndex, _length)
            : new HdrHistogramWriter(shard.Counts32!, StorageMode.Single32, layout.BlockScale, _firstIndex, _length);
    }
}
