using System.Globalization;

namespace Picollo.Counters;

/// <summary>The rate of the time-stamp counter, and exact integer conversions between ticks and nanoseconds.</summary>
/// <remarks>
/// Conversions use the kernel's technique: a multiplier scaled by 2^32, a 64 × 64 → 128-bit product and a
/// shift, so they cost one multiplication and never overflow in the middle. They round down, and the
/// multiplier's own rounding adds a relative error below 0.01 ppm for rates from 100 MHz to 10 GHz, far below
/// the uncertainty of any frequency source.
/// </remarks>
public sealed class TscFrequency
{
    /// <summary>The lowest rate accepted: below 1 kHz a "TSC" is not a cycle-level clock.</summary>
    public const double MinHertz = 1e3;

    /// <summary>The highest rate accepted (100 GHz): keeps both scaled multipliers well inside 64 bits.</summary>
    public const double MaxHertz = 1e11;

    // Fixed point with 32 fraction bits: mult = round(rate · 2^32). Between 1 kHz and 100 GHz both multipliers
    // stay below 2^52 (exact in a double), and between 100 MHz and 10 GHz rounding either of them costs
    // less than 0.01 ppm, far below any frequency source's own error.
    private const int Shift = 32;
    private const double Scale = 4_294_967_296.0; // 2^Shift
    private const double NanosecondsPerSecond = 1e9;

    private readonly ulong _nanosecondsPerTickScaled;
    private readonly ulong _ticksPerNanosecondScaled;

    /// <summary>Creates a frequency from a rate determined by <paramref name="source"/>.</summary>
    /// <param name="hertz">Ticks per second, between <see cref="MinHertz"/> and <see cref="MaxHertz"/>.</param>
    /// <param name="source">How the rate was determined.</param>
    /// <param name="uncertaintyPpm">
    /// The estimated relative uncertainty in parts per million, or <see langword="null"/> when not estimated.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException">
    /// The rate is not finite or outside the accepted range, or the uncertainty is negative.
    /// </exception>
    public TscFrequency(double hertz, TscFrequencySource source, double? uncertaintyPpm)
    {
        if (!double.IsFinite(hertz) || hertz < MinHertz || hertz > MaxHertz)
        {
            throw new ArgumentOutOfRangeException(
                nameof(hertz),
                hertz,
                string.Create(CultureInfo.InvariantCulture, $"A TSC rate must lie in [{MinHertz:G}, {MaxHertz:G}] Hz."));
        }

        if (uncertaintyPpm is { } ppm && (!double.IsFinite(ppm) || ppm < 0))
        {
            throw new ArgumentOutOfRangeException(
                nameof(uncertaintyPpm), uncertaintyPpm, "The uncertainty must be a finite, non-negative number of ppm.");
        }


        Hertz = hertz;
        Source = source;
        UncertaintyPpm = uncertaintyPpm;
        _nanosecondsPerTickScaled = (ulong)Math.Round(NanosecondsPerSecond / hertz * Scale);
        _ticksPerNanosecondScaled = (ulong)Math.Round(hertz / NanosecondsPerSecond * Scale);
    }

    /// <summary>Ticks per second.</summary>
    public double Hertz { get; }

    /// <summary>How <see cref="Hertz"/> was determined.</summary>
    public TscFrequencySource Source { get; }

    /// <summary>
    /// The estimated relative uncertainty of <see cref="Hertz"/> in parts per million: for a calibration, the
    /// half-widths of both clock brackets over the calibration interval; <see langword="null"/> for the CPUID and perf
    /// sources, whose error (crystal tolerance, MHz rounding, the kernel's calibration) is not reported by the hardware.
    /// </summary>
    public double? UncertaintyPpm { get; }

    /// <summary>Converts a tick count (usually a difference of two reads) to nanoseconds, rounding down.</summary>
    /// <param name="ticks">Elapsed ticks.</param>
    /// <returns>The nanoseconds; <see cref="ulong.MaxValue"/> when they do not fit (more than 584 years).</returns>
    public ulong TicksToNanoseconds(ulong ticks) => MultiplyShift(ticks, _nanosecondsPerTickScaled);

    /// <summary>Converts nanoseconds to ticks, rounding down.</summary>
    /// <param name="nanoseconds">A duration in nanoseconds.</param>
    /// <returns>The ticks; <see cref="ulong.MaxValue"/> when they do not fit.</returns>
    public ulong NanosecondsToTicks(ulong nanoseconds) => MultiplyShift(nanoseconds, _ticksPerNanosecondScaled);

    /// <summary>
    /// The frequency implied by a perf_event mmap page's time conversion, which the kernel defines as
    /// <c>ns = (ticks · time_mult) &gt;&gt; time_shift</c>; meaningful only when the page's <c>cap_user_time</c> bit is set.
    /// </summary>
    /// <param name="timeMult">The page's <c>time_mult</c>.</param>
    /// <param name="timeShift">The page's <c>time_shift</c>.</param>
    /// <returns>Hz = 1e9 · 2^time_shift / time_mult, with <see cref="TscFrequencySource.PerfTimeConversion"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timeMult"/> is 0, or the implied rate is out of range.</exception>
    public static TscFrequency FromPerfTimeConversion(uint timeMult, ushort timeShift)
    {
        ArgumentOutOfRangeException.ThrowIfZero(timeMult);
        return new TscFrequency(
            NanosecondsPerSecond * Math.Pow(2, timeShift) / timeMult, TscFrequencySource.PerfTimeConversion, uncertaintyPpm: null);
    }

    /// <summary>A one-line description, e.g. <c>2,994.374 MHz (CalibratedMonotonicRaw, ±1.8 ppm)</c>.</summary>
    /// <returns>The rate in MHz, the source and the uncertainty when known.</returns>
    public override string ToString()
        => UncertaintyPpm is { } ppm
            ? string.Create(CultureInfo.InvariantCulture, $"{Hertz / 1e6:N3} MHz ({Source}, ±{ppm:0.0} ppm)")
            : string.Create(CultureInfo.InvariantCulture, $"{Hertz / 1e6:N3} MHz ({Source})");

    /// <summary>
    /// Decodes CPUID leaf 0x15: EAX = ratio denominator, EBX = ratio numerator, ECX = crystal Hz.
    /// <see langword="null"/> when any is 0 (the leaf or the crystal rate is not enumerated).
    /// </summary>
    internal static TscFrequency? FromCpuidCrystalRatio(int eax, int ebx, int ecx)
        => eax == 0 || ebx == 0 || ecx == 0
            ? null
            : new TscFrequency((double)(uint)ecx * (uint)ebx / (uint)eax, TscFrequencySource.CpuidCrystalRatio, uncertaintyPpm: null);

    /// <summary>Decodes CPUID leaf 0x16 EAX[15:0], the base frequency in MHz; <see langword="null"/> when 0.</summary>
    internal static TscFrequency? FromCpuidBaseFrequency(int eax)
    {
        int megahertz = eax & 0xFFFF;
        return megahertz == 0 ? null : new TscFrequency(megahertz * 1e6, TscFrequencySource.CpuidBaseFrequency, uncertaintyPpm: null);
    }

    private static ulong MultiplyShift(ulong value, ulong scaled)
    {
        // (value · scaled) >> 32 over the full 128-bit product: (high:low) >> 32 = high << 32 | low >> 32,
        // which fits 64 bits exactly when high < 2^32.
        ulong high = Math.BigMul(value, scaled, out ulong low);
        return high >> Shift != 0 ? ulong.MaxValue : (high << (64 - Shift)) | (low >> Shift);
    }
}
