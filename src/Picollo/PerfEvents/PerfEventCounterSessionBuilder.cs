using System.Collections.Immutable;
using Picollo.Metrics;

namespace Picollo.PerfEvents;

/// <summary>
/// Immutable fluent options for a new <see cref="PerfEventCounterSession"/>; start from
/// <see cref="PerfEventCounterSession.Factory"/>. Each <c>With…</c> call returns a new builder.
/// </summary>
public readonly record struct PerfEventCounterSessionBuilder
{
    /// <summary>The defaults: the calling thread on any CPU, not pinned, user mode only, enabled at creation, no counter.</summary>
    public PerfEventCounterSessionBuilder()
    {
        Pid = 0;
        Cpu = -1;
        Enabled = true;
        Histogram = HdrHistogram.Factory;
        RequestList = [];
    }

    /// <summary>
    /// perf_event_open pid: 0 = the thread that calls <see cref="Create"/>, &gt; 0 = that thread/process, -1 = every thread (needs a
    /// <see cref="Cpu"/>).
    /// </summary>
    public int Pid { get; private init; }

    /// <summary>perf_event_open cpu: -1 = any CPU the target runs on, otherwise only while it runs on that CPU.</summary>
    public int Cpu { get; private init; }

    /// <summary>Whether the group is pinned: always on the PMU or, when it cannot be, in error state (reported, never zeros).</summary>
    public bool Pinned { get; private init; }

    /// <summary>Whether kernel-mode execution is counted (exclude_kernel = 0); needs perf_event_paranoid ≤ 1 or CAP_PERFMON.</summary>
    public bool IncludeKernel { get; private init; }

    /// <summary>Whether counting starts at creation; otherwise call <see cref="PerfEventCounterSession.Enable"/>.</summary>
    public bool Enabled { get; private init; }

    /// <summary>The options of every counter's histogram.</summary>
    public HdrHistogramBuilder Histogram { get; private init; }

    /// <summary>
    /// The requested events, in order (a counter requested twice is opened once). A counter may span several events,
    /// summed: on a hybrid CPU a generic hardware or cache event opens once per core PMU (<c>cpu_core/cycles/</c>,
    /// <c>cpu_atom/cycles/</c>).
    /// </summary>
    public ImmutableArray<PerfEventSpec> Events => [.. Requests.SelectMany(static r => r.Events)];

    /// <summary>The requested counters, in order, each with the events it sums.</summary>
    internal ImmutableArray<PerfEventCounterRequest> Requests => RequestList.IsDefault ? [] : RequestList;

    /// <summary>
    /// The catalog names and hybrid expansion resolve against; null for this machine's (<see cref="PerfEventCatalog.Default"/>).
    /// </summary>
    internal PerfEventCatalog? Catalog { get; private init; }

    private ImmutableArray<PerfEventCounterRequest> RequestList { get; init; }

    private PerfEventCatalog CatalogOrDefault => Catalog ?? PerfEventCatalog.Default;

    /// <summary>Sets what is measured (perf_event_open pid and cpu).</summary>
    /// <param name="pid">0 for the calling thread (default), a thread or process id, or -1 for all (with a cpu).</param>
    /// <param name="cpu">-1 for any CPU (default) or a CPU number.</param>
    /// <returns>A builder with the new target.</returns>
    /// <exception cref="ArgumentOutOfRangeException">
    /// A value below -1, or both -1 (the kernel rejects "every thread on every CPU").
    /// </exception>
    public PerfEventCounterSessionBuilder WithTarget(int pid, int cpu)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(pid, -1);
        ArgumentOutOfRangeException.ThrowIfLessThan(cpu, -1);
        if (pid == -1 && cpu == -1)
            throw new ArgumentOutOfRangeException(nameof(cpu), cpu, "pid -1 (every thread) needs a specific cpu.");
        return this with { Pid = pid, Cpu = cpu };
    }

    /// <summary>Pins the group: scheduled all or nothing, always on the PMU or in error state.</summary>
    /// <param name="pinned">Whether to pin.</param>
    /// <returns>A builder with the new option.</returns>
    public PerfEventCounterSessionBuilder WithPinned(bool pinned = true) => this with { Pinned = pinned };

    /// <summary>
    /// Counts kernel-mode execution too (<see langword="true"/>) or user mode only (<see langword="false"/>, the
    /// default). perf_event_paranoid ≥ 2 forbids kernel counting to unprivileged users; in user-only mode
    /// context-switches and cpu-migrations always read 0 (the kernel raises them from kernel code) and are reported unavailable.
    /// </summary>
    /// <param name="kernel">Whether to count kernel mode.</param>
    /// <returns>A builder with the new option.</returns>
    public PerfEventCounterSessionBuilder WithKernel(bool kernel) => this with { IncludeKernel = kernel };

    /// <summary>
    /// Starts counting at creation (default) or leaves the group disabled until <see cref="PerfEventCounterSession.Enable"/>.
    /// </summary>
    /// <param name="enabled">Whether counting starts at creation.</param>
    /// <returns>A builder with the new option.</returns>
    public PerfEventCounterSessionBuilder WithEnabled(bool enabled = true) => this with { Enabled = enabled };

    /// <summary>
    /// Adds cycles, instructions and ref-cycles: the events Intel CPUs count on fixed counters, leaving the programmable
    /// ones free. On a hybrid CPU each is one counter summing one event per core PMU.
    /// </summary>
    /// <returns>A builder with the three events.</returns>
    public PerfEventCounterSessionBuilder WithFixedCounters() => this
        .WithHardwareCounter(PerfHardwareCounterId.CpuCycles)
        .WithHardwareCounter(PerfHardwareCounterId.Instructions)
        .WithHardwareCounter(PerfHardwareCounterId.RefCpuCycles);

    /// <summary>
    /// Adds a generalized hardware event. On a hybrid CPU (<see cref="PerfEventCatalog.IsHybrid"/>) it is one counter
    /// summing one event per core PMU, as <c>perf stat -e cycles</c> opens <c>cpu_core/cycles/</c> and <c>cpu_atom/cycles/</c>.
    /// </summary>
    /// <param name="id">The event.</param>
    /// <returns>A builder with the event.</returns>
    public PerfEventCounterSessionBuilder WithHardwareCounter(PerfHardwareCounterId id) =>
        With(CatalogOrDefault.ForGeneric(PerfEventNames.Spec(id)));

    /// <summary>Adds a hardware cache event; on a hybrid CPU, one counter summing one event per core PMU.</summary>
    /// <param name="id">The event.</param>
    /// <returns>A builder with the event.</returns>
    public PerfEventCounterSessionBuilder WithCacheCounter(PerfCacheCounterId id) =>
        With(CatalogOrDefault.ForGeneric(PerfEventNames.Spec(id)));

    /// <summary>Adds a software event.</summary>
    /// <param name="id">The event.</param>
    /// <returns>A builder with the event.</returns>
    public PerfEventCounterSessionBuilder WithSoftwareCounter(PerfSoftwareCounterId id) => WithCounter(PerfEventNames.Spec(id));

    /// <summary>Adds any event as it is, e.g. one resolved from a name by the catalog (no hybrid expansion).</summary>
    /// <param name="spec">The event.</param>
    /// <returns>A builder with the event.</returns>
    public PerfEventCounterSessionBuilder WithCounter(PerfEventSpec spec)
    {
        ArgumentNullException.ThrowIfNull(spec);
        return With(PerfEventCounterRequest.Single(spec));
    }

    /// <summary>
    /// Adds a counter by name, spelled as <c>perf stat -e</c> accepts it (case-insensitive). A name that stands for
    /// several events (<see cref="PerfEventCatalog.Resolve"/>: a generic hardware or cache name on a hybrid CPU, one
    /// event per core PMU; a sysfs event name several PMUs publish) is one counter summing them.
    /// </summary>
    /// <param name="name">
    /// <c>cycles</c>, <c>branch-misses</c>, <c>L1-dcache-load-misses</c>, <c>task-clock</c>, <c>r01c2</c>,
    /// <c>cpu/event=0x3c,umask=0x00/</c>, or a sysfs event name such as <c>cycles-ct</c>.
    /// </param>
    /// <returns>A builder with the event added.</returns>
    /// <exception cref="PerfEventNameException">
    /// The name is unknown (the message lists the closest valid names) or malformed; or the events it stands for
    /// disagree on their sysfs scale or unit, so they cannot be summed.
    /// </exception>
    public PerfEventCounterSessionBuilder WithCounter(string name) => With(CatalogOrDefault.ResolveCounter(name));

    /// <summary>Sets the options of every counter's histogram.</summary>
    /// <param name="histogram">For example <c>HdrHistogram.Factory.WithRelativeError(0.01)</c>.</param>
    /// <returns>A builder with the new histogram options.</returns>
    public PerfEventCounterSessionBuilder WithHistogram(HdrHistogramBuilder histogram) => this with { Histogram = histogram };

    /// <summary>Resolves names and hybrid expansion against <paramref name="catalog"/> from now on (tests use fake sysfs trees).</summary>
    internal PerfEventCounterSessionBuilder WithCatalog(PerfEventCatalog catalog) => this with { Catalog = catalog };

    /// <summary>
    /// Opens the group (one per core PMU on a hybrid CPU). Never throws because of the machine: events it cannot open are left out of
    /// <see cref="PerfEventCounterSession.Counters"/> and listed in <see cref="PerfEventCounterSession.UnavailableCounters"/>
    /// with the reason; when none opens, every read reports <see cref="PerfEventReadStatus.NoCounters"/>.
    /// </summary>
    /// <returns>The session; dispose it.</returns>
    public PerfEventCounterSession Create() => PerfEventOpener.Open(this, LibcPerfEventSyscalls.Instance);

    /// <summary>Opens the group, or reports why not a single event could be opened.</summary>
    /// <param name="session">The session when at least one event opened (unavailable ones are still listed), else null.</param>
    /// <param name="error">Null on success; otherwise every event's reason, one per line.</param>
    /// <returns><see langword="true"/> when at least one event counts.</returns>
    public bool TryCreate([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out PerfEventCounterSession? session, out string? error)
    {
        PerfEventCounterSession created = Create();
        if (created.Counters.Count > 0)
        {
            session = created;
            error = null;
            return true;
        }

        error = created.UnavailableCounters.Count == 0
            ? "No event was requested."
            : string.Join(Environment.NewLine, created.UnavailableCounters.Select(d => d.UnavailableReason));
        created.Dispose();
        session = null;
        return false;
    }

    private PerfEventCounterSessionBuilder With(PerfEventCounterRequest request) => this with { RequestList = Requests.Add(request) };
}
