using System.Collections.ObjectModel;
using System.Runtime.CompilerServices;
using Picollo.Counters;
using Picollo.Metrics;
using Picollo.PerfEvents;

namespace Picollo.Observation;

/// <summary>
/// A named region of code whose counters are read at its boundaries on the thread that runs it, in running services as
/// in tests: <c>static readonly PerfSpan Parse = PerfSpan.Create("parse");</c> then <c>using (Parse.Enter()) { … }</c>.
/// Each span's values (exit − enter) go into one histogram per counter, recorded lock-free into the thread's own shard,
/// and to the listeners that ask for them: OpenTelemetry or <c>dotnet-counters</c> through the <c>Picollo</c> meter,
/// <c>dotnet-trace</c> through the <c>Picollo</c> event source.
/// </summary>
/// <remarks>
/// <para>Default counters: the TSC and the thread's allocated bytes, a few nanoseconds per read on every machine. perf_event
/// counters are read with <c>rdpmc</c> where the kernel allows it, from a session each thread opens on its first span and
/// that is closed after the thread exits; counters that need a <c>read()</c> system call are counted only with
/// <see cref="PerfSpanOptions.AllowSyscallReads"/> (docs/OBSERVATION.md).</para>
/// <para>Nesting: an outer span's values include its inner spans and their boundary reads. Async code: a scope disposed on
/// another thread than the one that entered it records nothing and counts in <see cref="ThreadHops"/>.</para>
/// <para>Creating a span with the name of an existing one returns that span when the options are the same (so two call
/// sites may share it) and throws otherwise. Spans live as long as the process: create them once, in static fields.</para>
/// </remarks>
public sealed class PerfSpan
{
    /// <summary>At most this many perf_event counters per span (the value slots left beside the TSC and allocated bytes).</summary>
    public const int MaxPerfCounters = 6;

    /// <summary>
    /// The name of the <see cref="System.Diagnostics.Metrics.Meter"/> spans export to: <c>AddMeter(PerfSpan.MeterName)</c> in
    /// OpenTelemetry, <c>--counters Picollo</c> in dotnet-counters.
    /// </summary>
    public const string MeterName = PerfSpanMeter.MeterName;

    /// <summary>
    /// The name of the <see cref="System.Diagnostics.Tracing.EventSource"/> that writes span events: <c>dotnet-trace collect --providers
    /// Picollo:0x1:4</c>.
    /// </summary>
    public const string EventSourceName = PerfSpanEventSource.SourceName;

    /// <summary>IPC is recorded in thousandths of an instruction per cycle (histograms hold integers).</summary>
    internal const int IpcScale = 1000;

    /// <summary>The inverse of <see cref="IpcScale"/>.</summary>
    internal const double IpcScaleInverse = 1.0 / IpcScale;

    private static readonly Lock s_lock = new();
    private static PerfSpan[] s_all = [];
    private static ReadOnlyCollection<PerfSpan> s_allView = new([]);
    private static bool s_enabled = EnabledByEnvironment(Environment.GetEnvironmentVariable(EnabledVariable));

    private readonly PerfSpanOptions _options;
    private readonly string[] _counterKey;
    private readonly bool _countsTsc;
    private readonly bool _countsAllocations;
    private readonly SpanPerfPlan? _plan;
    private readonly int _cyclesSlot;
    private readonly int _instructionsSlot;
    private readonly SpanInstrument[] _instruments;
    private readonly SpanInstrument? _ipcInstrument;
    private readonly KeyValuePair<string, object?> _tag;
    private long _hops;
    private long _uncounted;

    /// <summary>A span of validated counters, built by <see cref="SpanDefinition.Build"/>.</summary>
    internal PerfSpan(
        string name,
        int id,
        PerfSpanOptions options,
        string[] counterKey,
        IReadOnlyList<PerfSpanCounter> counters,
        SpanPerfPlan? plan,
        double secondsPerTick)
    {
        Name = name;
        Id = id;
        _options = options;
        _counterKey = counterKey;
        Counters = counters;
        _plan = plan;
        SecondsPerTick = secondsPerTick;
        _tag = new KeyValuePair<string, object?>(PerfSpanMeter.SpanTag, name);

        PerfSpanCounter[] recorded = [.. counters.Where(static c => c.IsAvailable)];
        _countsTsc = recorded.Any(static c => c.Kind == CounterKind.Tsc);
        _countsAllocations = recorded.Any(static c => c.Name == CounterNames.AllocatedBytes);
        RecordedCounters = recorded;
        _cyclesSlot = Array.FindIndex(recorded, static c => c.Name == CounterNames.Cycles);
        _instructionsSlot = Array.FindIndex(recorded, static c => c.Name == CounterNames.Instructions);
        _instruments = [.. recorded.Select(c => PerfSpanMeter.For(new CounterDescriptor(c.Name, c.Unit, c.Kind), secondsPerTick))];

        if (_cyclesSlot >= 0 && _instructionsSlot >= 0)
        {
            Ipc = SpanDefinition.Histograms(options).Create();
            _ipcInstrument = PerfSpanMeter.Ipc();
        }

        RecordedHistograms = [.. recorded.Select(static c => c.Histogram), .. Ipc is null ? Array.Empty<HdrHistogram>() : [Ipc]];
    }

    /// <summary>
    /// Whether <see cref="Enter"/> measures (default true): false turns every span into a no-op that reads nothing, e.g. to
    /// compare a service's throughput with and without spans. The environment variable <c>PICOLLO_SPANS=0</c> (or <c>off</c>,
    /// <c>false</c>) starts the process with spans off.
    /// </summary>
    public static bool Enabled
    {
        get => Volatile.Read(ref s_enabled);
        set => Volatile.Write(ref s_enabled, value);
    }

    /// <summary>Every span created in this process, in creation order.</summary>
    public static IReadOnlyList<PerfSpan> All => Volatile.Read(ref s_allView);

    /// <summary>The span's name: the <c>picollo.span</c> tag of its measurements and the name in its events.</summary>
    public string Name { get; }

    /// <summary>
    /// The requested counters in value-slot order (the TSC, allocated bytes, then perf_event counters as requested), each with its
    /// histogram, or the reason it does not count here.
    /// </summary>
    public IReadOnlyList<PerfSpanCounter> Counters { get; }

    /// <summary>
    /// Instructions per cycle of each span, in thousandths (1,500 = 1.5 IPC), when the span counts both <c>cycles</c> and
    /// <c>instructions</c>; otherwise <see langword="null"/>.
    /// </summary>
    public HdrHistogram? Ipc { get; }

    /// <summary>Scopes disposed on another thread than the one that entered them: counted here, their values not recorded.</summary>
    public long ThreadHops => Interlocked.Read(ref _hops);

    /// <summary>
    /// Spans not recorded because a value could not be trusted: their thread could not read the span's perf_event counters
    /// (no session on that thread, a failed read), a counter did not run during the span (multiplexed out), or the TSC
    /// went backwards between enter and exit.
    /// </summary>
    public long UncountedSpans => Interlocked.Read(ref _uncounted);

    /// <summary>The index of the span in <see cref="All"/>, and of its writers in every thread's table.</summary>
    internal int Id { get; }

    /// <summary>The counters that count, in value-slot order.</summary>
    internal PerfSpanCounter[] RecordedCounters { get; }

    /// <summary>The histograms a thread records into, in slot order, <see cref="Ipc"/> last when present.</summary>
    internal HdrHistogram[] RecordedHistograms { get; }

    /// <summary>Seconds per TSC tick (0 when the span does not count the TSC).</summary>
    internal double SecondsPerTick { get; }

    /// <summary>The environment variable that turns spans off for a process (<c>0</c>, <c>off</c>, <c>false</c>).</summary>
    internal const string EnabledVariable = "PICOLLO_SPANS";

    /// <summary>Creates (or returns the existing) span counting the TSC and allocated bytes.</summary>
    /// <param name="name">The span's name, e.g. <c>"parse"</c>.</param>
    /// <returns>The span.</returns>
    /// <exception cref="ArgumentException">The name is empty, or a span of that name exists with other counters.</exception>
    public static PerfSpan Create(string name) => Create(name, new PerfSpanOptions());

    /// <summary>Creates (or returns the existing) span counting the named counters (none: the defaults).</summary>
    /// <param name="name">The span's name.</param>
    /// <param name="counters"><c>tsc</c>, <c>allocated-bytes</c> and perf_event names such as <c>cycles</c>, <c>instructions</c>.</param>
    /// <returns>The span.</returns>
    /// <exception cref="ArgumentException">
    /// The name is empty, a counter is unknown or cannot be per span, or a span of that name exists with other counters.
    /// </exception>
    public static PerfSpan Create(string name, params string[] counters) =>
        Create(
            name, new PerfSpanOptions { Counters = counters is null || counters.Length == 0 ? PerfSpanOptions.DefaultCounters : counters });

    /// <summary>Creates (or returns the existing) span with <paramref name="options"/>.</summary>
    /// <param name="name">The span's name.</param>
    /// <param name="options">The counters, whether system-call reads are allowed, the histograms' relative error.</param>
    /// <returns>The span.</returns>
    /// <exception cref="ArgumentException">
    /// The name is empty, a counter is unknown or cannot be per span, or a span of that name exists with other options.
    /// </exception>
    public static PerfSpan Create(string name, PerfSpanOptions options) => Create(name, options, LibcPerfEventSyscalls.Instance);

    /// <summary>Creates a span whose perf_event sessions go through <paramref name="syscalls"/> (tests drive a fake PMU).</summary>
    internal static PerfSpan Create(string name, PerfSpanOptions options, IPerfEventSyscalls syscalls)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(options);
        string[] key = SpanDefinition.CounterKey(name, options);

        lock (s_lock)
        {
            foreach (PerfSpan existing in s_all)
            {
                if (existing.Name != name)
                    continue;
                SpanDefinition.RequireSame(name, existing._counterKey, existing._options, key, options);
                return existing;
            }

            PerfSpan span = SpanDefinition.Build(name, s_all.Length, options, key, syscalls);
            s_all = [.. s_all, span];
            s_allView = new ReadOnlyCollection<PerfSpan>(s_all);
            if (PerfSpanEventSource.Log.SpansEnabled)
                span.WriteDefinition();
            return span;
        }
    }

    /// <summary>
    /// Reads the span's counters on the calling thread and returns the scope whose <see cref="PerfSpanScope.Dispose"/> reads
    /// them again and records the differences. Allocates nothing (after the thread's first span).
    /// </summary>
    /// <returns>The entered scope; dispose it on this thread, once (a <c>using</c> statement does).</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public PerfSpanScope Enter()
    {
        PerfSpanScope scope = default;
        if (!Volatile.Read(ref s_enabled))
            return scope;
        SpanThread thread = SpanThread.Current;
        scope._span = this;
        scope._thread = thread;
        // Looked up (on a thread's first span of this span: created, with its histogram shards) before any counter is read,
        // so that one-time setup is never part of the span's own values.
        scope._writers = thread.WritersOf(this);
        // perf_event counters first and the TSC last, so the span's own reads are outside its time (and mirrored at exit).
        if (_plan is not null)
            EnterPerf(thread, ref scope);
        if (_countsAllocations)
            scope._allocatedStart = GC.GetAllocatedBytesForCurrentThread();
        if (_countsTsc)
            scope._tscStart = Tsc.ReadStart();
        return scope;
    }

    /// <inheritdoc/>
    public override string ToString() => Name;

    /// <summary>Writes this span's <c>SpanDefined</c> event (its value slots' counters and units).</summary>
    internal void WriteDefinition() => PerfSpanEventSource.Log.SpanDefined(
        Id,
        Name,
        string.Join(",", RecordedCounters.Select(static c => c.Name)),
        string.Join(",", RecordedCounters.Select(static c => c.Unit)),
        SecondsPerTick > 0 ? (long)Math.Round(1 / SecondsPerTick) : 0);

    /// <summary>The exit half of a scope: reads, then records (all counters or none) and exports.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // never tiered: see PerfSpanScope.Dispose
    internal void Exit(ref PerfSpanScope scope)
    {
        ulong tscEnd = _countsTsc ? Tsc.ReadStart() : 0;
        long allocatedEnd = _countsAllocations ? GC.GetAllocatedBytesForCurrentThread() : 0;
        SpanThread? thread = SpanThread.CurrentOrNull;
        if (!ReferenceEquals(thread, scope._thread))
        {
            Hopped();
            return;
        }

        ulong elapsed = tscEnd - scope._tscStart;
        ulong allocated = (ulong)(allocatedEnd - scope._allocatedStart);
        // A TSC that went backwards (cores whose TSCs a VM does not keep in step) would wrap to centuries: not recorded.
        bool timeValid = tscEnd >= scope._tscStart;
        if (_plan is not null)
        {
            ExitPerf(thread!, ref scope, elapsed, allocated, timeValid);
            return;
        }

        if (!timeValid)
        {
            Interlocked.Increment(ref _uncounted);
            return;
        }

        HdrHistogramWriter[] writers = scope._writers!;
        int slot = 0;
        if (_countsTsc)
            writers[slot++].Record(elapsed);
        if (_countsAllocations)
            writers[slot].Record(allocated);
        if (PerfSpanEventSource.Log.SpansEnabled || AnyInstrumentEnabled())
            ExportRuntimeValues(elapsed, allocated);
    }

    private static bool EnabledByEnvironment(string? value) =>
        value is null
        || !(value.Trim() is "0"
            || value.Trim().Equals("off", StringComparison.OrdinalIgnoreCase)
            || value.Trim().Equals("false", StringComparison.OrdinalIgnoreCase));

    private bool AnyInstrumentEnabled()
    {
        foreach (SpanInstrument instrument in _instruments)
        {
            if (instrument.Enabled)
                return true;
        }

        return false;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void EnterPerf(SpanThread thread, ref PerfSpanScope scope)
    {
        PerfEventCounterSession? session = thread.SessionOf(_plan!);
        if (session is null)
            return;
        try
        {
            if (!session.TryReadForSpan())
                return; // counted at exit as an uncounted span
        }
        catch (InvalidOperationException)
        {
            return;
        }

        // The raw values (count, enabled, running per event), so that exit can scale the span's own interval.
        scope._perfFrame = thread.PushPerf(session.CurrentValues, out scope._perfStamp);
    }

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)] // its reads end the span: never tiered
    private void ExitPerf(SpanThread thread, ref PerfSpanScope scope, ulong elapsed, ulong allocated, bool timeValid)
    {
        SpanPerfPlan plan = _plan!;
        PerfEventCounterSession? session = scope._perfStamp != 0 ? thread.SessionOf(plan) : null;
        bool read = false;
        if (session is not null)
        {
            try
            {
                read = session.TryReadForSpan();
            }
            catch (InvalidOperationException)
            {
                // The session is gone: nothing of this span is recorded.
            }
        }

        ReadOnlySpan<Interop.PerfEventValue> start = default;
        bool intact = scope._perfStamp != 0
            && thread.TryPopPerf(scope._perfFrame, scope._perfStamp, session?.CurrentValues.Length ?? 0, out start);
        Span<ulong> values = stackalloc ulong[PerfSpanEventSource.ValueSlots];
        int slot = 0;
        if (_countsTsc)
            values[slot++] = elapsed;
        if (_countsAllocations)
            values[slot++] = allocated;
        int[] recorded = plan.RecordedDescriptors;
        // All counters or none: a counter that did not run in the span (multiplexed out), went backwards, or a group that
        // could not be read makes the whole span uncounted rather than a zero or a wrapped difference.
        bool counted = read && intact && timeValid;
        for (int p = 0; counted && p < recorded.Length; p++)
            counted = session!.TryMeasureSince(recorded[p], start, out values[slot++]);
        if (!counted)
        {
            Interlocked.Increment(ref _uncounted);
            return;
        }

        HdrHistogramWriter[] writers = scope._writers!;
        for (int i = 0; i < slot; i++)
            writers[i].Record(values[i]);

        ulong ipc = 0;
        bool hasIpc = Ipc is not null && values[_cyclesSlot] > 0;
        if (hasIpc)
        {
            ipc = values[_instructionsSlot] * IpcScale / values[_cyclesSlot];
            writers[slot].Record(ipc);
        }

        if (PerfSpanEventSource.Log.SpansEnabled || AnyInstrumentEnabled() || (_ipcInstrument?.Enabled ?? false))
            Export(values[..slot], hasIpc, ipc);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ExportRuntimeValues(ulong elapsed, ulong allocated)
    {
        Span<ulong> values = stackalloc ulong[2];
        int slot = 0;
        if (_countsTsc)
            values[slot++] = elapsed;
        if (_countsAllocations)
            values[slot++] = allocated;
        Export(values[..slot], false, 0);
    }

    private void Export(ReadOnlySpan<ulong> values, bool hasIpc, ulong ipc)
    {
        for (int i = 0; i < values.Length; i++)
        {
            if (_instruments[i].Enabled)
                _instruments[i].Record(values[i], _tag);
        }

        if (hasIpc && _ipcInstrument!.Enabled)
            _ipcInstrument.Record(ipc, _tag);
        if (PerfSpanEventSource.Log.SpansEnabled)
            PerfSpanEventSource.Log.WriteSpanEnded(Id, Name, values);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Hopped()
    {
        Interlocked.Increment(ref _hops);
        if (PerfSpanMeter.Hops.Enabled)
            PerfSpanMeter.Hops.Add(1, _tag);
        if (PerfSpanEventSource.Log.SpansEnabled)
            PerfSpanEventSource.Log.SpanHopped(Id, Name);
    }
}
