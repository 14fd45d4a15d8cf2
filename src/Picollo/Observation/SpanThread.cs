using System.Runtime.CompilerServices;
using Picollo.Metrics;
using Picollo.PerfEvents;

namespace Picollo.Observation;

/// <summary>
/// What one thread holds for the spans it enters: a histogram writer per counter of each span (bound to this thread's
/// shard, so recording takes no lock and no lookup) and a perf_event session per span plan, opened on the thread's first
/// span of that plan and closed after the thread exits (<see cref="SpanSessionSweeper"/>).
/// </summary>
internal sealed class SpanThread
{
    [ThreadStatic]
    private static SpanThread? t_current;

    // Indexed by PerfSpan.Id / SpanPerfPlan.Id; grown on this thread only, read by the sweeper only after the owner exited.
    private HdrHistogramWriter[]?[] _writers = new HdrHistogramWriter[]?[16];
    private PerfEventCounterSession?[] _sessions = [];
    private bool[] _sessionTried = [];
    private long[] _sessionRetryAt = [];

    // The most raw values the frame stack holds (about 140 nested spans of 6 counters): beyond, it starts again at 0.
    internal const int MaxPerfStackValues = 1_024;

    // How long a thread waits before trying again to open a session that failed.
    internal const int SessionRetryMilliseconds = 1_000;

    // The raw perf_event values of the spans open on this thread, a frame per span: a stamp slot, then the session's
    // values at its enter. Frames are pushed and popped in the order spans nest; a span disposed out of order pops the
    // frames above its own, and a span whose frame was overwritten since finds another stamp there (never counted wrong).
    private Interop.PerfEventValue[] _perfStack = new Interop.PerfEventValue[32];
    private int _perfTop;
    private ulong _nextStamp = 1UL << 63; // a stamp has the top bit set: no raw count a frame could hold looks like one

    private SpanThread()
    {
        Owner = Thread.CurrentThread;
    }

    /// <summary>The calling thread's state, created on its first span.</summary>
    public static SpanThread Current
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current ?? CreateCurrent();
    }

    /// <summary>The calling thread's state when it has entered a span before; what a span's exit compares with its enter.</summary>
    public static SpanThread? CurrentOrNull
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => t_current;
    }

    /// <summary>The thread this state belongs to.</summary>
    public Thread Owner { get; }

    /// <summary>The writers of <paramref name="span"/>'s recorded counters (and its IPC histogram last), for this thread.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public HdrHistogramWriter[] WritersOf(PerfSpan span)
    {
        HdrHistogramWriter[]?[] writers = _writers;
        int id = span.Id;
        return (uint)id < (uint)writers.Length && writers[id] is { } found ? found : CreateWriters(span);
    }

    /// <summary>This thread's session of <paramref name="plan"/>: opened on first use; null when it cannot count on this thread.</summary>
    public PerfEventCounterSession? SessionOf(SpanPerfPlan plan)
    {
        int id = plan.Id;
        if ((uint)id < (uint)_sessions.Length && _sessionTried[id])
        {
            PerfEventCounterSession? session = _sessions[id];
            // A session that could not be opened (too many open files for a moment, the PMU taken) is tried again a
            // second later, so that one bad moment does not leave a pooled thread uncounted for its whole life.
            return session is not null || Environment.TickCount64 < _sessionRetryAt[id] ? session : OpenSession(plan);
        }

        return OpenSession(plan);
    }

    /// <summary>How many raw values the frame stack can hold now (bounded by <see cref="MaxPerfStackValues"/>; for tests).</summary>
    internal int PerfStackCapacity => _perfStack.Length;

    /// <summary>
    /// Pushes a span's enter values; returns the frame and, in <paramref name="stamp"/>, what proves it unchanged at exit.
    /// </summary>
    public int PushPerf(ReadOnlySpan<Interop.PerfEventValue> values, out ulong stamp)
    {
        int frame = _perfTop;
        int end = frame + 1 + values.Length;
        if (end > MaxPerfStackValues)
        {
            // Frames that are never popped (a scope disposed on another thread, or never disposed) would grow the stack
            // for the thread's life: start again from the bottom. Spans still open then find their frames overwritten
            // and count as uncounted, never as another span's values.
            frame = 0;
            end = 1 + values.Length;
        }

        if (end > _perfStack.Length)
            Array.Resize(ref _perfStack, Math.Max(end, _perfStack.Length * 2));
        stamp = ++_nextStamp;
        _perfStack[frame] = new Interop.PerfEventValue { Count = stamp };
        values.CopyTo(_perfStack.AsSpan(frame + 1));
        _perfTop = end;
        return frame;
    }

    /// <summary>
    /// Pops <paramref name="frame"/> (and any above it) and returns its values when it still holds <paramref name="stamp"/>'s;
    /// <see langword="false"/>, popping nothing, when a later span overwrote it. The values stay valid until the next push.
    /// </summary>
    public bool TryPopPerf(int frame, ulong stamp, int length, out ReadOnlySpan<Interop.PerfEventValue> values)
    {
        bool intact = (uint)frame < (uint)_perfStack.Length && frame + 1 + length <= _perfStack.Length && _perfStack[frame].Count == stamp;
        if (!intact)
        {
            // Its slot now lies inside a newer frame: lowering the top there would let the next push write into that
            // frame's values without covering its stamp first.
            values = default;
            return false;
        }

        values = _perfStack.AsSpan(frame + 1, length);
        // Cleared, so that a copy of the scope disposed later finds no frame rather than this one again.
        _perfStack[frame].Count = 0;
        if (frame < _perfTop)
            _perfTop = frame;
        return true;
    }

    /// <summary>Closes every session (after the owner exited, or when the process shuts the spans down).</summary>
    public int CloseSessions()
    {
        int closed = 0;
        PerfEventCounterSession?[] sessions = Volatile.Read(ref _sessions);
        for (int i = 0; i < sessions.Length; i++)
        {
            if (sessions[i] is { } session)
            {
                session.Dispose();
                sessions[i] = null;
                closed++;
            }
        }

        return closed;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static SpanThread CreateCurrent() => t_current = new SpanThread();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private HdrHistogramWriter[] CreateWriters(PerfSpan span)
    {
        if (span.Id >= _writers.Length)
            Array.Resize(ref _writers, Math.Max(span.Id + 1, _writers.Length * 2));
        var writers = new HdrHistogramWriter[span.RecordedHistograms.Length];
        for (int i = 0; i < writers.Length; i++)
            writers[i] = span.RecordedHistograms[i].GetWriter();
        return _writers[span.Id] = writers;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private PerfEventCounterSession? OpenSession(SpanPerfPlan plan)
    {
        int id = plan.Id;
        if (id >= _sessions.Length)
        {
            int length = Math.Max(id + 1, _sessions.Length * 2);
            var sessions = new PerfEventCounterSession?[length];
            _sessions.CopyTo(sessions, 0);
            Array.Resize(ref _sessionTried, length);
            Array.Resize(ref _sessionRetryAt, length);
            Volatile.Write(ref _sessions, sessions);
        }

        _sessionTried[id] = true;
        PerfEventCounterSession? session = plan.TryOpen(out _);
        if (session is null)
        {
            _sessionRetryAt[id] = Environment.TickCount64 + SessionRetryMilliseconds;
        }
        else
        {
            _sessions[id] = session;
            SpanSessionSweeper.Register(this);
        }

        return session;
    }
}
