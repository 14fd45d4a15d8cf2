namespace Picollo.PerfEvents;

// Reading: one read() per group or rdpmc, recording the deltas, and the messages of a failed read.
public sealed partial class PerfEventCounterSession
{
    /// <summary>
    /// Reads every counter of the group (of each group, on a hybrid CPU): the previous values are kept for <see cref="Record"/>'s deltas.
    /// </summary>
    /// <param name="forceSyscallRead">
    /// Always use one read() of the group (atomic for the whole group) even when rdpmc is possible (each
    /// counter read separately, some ns apart, but no syscall).
    /// </param>
    /// <returns>How the values were obtained; on a failure the values are not updated and <see cref="LastError"/> explains.</returns>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    public PerfEventReadStatus Read(bool forceSyscallRead = false)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        (_previous, _current) = (_current, _previous);
        _previousValid = _currentValid;
        _currentValid = false;

        if (_counters.Length == 0)
        {
            _noCountersError ??= "No counter of this session could be opened: " + DescribeUnavailable();
            return Fail(PerfEventReadStatus.NoCounters, _noCountersError);
        }

        if (!forceSyscallRead && _pages is not null && Environment.CurrentManagedThreadId == _ownerThreadId && TryReadRdpmc())
        {
            _currentValid = true;
            LastError = null;
            return LastReadStatus = PerfEventReadStatus.Rdpmc;
        }

        // One read() per group: one for the whole session, or one per core PMU on a hybrid CPU (see PerfEventOpener.GroupFor).
        for (int g = 0; g < _groups.Length; g++)
        {
            GroupRange group = _groups[g];
            PerfGroupReadStatus status = PerfEventGroupReader.Read(
                _syscalls,
                group.LeaderFd,
                _buffer.AsSpan(0, PerfEventGroupReader.BufferSize(group.Count)),
                _ids.AsSpan(group.Start, group.Count),
                _current.AsSpan(group.Start, group.Count),
                out int errno);
            if (status != PerfGroupReadStatus.Ok)
            {
                return status == PerfGroupReadStatus.EndOfFile
                    ? Fail(PerfEventReadStatus.GroupInErrorState, PerfEventMessages.GroupInErrorState(GroupNames(group)))
                    : Fail(PerfEventReadStatus.Failed, PerfEventMessages.GroupReadFailed(GroupNames(group), status, errno));
            }
        }

        _currentValid = true;
        LastError = null;
        return LastReadStatus = PerfEventReadStatus.Syscall;
    }

    /// <summary>
    /// Records into each counter's histogram the value between the last two reads (<paramref name="deltas"/>) or
    /// the current cumulative value, scaled for multiplexing (count × enabled / running). A counter that did
    /// not run in the interval is skipped and counted in <see cref="PerfEventCounter.NotCountedSamples"/>.
    /// </summary>
    /// <param name="deltas">Record current − previous (default) rather than the cumulative value.</param>
    /// <returns>
    /// <see langword="false"/> when nothing could be recorded: the last read (or the one before, for deltas) failed or is missing.
    /// </returns>
    /// <exception cref="ObjectDisposedException">The session is disposed.</exception>
    public bool Record(bool deltas = true)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!_currentValid || (deltas && !_previousValid))
            return false;

        foreach (PerfEventCounter counter in _counters)
        {
            if (!counter.TryMeasure(_current, _previous, deltas, out ulong value, out double ratio))
            {
                counter.NotCountedSamples++;
                continue;
            }

            counter.Histogram.Record(value);
            counter.LastValue = value;
            counter.MultiplexingRatio = ratio;
        }

        return true;
    }

    /// <summary>Empties every counter's histogram (e.g. after a warmup); the kernel counts are untouched.</summary>
    public void Reset()
    {
        foreach (PerfEventCounter counter in _counters)
        {
            counter.Histogram.Reset();
            counter.NotCountedSamples = 0;
        }
    }

    /// <summary>
    /// Reads the group and writes the cumulative, multiplexing-scaled count of every descriptor (0 for an
    /// unavailable one, whose descriptor says so). Allocates nothing. It is a <see cref="Read"/>: it shifts
    /// the previous/current values that <see cref="Record"/> uses, so drive a session through one API or the other.
    /// Each counter's <see cref="PerfEventCounter.MultiplexingRatio"/> becomes its ratio since the session opened.
    /// </summary>
    /// <param name="destination">At least <see cref="Descriptors"/>.Count long.</param>
    /// <exception cref="InvalidOperationException">
    /// The group read failed (e.g. a pinned group in error state): never reported as zeros.
    /// </exception>
    public void ReadCumulative(Span<ulong> destination)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(destination.Length, _descriptors.Length, nameof(destination));
        PerfEventReadStatus status = Read();
        if (status is PerfEventReadStatus.GroupInErrorState or PerfEventReadStatus.Failed)
            throw new InvalidOperationException(LastError);

        for (int i = 0; i < _descriptors.Length; i++)
        {
            int c = _descriptorToCounter[i];
            if (c >= 0 && _counters[c].TryMeasure(_current, default, deltas: false, out ulong value, out double ratio))
            {
                destination[i] = value;
                // Cumulative since the session opened: what a measurement engine reports for its whole run.
                _counters[c].MultiplexingRatio = ratio;
            }
            else
            {
                destination[i] = 0;
            }
        }
    }

    /// <summary>The raw values of the last read, one per opened event (what <see cref="TryMeasureSince"/> compares with).</summary>
    internal ReadOnlySpan<Interop.PerfEventValue> CurrentValues => _current;

    /// <summary>
    /// Reads the group for a span boundary: <see langword="true"/> when <see cref="CurrentValues"/> hold this read's raw values;
    /// <see langword="false"/> when the group could not be read (no counter, error state, a failed read).
    /// </summary>
    internal bool TryReadForSpan() => Read() is PerfEventReadStatus.Rdpmc or PerfEventReadStatus.Syscall;

    /// <summary>
    /// The count of <paramref name="descriptor"/> between <paramref name="start"/> (an earlier <see cref="CurrentValues"/>)
    /// and the last read, scaled by that interval's own enabled and running times: the difference of two cumulative scaled
    /// counts is not the interval's count once the multiplexing ratio changes. <see langword="false"/> when the counter
    /// is unavailable, did not run in the interval, or went backwards.
    /// </summary>
    internal bool TryMeasureSince(int descriptor, ReadOnlySpan<Interop.PerfEventValue> start, out ulong value)
    {
        int c = _descriptorToCounter[descriptor];
        if (c >= 0)
            return _counters[c].TryMeasure(_current, start, deltas: true, out value, out _);
        value = 0;
        return false;
    }

    private bool TryReadRdpmc() => PerfMmapReader.ReadGroup(_pages, _current) == Interop.PerfMmap.Ok;

    private PerfEventReadStatus Fail(PerfEventReadStatus status, string error)
    {
        LastError = error;
        return LastReadStatus = status;
    }

    private string DescribeUnavailable() => UnavailableCounters.Count == 0
        ? "no event was requested."
        : string.Join(" ", UnavailableCounters.Select(d => d.UnavailableReason));
}
