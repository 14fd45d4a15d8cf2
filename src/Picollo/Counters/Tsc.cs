using System.Runtime.Intrinsics.X86;

namespace Picollo.Counters;

/// <summary>
/// The time-stamp counter: reads through libpicollo_native (.NET has no rdtsc intrinsic), invariant-TSC
/// detection, and the tick rate so ticks convert to nanoseconds.
/// </summary>
/// <remarks>
/// Everything is detected once per process. CPUID is a VM exit in a guest (microseconds), so it runs at type
/// initialization and never on a read. On a machine without the native library (another OS or architecture,
/// or a build that did not compile it) this type still loads: <see cref="IsSupported"/> is
/// <see langword="false"/> and <see cref="UnsupportedReason"/> says why.
/// </remarks>
public static class Tsc
{
    private const uint MaxExtendedLeafQuery = 0x8000_0000;
    private const uint ExtendedFeaturesLeaf = 0x8000_0001;
    private const uint InvariantTscLeaf = 0x8000_0007;
    private const int CrystalRatioLeaf = 0x15;
    private const int BaseFrequencyLeaf = 0x16;

    // Static readonly: once the type is initialized, tier-1 code folds these into constants, so the checks in
    // ReadStart/ReadEnd disappear from the compiled reader.
    private static readonly string? s_unsupportedReason = DetectUnsupportedReason();
    private static readonly bool s_isSupported = s_unsupportedReason is null;
    private static readonly int s_maxBasicLeaf = X86Base.IsSupported ? X86Base.CpuId(0, 0).Eax : 0;
    private static readonly int s_maxExtendedLeaf = X86Base.IsSupported ? X86Base.CpuId(unchecked((int)MaxExtendedLeafQuery), 0).Eax : 0;

    // CPUID.80000007H:EDX[8]: the TSC runs at a constant rate in all P-, C- and T-states (Intel SDM 19.17.1; AMD the same bit).
    private static readonly bool s_isInvariant =
        (uint)s_maxExtendedLeaf >= InvariantTscLeaf && (X86Base.CpuId(unchecked((int)InvariantTscLeaf), 0).Edx & (1 << 8)) != 0;

    // CPUID.80000001H:EDX[27]: rdtscp exists. Some hypervisors hide it; executing it anyway is #UD (SIGILL).
    private static readonly bool s_hasRdtscp =
        (uint)s_maxExtendedLeaf >= ExtendedFeaturesLeaf && (X86Base.CpuId(unchecked((int)ExtendedFeaturesLeaf), 0).Edx & (1 << 27)) != 0;

    private static readonly Lazy<TscFrequency> s_frequency = new(DetectFrequency, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>
    /// <see langword="true"/> when <see cref="ReadStart"/> and <see cref="ReadEnd"/> work: x86-64 Linux with libpicollo_native loaded.
    /// </summary>
    public static bool IsSupported => s_isSupported;

    /// <summary>Why the TSC cannot be read here and what to do about it; <see langword="null"/> when <see cref="IsSupported"/>.</summary>
    public static string? UnsupportedReason => s_unsupportedReason;

    /// <summary>
    /// <see langword="true"/> when CPUID reports an invariant TSC (constant rate in every power state), the condition
    /// for converting ticks to time. <see langword="false"/> on other architectures.
    /// </summary>
    public static bool IsInvariant => s_isInvariant;

    /// <summary>
    /// <see langword="true"/> when the CPU has <c>rdtscp</c>; without it <see cref="ReadEnd"/> falls back to
    /// <see cref="ReadStart"/>'s <c>lfence; rdtsc</c>.
    /// </summary>
    public static bool HasRdtscp => s_hasRdtscp;

    /// <summary>
    /// The tick rate, determined on first use: CPUID 0x15 (crystal × ratio) when it reports one, else CPUID 0x16
    /// (base MHz, an approximation), else the kernel's own conversion from a perf_event mmap page when its clock runs
    /// on the TSC, else a calibration against <c>CLOCK_MONOTONIC_RAW</c> that takes about 20 ms (never more than
    /// 50 ms) once per process.
    /// </summary>
    /// <exception cref="PlatformNotSupportedException">The TSC cannot be read here (<see cref="UnsupportedReason"/>).</exception>
    public static TscFrequency Frequency
    {
        get
        {
            if (!s_isSupported)
                ThrowNotSupported();
            return s_frequency.Value;
        }
    }

    /// <summary>
    /// Start-of-region timestamp, <c>lfence; rdtsc</c>: every earlier instruction has completed before the
    /// counter is read, so nothing of the region before it leaks past it.
    /// </summary>
    /// <returns>The time-stamp counter in ticks.</returns>
    /// <exception cref="PlatformNotSupportedException">The TSC cannot be read here (<see cref="UnsupportedReason"/>).</exception>
    public static ulong ReadStart()
    {
        if (!s_isSupported)
            ThrowNotSupported();
        return Interop.Tsc.ReadStart();
    }

    /// <summary>
    /// End-of-region timestamp, <c>rdtscp; lfence</c>: waits for every earlier instruction, and no later
    /// instruction starts before the read. This full ordering on both sides also makes it the right reader for
    /// a sample boundary, which ends one sample and starts the next.
    /// </summary>
    /// <returns>The time-stamp counter in ticks.</returns>
    /// <exception cref="PlatformNotSupportedException">The TSC cannot be read here (<see cref="UnsupportedReason"/>).</exception>
    public static ulong ReadEnd()
    {
        if (!s_isSupported)
            ThrowNotSupported();
        return s_hasRdtscp ? Interop.Tsc.ReadEnd() : Interop.Tsc.ReadStart();
    }

    // The OS, the architecture and libpicollo_native decide (TimePlatform); the loader explains a missing file (with the
    // command that builds it) and a wrong ABI version.
    private static string? DetectUnsupportedReason() => TimePlatform.Current.TscUnsupportedReason;

    private static TscFrequency DetectFrequency()
    {
        if (s_maxBasicLeaf >= CrystalRatioLeaf)
        {
            (int eax, int ebx, int ecx, _) = X86Base.CpuId(CrystalRatioLeaf, 0);
            if (TscFrequency.FromCpuidCrystalRatio(eax, ebx, ecx) is { } crystal)
                return crystal;
        }

        if (s_maxBasicLeaf >= BaseFrequencyLeaf
            && TscFrequency.FromCpuidBaseFrequency(X86Base.CpuId(BaseFrequencyLeaf, 0).Eax) is { } baseFrequency)
            return baseFrequency;

        // Next the kernel's own conversion, exact when its clock runs on the TSC (cap_user_time).
        if (PerfTimeConversion.TryReadFrequency() is { } perf)
            return perf;

        return TscCalibration.Calibrate();
    }

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowNotSupported() => throw new PlatformNotSupportedException(s_unsupportedReason);
}
