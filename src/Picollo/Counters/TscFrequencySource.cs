namespace Picollo.Counters;

/// <summary>How <see cref="Tsc.Frequency"/> was determined, tried in this order.</summary>
public enum TscFrequencySource
{
    /// <summary>
    /// CPUID leaf 0x15: the crystal clock (ECX, Hz) times the TSC/crystal ratio (EBX/EAX). Exact by
    /// construction, up to the crystal's own tolerance, which the CPU does not report.
    /// </summary>
    CpuidCrystalRatio,

    /// <summary>
    /// CPUID leaf 0x16 EAX: the processor base frequency in whole MHz. An approximation: it is the nominal
    /// (marketing) base frequency rounded to 1 MHz, which equals the TSC rate on most Intel cores but can
    /// differ from it by a few hundred ppm or more.
    /// </summary>
    CpuidBaseFrequency,

    /// <summary>
    /// The kernel's conversion from a perf_event mmap page (<c>time_mult</c>/<c>time_shift</c>, valid when
    /// <c>cap_user_time</c> is set): the kernel's own calibration. <see cref="Tsc.Frequency"/> opens one stand-alone
    /// event to read it; the owner of a perf session can build it from its own page with
    /// <see cref="TscFrequency.FromPerfTimeConversion"/>.
    /// </summary>
    PerfTimeConversion,

    /// <summary>
    /// Measured against <c>CLOCK_MONOTONIC_RAW</c> (not slewed by NTP) over about 20 ms, once per process, with
    /// the uncertainty reported in <see cref="TscFrequency.UncertaintyPpm"/>.
    /// </summary>
    CalibratedMonotonicRaw,
}
