using System.Globalization;
using System.Runtime;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Simulated;
using Picollo.PerfEvents;

namespace Picollo.Baselines.Records;

/// <summary>
/// What a baseline entry was recorded on: the facts that decide whether a counter measured on one machine can be
/// compared with the same counter measured on another (see <see cref="BaselinePortability"/>).
/// </summary>
/// <remarks>
/// Two fingerprints are the same machine when their <see cref="Id"/>s are equal; the id covers every field, so a
/// kernel or runtime patch update starts a new entry in the baseline file while the portability rules still let
/// the old entry serve as the reference until it is updated.
/// </remarks>
internal sealed class MachineFingerprint
{
    private static readonly Lazy<MachineFingerprint> s_current = new(Capture);

    /// <summary>Creates a fingerprint from known facts (tests, tools, or a fingerprint read from a baseline file).</summary>
    /// <param name="cpuModel">The CPU model name, e.g. <c>AMD EPYC 7763 64-Core Processor</c>.</param>
    /// <param name="architecture">The process architecture, e.g. <c>X64</c>.</param>
    /// <param name="isaExtensions">The instruction-set extensions the runtime may use; order and duplicates do not matter.</param>
    /// <param name="hasPmu">Whether a CPU performance-monitoring unit is present.</param>
    /// <param name="logicalCores">The number of logical cores.</param>
    /// <param name="operatingSystem">The OS family, e.g. <c>Linux</c>.</param>
    /// <param name="kernelVersion">The kernel version, e.g. <c>6.18.0</c>.</param>
    /// <param name="runtimeVersion">The .NET runtime version, e.g. <c>10.0.1</c>.</param>
    /// <param name="isServerGC">Whether the server GC runs.</param>
    /// <param name="isConcurrentGC">Whether background (concurrent) GC is on.</param>
    /// <param name="tscMegahertz">The TSC rate rounded to 10 MHz, or <see langword="null"/> when unknown (no TSC here,
    /// or an entry written before it was recorded).</param>
    /// <param name="clockHertz">The rate of the runtime's clock (<c>Stopwatch.Frequency</c>) where the TSC rate is unknown,
    /// else <see langword="null"/>.</param>
    public MachineFingerprint(
        string cpuModel,
        string architecture,
        IEnumerable<string> isaExtensions,
        bool hasPmu,
        int logicalCores,
        string operatingSystem,
        string kernelVersion,
        string runtimeVersion,
        bool isServerGC,
        bool isConcurrentGC,
        int? tscMegahertz = null,
        long? clockHertz = null)
    {
        ArgumentNullException.ThrowIfNull(cpuModel);
        ArgumentNullException.ThrowIfNull(architecture);
        ArgumentNullException.ThrowIfNull(isaExtensions);
        ArgumentNullException.ThrowIfNull(operatingSystem);
        ArgumentNullException.ThrowIfNull(kernelVersion);
        ArgumentNullException.ThrowIfNull(runtimeVersion);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(logicalCores);
        CpuModel = cpuModel.Trim();
        Architecture = architecture;
        IsaExtensions = [.. isaExtensions.Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];
        HasPmu = hasPmu;
        LogicalCores = logicalCores;
        OperatingSystem = operatingSystem;
        KernelVersion = kernelVersion;
        RuntimeVersion = runtimeVersion;
        IsServerGC = isServerGC;
        IsConcurrentGC = isConcurrentGC;
        TscMegahertz = tscMegahertz;
        ClockHertz = clockHertz;
        Id = ComputeId();
    }

    /// <summary>This process's machine, captured once.</summary>
    public static MachineFingerprint Current => s_current.Value;

    /// <summary>How the CPU model of a simulated machine starts (<see cref="ForSimulator"/>).</summary>
    public const string SimulatedPrefix = "simulated: ";

    /// <summary>
    /// The machine simulated counters were counted on (docs/COUNTERS.md, "Simulated counters"): the simulator as its CPU
    /// model, the architecture and instruction set the runtime saw under it, the runtime and GC mode; the host's cores,
    /// kernel and clock play no part (one simulated core, kernel <c>any</c>), so every host with the same simulator and
    /// runtime has the same entry.
    /// </summary>
    /// <param name="simulator">What the counts depend on.</param>
    /// <returns>The fingerprint.</returns>
    public static MachineFingerprint ForSimulator(SimulatorInfo simulator)
    {
        ArgumentNullException.ThrowIfNull(simulator);
        return new MachineFingerprint(
            SimulatedPrefix + simulator.Tool,
            simulator.Architecture,
            simulator.IsaExtensions,
            hasPmu: false,
            logicalCores: 1,
            "Linux",
            "any",
            simulator.RuntimeVersion,
            simulator.IsServerGC,
            simulator.IsConcurrentGC);
    }

    /// <summary>Whether this is a simulated machine's (<see cref="ForSimulator"/>), whose entry holds simulated counters.</summary>
    public bool IsSimulated => CpuModel.StartsWith(SimulatedPrefix, StringComparison.Ordinal);

    /// <summary>The CPU model name (<c>/proc/cpuinfo</c> "model name", else the CPUID brand string).</summary>
    public string CpuModel { get; }

    /// <summary>The process architecture (<see cref="RuntimeInformation.ProcessArchitecture"/>), e.g. <c>X64</c>, <c>Arm64</c>.</summary>
    public string Architecture { get; }

    /// <summary>The instruction-set extensions the JIT may use (e.g. <c>avx2</c>, <c>bmi2</c>), sorted ordinally.</summary>
    public IReadOnlyList<string> IsaExtensions { get; }

    /// <summary>Whether a CPU PMU is present (hardware counters can count).</summary>
    public bool HasPmu { get; }

    /// <summary>The number of logical cores.</summary>
    public int LogicalCores { get; }

    /// <summary>The OS family: <c>Linux</c>, <c>Windows</c>, <c>macOS</c>, <c>FreeBSD</c> or <c>Other</c>.</summary>
    public string OperatingSystem { get; }

    /// <summary>The kernel version (Linux: <c>/proc/sys/kernel/osrelease</c>).</summary>
    public string KernelVersion { get; }

    /// <summary>The .NET runtime version (<see cref="Environment.Version"/>).</summary>
    public string RuntimeVersion { get; }

    /// <summary>The runtime's major.minor (e.g. <c>10.0</c>): the part of <see cref="RuntimeVersion"/> that portability compares.</summary>
    public string RuntimeMajorMinor => Version.TryParse(RuntimeVersion, out Version? v)
        ? string.Create(CultureInfo.InvariantCulture, $"{v.Major}.{v.Minor}")
        : RuntimeVersion;

    /// <summary>Whether the server GC runs.</summary>
    public bool IsServerGC { get; }

    /// <summary>Whether background (concurrent) GC is on.</summary>
    public bool IsConcurrentGC { get; }

    /// <summary>
    /// The TSC rate rounded to 10 MHz; <see langword="null"/> when unknown. Cloud VMs report one CPU model name for hosts
    /// that run at different clocks (the same "AMD EPYC" guest measured a 2,596 MHz TSC on one host and 2,096 MHz on
    /// another): time and cycles compare only between machines with the same rate.
    /// </summary>
    public int? TscMegahertz { get; }

    /// <summary>
    /// The rate of the runtime's clock (<c>Stopwatch.Frequency</c>: usually 10 MHz on Windows, 1 GHz on Linux and macOS) on a
    /// machine without a TSC rate, where the portable <c>clock</c> measures time; <see langword="null"/> where the TSC rate
    /// keys the machine's time (so entries recorded there keep their id). The <c>clock</c> counter compares only between
    /// machines with the same OS and the same rate (<see cref="Counters.CounterPortability.SameClock"/>).
    /// </summary>
    public long? ClockHertz { get; }

    /// <summary>
    /// A stable id: a readable prefix (CPU model, architecture, runtime) and 8 hex digits of the SHA-256 of every
    /// field, e.g. <c>amd-epyc-7763-64-core-processor.x64.net10.0.1.3fa2b1c0</c>. The key of the machine's entry in a baseline file.
    /// </summary>
    public string Id { get; }

    /// <summary>The GC mode in words, e.g. <c>workstation, non-concurrent</c>.</summary>
    public string GCMode => (IsServerGC ? "server" : "workstation") + (IsConcurrentGC ? ", concurrent" : ", non-concurrent");

    /// <inheritdoc/>
    public override string ToString() => IsSimulated
        ? $"{CpuModel} ({Architecture}: {string.Join(' ', IsaExtensions)}), .NET {RuntimeVersion}, GC {GCMode}"
        : string.Create(
        CultureInfo.InvariantCulture,
        $"{CpuModel} ({Architecture}, {LogicalCores} logical cores, PMU {(HasPmu ? "present" : "absent")}"
        + $"{(TscMegahertz is { } mhz ? ", TSC " + mhz.ToString("N0", CultureInfo.InvariantCulture) + " MHz" : string.Empty)}"
        + $"{(ClockHertz is { } hz ? ", clock " + hz.ToString("N0", CultureInfo.InvariantCulture) + " Hz" : string.Empty)}), "
        + $"{OperatingSystem} {KernelVersion}, .NET {RuntimeVersion}, "
        + $"GC {GCMode}");

    private string ComputeId()
    {
        // Every field takes part, each on its own line, so no two different machines can produce the same text.
        string canonical = string.Join(
            '\n',
            "cpu=" + CpuModel,
            "arch=" + Architecture,
            "isa=" + string.Join(',', IsaExtensions),
            "pmu=" + (HasPmu ? "1" : "0"),
            "cores=" + LogicalCores.ToString(CultureInfo.InvariantCulture),
            "os=" + OperatingSystem,
            "kernel=" + KernelVersion,
            "runtime=" + RuntimeVersion,
            "gc=" + GCMode)

            // Only when known: an entry recorded before the rate was part of the fingerprint keeps its id.
            + (TscMegahertz is { } mhz ? "\ntsc=" + mhz.ToString(CultureInfo.InvariantCulture) : string.Empty)

            // Only on a machine without a TSC rate: there the clock's rate keys its time instead.
            + (ClockHertz is { } hz ? "\nclock=" + hz.ToString(CultureInfo.InvariantCulture) : string.Empty);
        byte[] hash = SHA256.HashData(Encoding.UTF8.GetBytes(canonical));
        string hex = Convert.ToHexStringLower(hash, 0, 4);
        return $"{Slug(CpuModel)}.{Slug(Architecture)}.net{RuntimeVersion}.{hex}";
    }

    // Lower-case letters and digits, other runs collapsed to one '-': the id stays a readable, shell- and JSON-safe key.
    private static string Slug(string text)
    {
        var builder = new StringBuilder(text.Length);
        foreach (char c in text)
        {
            if (char.IsAsciiLetterOrDigit(c))
                builder.Append(char.ToLowerInvariant(c));
            else if (builder.Length > 0 && builder[^1] != '-')
                builder.Append('-');
        }

        string slug = builder.ToString().TrimEnd('-');
        return slug.Length == 0 ? "unknown" : slug[..Math.Min(slug.Length, 48)].TrimEnd('-');
    }

    private static MachineFingerprint Capture() => new(
        CpuModelName.Read(),
        RuntimeInformation.ProcessArchitecture.ToString(),
        InstructionSets.Current,
        PerfPmu.HasCpuPmu,
        Environment.ProcessorCount,
        OperatingSystemName(),
        ReadKernelVersion(),
        Environment.Version.ToString(),
        GCSettings.IsServerGC,
        RuntimeCounterSource.IsBackgroundGCEnabled,
        Tsc.IsSupported ? (int)Math.Round(Tsc.Frequency.Hertz / 1e7) * 10 : null,
        Tsc.IsSupported ? null : PortableClock.Frequency);

    private static string OperatingSystemName() =>
        System.OperatingSystem.IsLinux() ? "Linux"
        : System.OperatingSystem.IsWindows() ? "Windows"
        : System.OperatingSystem.IsMacOS() ? "macOS"
        : System.OperatingSystem.IsFreeBSD() ? "FreeBSD"
        : "Other";

    private static string ReadKernelVersion()
    {
        const string OsRelease = "/proc/sys/kernel/osrelease";
        return File.Exists(OsRelease)
            ? File.ReadAllText(OsRelease).Trim()
            : Environment.OSVersion.Version.ToString();
    }
}
