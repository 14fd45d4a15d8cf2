using System.Collections.Immutable;
using System.Globalization;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.PerfEvents;
using Picollo.Simulation;

namespace Picollo.Cli;

/// <summary>
/// What <c>picollo doctor</c> reports, gathered with the library's own probes: the machine fingerprint (the baseline key),
/// perf_event's availability, the PMU, the TSC, the container and seccomp state, and every counter opened the way a
/// measurement opens it.
/// </summary>
internal sealed record DoctorReport
{
    /// <summary>The baseline key: the id of this machine's entry in every baseline file.</summary>
    public required string BaselineKey { get; init; }

    /// <summary>What the key is made of.</summary>
    public required IReadOnlyDictionary<string, string> Fingerprint { get; init; }

    /// <summary>perf_event's level: None, SoftwareOnly or Full.</summary>
    public required string PerfEvents { get; init; }

    /// <summary><c>/proc/sys/kernel/perf_event_paranoid</c>; null where it cannot be read.</summary>
    public int? PerfEventParanoid { get; init; }

    /// <summary>Whether this process has CAP_PERFMON or CAP_SYS_ADMIN (or is root).</summary>
    public bool Privileged { get; init; }

    /// <summary>The PMUs in <c>/sys/bus/event_source/devices</c>.</summary>
    public required IReadOnlyList<string> Pmus { get; init; }

    /// <summary>Whether a CPU PMU is exposed (bare metal, or a VM with a virtual PMU).</summary>
    public bool HasCpuPmu { get; init; }

    /// <summary>The CPU PMU's fixed counters, when known.</summary>
    public uint? FixedCounters { get; init; }

    /// <summary>The CPU PMU's programmable counters, when known.</summary>
    public uint? ProgrammableCounters { get; init; }

    /// <summary>Why hardware events do not open; null when they do.</summary>
    public string? HardwareUnavailableReason { get; init; }

    /// <summary>Why software events do not open; null when they do.</summary>
    public string? SoftwareUnavailableReason { get; init; }

    /// <summary>The container this process runs in, and how that was seen; null when none was seen.</summary>
    public string? Container { get; init; }

    /// <summary>The process's seccomp mode from <c>/proc/self/status</c> (disabled, strict, filter); null where unknown.</summary>
    public string? Seccomp { get; init; }

    /// <summary>Whether the TSC can be read (the native helper loaded, an x86-64 CPU).</summary>
    public bool TscSupported { get; init; }

    /// <summary>Why the TSC cannot be read; null when it can.</summary>
    public string? TscUnsupportedReason { get; init; }

    /// <summary>Whether the CPU reports an invariant TSC.</summary>
    public bool TscInvariant { get; init; }

    /// <summary>The TSC's frequency in hertz; null when unknown.</summary>
    public double? TscHertz { get; init; }

    /// <summary>How the frequency was found.</summary>
    public string? TscFrequencySource { get; init; }

    /// <summary>The frequency's uncertainty in parts per million, when measured.</summary>
    public double? TscUncertaintyPpm { get; init; }

    /// <summary>Whether hardware counters are usable here (the exit code says the same).</summary>
    public bool HardwareCountersUsable { get; init; }

    /// <summary>The default set and the generic perf names, each opened as a measurement opens it, then the simulated counters.</summary>
    public required IReadOnlyList<CounterStatus> Counters { get; init; }

    /// <summary>Whether simulated counters count here: Valgrind, and Valgrind running .NET.</summary>
    public required SimulationStatus Simulation { get; init; }

    /// <summary>Gathers the report on the calling thread (perf events are opened for it, then closed).</summary>
    public static DoctorReport Gather()
    {
        MachineFingerprint machine = MachineFingerprint.Current;
        PerfEventAvailability perf = PerfEventAvailability.Current;
        bool counted = PerfPmu.TryGetNumberOfCounters(out uint fixedCounters, out uint programmable);
        TscFrequency? frequency = Tsc.IsSupported ? TryFrequency() : null;
        SimulationStatus simulation = ProbeSimulation();
        return new DoctorReport
        {
            BaselineKey = machine.Id,
            Fingerprint = new Dictionary<string, string>
            {
                ["cpu"] = machine.CpuModel,
                ["architecture"] = machine.Architecture,
                ["logicalCores"] = machine.LogicalCores.ToString(CultureInfo.InvariantCulture),
                ["tscMHz"] = machine.TscMegahertz?.ToString(CultureInfo.InvariantCulture) ?? "unknown",
                ["pmu"] = machine.HasPmu ? "yes" : "no",
                ["os"] = machine.OperatingSystem,
                ["kernel"] = machine.KernelVersion,
                ["runtime"] = machine.RuntimeVersion,
                ["gc"] = machine.GCMode,
                ["isa"] = string.Join(' ', machine.IsaExtensions),
            },
            PerfEvents = perf.Level.ToString(),
            PerfEventParanoid = perf.ParanoidLevel,
            Privileged = perf.IsPrivileged,
            Pmus = perf.PmuNames,
            HasCpuPmu = perf.HasCpuPmu,
            FixedCounters = counted ? fixedCounters : null,
            ProgrammableCounters = counted ? programmable : null,
            HardwareUnavailableReason = perf.HardwareUnavailableReason,
            SoftwareUnavailableReason = perf.SoftwareUnavailableReason,
            Container = DetectContainer(),
            Seccomp = ReadSeccomp(),
            TscSupported = Tsc.IsSupported,
            TscUnsupportedReason = Tsc.UnsupportedReason,
            TscInvariant = Tsc.IsSupported && Tsc.IsInvariant,
            TscHertz = frequency?.Hertz,
            TscFrequencySource = frequency?.Source.ToString(),
            TscUncertaintyPpm = frequency?.UncertaintyPpm,
            HardwareCountersUsable = perf.IsHardwareAvailable,
            Counters = [.. ProbeCounters(), .. KnownCounters.SimulatedSet.Select(
                name => new CounterStatus(name, "simulated", false, simulation.Counts, simulation.Reason))],
            Simulation = simulation,
        };
    }

    // Valgrind found, then a small .NET program (this tool, SimulationProbeCommand) run under callgrind as a worker runs.
    private static SimulationStatus ProbeSimulation()
    {
        ValgrindInstallation valgrind = ValgrindInstallation.Current;
        if (valgrind.UnavailableReason is { } missing)
            return new SimulationStatus(valgrind.Path, valgrind.Version?.ToString(), false, null, missing);

        (string program, string[] arguments) = SimulationProbeCommand.ThisTool();
        TimeSpan timeout = TimeSpan.FromMinutes(2);
        (TimeSpan took, string? problem) = SimulationProbe.Run(valgrind, program, arguments, timeout);
        double seconds = Math.Round(took.TotalSeconds, 1);
        return new SimulationStatus(valgrind.Path, valgrind.Version?.ToString(), problem is null, seconds, problem);
    }

    // The default set first, then both time counters (the one the default set leaves out too) and the generic perf names it
    // leaves out; each opened alone, as a measurement would open it.
    private static List<CounterStatus> ProbeCounters()
    {
        ImmutableArray<string> defaults = PerfOptions.DefaultCounters;
        var statuses = new List<CounterStatus>();
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (string name in defaults.Concat([CounterNames.Tsc, CounterNames.Clock]).Concat(PerfEventCatalog.GenericNames))
        {
            string canonical;
            try
            {
                canonical = CounterPlan.CanonicalName(name);
            }
            catch (ArgumentException e)
            {
                statuses.Add(new CounterStatus(name, "perf", false, false, e.Message));
                continue;
            }

            if (!seen.Add(canonical))
                continue;
            bool inDefault = defaults.Contains(name, StringComparer.OrdinalIgnoreCase);
            try
            {
                using CounterPlan plan = CounterPlan.Open([name]);
                CounterDescriptor descriptor = plan.Descriptors[0];
                statuses.Add(new CounterStatus(
                    descriptor.Name, Kind(descriptor.Kind), inDefault, plan.Slots[0] >= 0, descriptor.UnavailableReason));
            }
            catch (ArgumentException e)
            {
                statuses.Add(new CounterStatus(canonical, "perf", inDefault, false, e.Message));
            }
        }

        return statuses;
    }

    private static string Kind(CounterKind kind) => kind switch
    {
        CounterKind.Tsc => "tsc",
        CounterKind.Clock => "clock",
        CounterKind.Runtime => "runtime",
        CounterKind.Software => "software",
        _ => "hardware",
    };

    private static TscFrequency? TryFrequency()
    {
        try
        {
            return Tsc.Frequency;
        }
        catch (InvalidOperationException)
        {
            return null;
        }
    }

    private static string? DetectContainer()
    {
        if (!OperatingSystem.IsLinux())
            return null;
        if (File.Exists("/.dockerenv"))
            return "docker (/.dockerenv)";
        if (File.Exists("/run/.containerenv"))
            return "podman (/run/.containerenv)";
        try
        {
            string cgroup = File.ReadAllText("/proc/1/cgroup");
            foreach (string marker in new[] { "docker", "kubepods", "containerd", "lxc" })
            {
                if (cgroup.Contains(marker, StringComparison.Ordinal))
                    return $"{marker} (/proc/1/cgroup)";
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return null;
    }

    private static string? ReadSeccomp()
    {
        if (!OperatingSystem.IsLinux())
            return null;
        try
        {
            foreach (string line in File.ReadLines("/proc/self/status"))
            {
                if (!line.StartsWith("Seccomp:", StringComparison.Ordinal))
                    continue;
                return line["Seccomp:".Length..].Trim() switch
                {
                    "0" => "disabled",
                    "1" => "strict",
                    "2" => "filter (a container runtime's syscall filter: perf_event_open may be refused)",
                    string other => other,
                };
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return null;
    }
}
