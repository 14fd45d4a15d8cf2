using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Runtime.Intrinsics.X86;

namespace Picollo.PerfEvents;

/// <summary>
/// A performance monitoring unit the kernel publishes in <c>/sys/bus/event_source/devices</c>: its name, its dynamic
/// <c>perf_event_attr.type</c>, its format fields and its named events. Also answers the machine-wide questions
/// "is there a CPU PMU at all?" and "how many counters does a core have?".
/// </summary>
public sealed class PerfPmu
{
    private static readonly Lazy<IReadOnlyList<PerfPmu>> s_all = new(() => Discover(PerfSysfs.Default));

    // CPUID is a VM exit (≈5 µs in a guest, docs/ARCHITECTURE.md "Platform facts"): ask once per process.
    private static readonly Lazy<(bool Known, uint Fixed, uint Programmable)> s_counters = new(static () =>
    {
        bool known = TryGetNumberOfCounters(HasCpuPmu, X86Base.IsSupported ? ReadCpuId : null, out uint f, out uint p);
        return (known, f, p);
    });

    private readonly PerfSysfs _sysfs;
    private readonly Lazy<IReadOnlyDictionary<string, PerfFormatField>> _formats;
    private readonly Lazy<IReadOnlyList<string>> _eventNames;

    internal PerfPmu(PerfSysfs sysfs, string name, uint type)
    {
        _sysfs = sysfs;
        Name = name;
        Type = type;
        _formats = new(LoadFormats);
        _eventNames = new(LoadEventNames);
    }

    /// <summary>The sysfs name (<c>cpu</c>, <c>cpu_core</c>, <c>software</c>, <c>msr</c>, …).</summary>
    public string Name { get; }

    /// <summary>The <c>perf_event_attr.type</c> to open this PMU's events with (from <c>&lt;pmu&gt;/type</c>).</summary>
    public uint Type { get; }

    /// <summary>Whether this is a CPU core PMU (the one counting cycles and instructions of a thread).</summary>
    public bool IsCpu => IsCpuPmuName(Name);

    /// <summary>
    /// The names of its sysfs events (<c>&lt;pmu&gt;/events/*</c> without the <c>.scale</c>/<c>.unit</c> companions), sorted.
    /// </summary>
    public IReadOnlyList<string> EventNames => _eventNames.Value;

    /// <summary>The names of its format fields (<c>&lt;pmu&gt;/format/*</c>, e.g. <c>event</c>, <c>umask</c>), sorted.</summary>
    public IReadOnlyList<string> FormatNames => [.. _formats.Value.Keys.Order(StringComparer.Ordinal)];

    /// <summary>The PMUs of this machine, sorted by name; empty where sysfs has none (non-Linux).</summary>
    public static IReadOnlyList<PerfPmu> All => s_all.Value;

    /// <summary>
    /// Whether this machine exposes a CPU PMU (<c>cpu</c>, the hybrid <c>cpu_core</c>/<c>cpu_atom</c>, an Arm PMUv3, …).
    /// <see langword="false"/> in most VMs without a virtual PMU and on cloud CI runners: hardware events cannot open there.
    /// </summary>
    public static bool HasCpuPmu => HasCpuPmuIn(All);

    /// <inheritdoc/>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Name} (type {Type})");

    /// <summary>
    /// The number of hardware counters of one logical core: fixed-function counters (Intel: cycles, instructions,
    /// ref-cycles, …) and programmable ones. Intel: CPUID leaf 0xA. AMD: CPUID 0x80000022 with PerfMonV2, else 6 with
    /// the core performance counter extension, else 4. Computed once per process.
    /// </summary>
    /// <param name="fixedCounters">The fixed-function counters, 0 when unknown.</param>
    /// <param name="programmableCounters">The general-purpose counters, 0 when unknown.</param>
    /// <returns>
    /// <see langword="false"/> (and 0/0) when there is no CPU PMU (a VM's CPUID may still advertise counters the
    /// hypervisor does not virtualize) or the CPU is neither Intel nor AMD x86.
    /// </returns>
    public static bool TryGetNumberOfCounters(out uint fixedCounters, out uint programmableCounters)
    {
        (bool known, fixedCounters, programmableCounters) = s_counters.Value;
        return known;
    }

    /// <summary>Finds a PMU by name, ignoring case.</summary>
    /// <param name="name">The sysfs name.</param>
    /// <param name="pmu">The PMU when found.</param>
    /// <returns>Whether it exists on this machine.</returns>
    public static bool TryFind(string name, [NotNullWhen(true)] out PerfPmu? pmu) => TryFind(All, name, out pmu);

    internal IReadOnlyDictionary<string, PerfFormatField> Formats => _formats.Value;

    internal static bool TryFind(IReadOnlyList<PerfPmu> pmus, string name, [NotNullWhen(true)] out PerfPmu? pmu)
    {
        pmu = pmus.FirstOrDefault(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase));
        return pmu is not null;
    }

    /// <summary>Lists the PMUs of a sysfs tree; folders without a readable numeric <c>type</c> are skipped.</summary>
    internal static IReadOnlyList<PerfPmu> Discover(PerfSysfs sysfs)
    {
        var pmus = new List<PerfPmu>();
        foreach (string name in sysfs.GetPmuNames())
        {
            if (uint.TryParse(sysfs.ReadText(name, "type"), NumberStyles.None, CultureInfo.InvariantCulture, out uint type))
                pmus.Add(new PerfPmu(sysfs, name, type));
        }

        return pmus;
    }

    internal static bool HasCpuPmuIn(IReadOnlyList<PerfPmu> pmus) => pmus.Any(static p => p.IsCpu);

    /// <summary>The hybrid core PMUs (Intel Alder Lake and later): a generic hardware event opens once on each.</summary>
    internal static IReadOnlyList<PerfPmu> HybridCorePmus(IReadOnlyList<PerfPmu> pmus) =>
        pmus.Any(static p => p.Name == "cpu") ? [] : [.. pmus.Where(static p => IsHybridCorePmuName(p.Name))];

    internal static bool IsHybridCorePmuName(string name) => name is "cpu_core" or "cpu_atom" or "cpu_lowpower";

    internal static bool IsCpuPmuName(string name) =>
        name == "cpu"
        || IsHybridCorePmuName(name)
        || name.StartsWith("armv8_", StringComparison.Ordinal)
        || name.StartsWith("armv7_", StringComparison.Ordinal)
        || name.StartsWith("riscv_pmu", StringComparison.Ordinal);

    /// <summary>Looks up a sysfs event alias, ignoring case, with its <c>.scale</c> and <c>.unit</c>.</summary>
    internal bool TryGetEvent(string name, [NotNullWhen(true)] out PerfPmuEvent? alias)
    {
        alias = null;
        string? fileName = EventNames.FirstOrDefault(n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase));
        if (fileName is null)
            return false;
        string? terms = _sysfs.ReadText(Name, "events/" + fileName);
        if (terms is null)
            return false;
        string? scaleText = _sysfs.ReadText(Name, "events/" + fileName + ".scale");
        double scale = double.TryParse(scaleText, NumberStyles.Float, CultureInfo.InvariantCulture, out double s)
            ? s
            : 1.0;
        string? unit = _sysfs.ReadText(Name, "events/" + fileName + ".unit");
        alias = new PerfPmuEvent(fileName, terms, scale, string.IsNullOrEmpty(unit) ? null : unit);
        return true;
    }

    /// <summary>
    /// Decodes the counter counts from CPUID. <paramref name="cpuId"/> is <see langword="null"/> on non-x86 machines.
    /// </summary>
    internal static bool TryGetNumberOfCounters(
        bool hasCpuPmu,
        Func<uint, (uint Eax, uint Ebx, uint Ecx, uint Edx)>? cpuId,
        out uint fixedCounters,
        out uint programmableCounters)
    {
        fixedCounters = programmableCounters = 0;
        if (!hasCpuPmu || cpuId is null)
            return false;

        (uint maxLeaf, uint ebx, uint ecx, uint edx) = cpuId(0);
        string vendor = Vendor(ebx, edx, ecx);
        if (vendor == "GenuineIntel")
        {
            if (maxLeaf < 0xA)
                return false;
            (uint eax, _, _, uint edx0A) = cpuId(0xA);
            uint version = eax & 0xFF;
            if (version == 0)
                return false;
            programmableCounters = (eax >> 8) & 0xFF;
            // EDX[4:0] (number of fixed counters) is only defined from architectural PerfMon version 2.
            fixedCounters = version > 1 ? edx0A & 0x1F : 0;
            return true;
        }

        if (vendor is "AuthenticAMD" or "HygonGenuine")
        {
            uint maxExtended = cpuId(0x8000_0000).Eax;
            if (maxExtended >= 0x8000_0022 && (cpuId(0x8000_0022).Eax & 1) != 0)
                programmableCounters = cpuId(0x8000_0022).Ebx & 0xF;
            else if (maxExtended >= 0x8000_0001 && (cpuId(0x8000_0001).Ecx & (1u << 23)) != 0)
                programmableCounters = 6;
            else
                programmableCounters = 4;
            return true;
        }

        return false;
    }

    private static string Vendor(uint ebx, uint edx, uint ecx)
    {
        Span<byte> bytes = stackalloc byte[12];
        BitConverter.TryWriteBytes(bytes, ebx);
        BitConverter.TryWriteBytes(bytes[4..], edx);
        BitConverter.TryWriteBytes(bytes[8..], ecx);
        return System.Text.Encoding.ASCII.GetString(bytes);
    }

    private static (uint Eax, uint Ebx, uint Ecx, uint Edx) ReadCpuId(uint leaf)
    {
        (int eax, int ebx, int ecx, int edx) = X86Base.CpuId((int)leaf, 0);
        return ((uint)eax, (uint)ebx, (uint)ecx, (uint)edx);
    }

    private Dictionary<string, PerfFormatField> LoadFormats()
    {
        var formats = new Dictionary<string, PerfFormatField>(StringComparer.OrdinalIgnoreCase);
        foreach (string field in _sysfs.GetFileNames(Name, "format"))
        {
            if (_sysfs.ReadText(Name, "format/" + field) is { } text && PerfFormatField.TryParse(field, text, out PerfFormatField? parsed))
                formats[field] = parsed;
        }

        return formats;
    }

    private IReadOnlyList<string> LoadEventNames() =>
        [.. _sysfs.GetFileNames(Name, "events").Where(static n =>
            !n.EndsWith(".scale", StringComparison.Ordinal)
            && !n.EndsWith(".unit", StringComparison.Ordinal)
            && !n.EndsWith(".per-pkg", StringComparison.Ordinal)
            && !n.EndsWith(".snapshot", StringComparison.Ordinal))];
}
