using System.Buffers;

namespace Picollo.Metrics.Serialization;

/// <summary>
/// Writes the V2 counts payload from (countsIndex, count) pairs given in ascending index order: adds up
/// counts that share an index and turns the gaps into zero runs (a run of k ≥ 2 empty buckets is −k).
/// </summary>
internal sealed class HdrHistogramV2CountsWriter(ArrayBufferWriter<byte> destination)
{
    private long _nextIndex;
    private long _pendingIndex = -1;
    private ulong _pendingCount;

    /// <summary>Adds a positive count at an index ≥ the previous one.</summary>
    /// <exception cref="InvalidOperationException">The bucket's total exceeds <see cref="long.MaxValue"/>.</exception>
    public void Add(long countsIndex, ulong count)
    {
        if (countsIndex != _pendingIndex)
        {
            Flush();
            _pendingIndex = countsIndex;
        }

        // Buckets share an index only when the target layout is coarser (block size above 2^17); the
        // format's counters are signed 64-bit, and a negative one would read back as a zero run.
        if (count > long.MaxValue - _pendingCount)
        {
            throw new InvalidOperationException(HistogramFormatMessages.BucketCountAboveLongMax());
        }

        _pendingCount += count;
    }

    /// <summary>Writes the pending count; call once after the last <see cref="Add"/>.</summary>
    public void Flush()
    {
        // Add only takes positive counts, so a zero pending count means nothing is pending.
        if (_pendingCount == 0)
            return;

        long zeros = _pendingIndex - _nextIndex;
        if (zeros > 1)
            Write(-zeros);
        else if (zeros == 1)
            Write(0);

        Write((long)_pendingCount);
        _nextIndex = _pendingIndex + 1;
        _pendingCount = 0;
    }

    private void Write(long value) =>
        destination.Advance(ZigZagLeb128.Write(value, destination.GetSpan(ZigZagLeb128.MaxLength)));
}
