using System.Globalization;
using Picollo.Counters;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class TscFrequencyTests
{
    public static TheoryData<double> Rates => [1e6, 24e6, 1e9, 2_591_999_000, 2_994_374_123.5, 5.2e9, 1e10];

    [Theory]
    [MemberData(nameof(Rates))]
    public void TicksToNanoseconds_MatchesTheExactQuotient(double hertz)
    {
        var frequency = new TscFrequency(hertz, TscFrequencySource.CalibratedMonotonicRaw, 1);

        foreach (ulong ticks in new ulong[] { 0, 1, 3, 1_000, 123_456_789, 1UL << 40, 1UL << 50 })
        {
            double exact = ticks * 1e9 / hertz;
            double converted = frequency.TicksToNanoseconds(ticks);
            // Rounds down (≤ 1 ns) plus the multiplier's rounding (< 0.01 ppm here, 0.12 ppm at 1 MHz).
            converted.ShouldBeInRange(exact - 1 - (exact * 2e-7), exact + (exact * 2e-7));
        }
    }

    [Theory]
    [MemberData(nameof(Rates))]
    public void Conversions_RoundTripWithinOneUnitOfEachStep(double hertz)
    {
        var frequency = new TscFrequency(hertz, TscFrequencySource.CalibratedMonotonicRaw, 1);
        double ticksPerNanosecond = hertz / 1e9;

        foreach (ulong nanoseconds in new ulong[] { 0, 1, 999, 1_000_000, 20_000_000, 86_400_000_000_000 })
        {
            double back = frequency.TicksToNanoseconds(frequency.NanosecondsToTicks(nanoseconds));
            // ns → ticks loses < 1 tick, ticks → ns < 1 ns, each multiplier < 0.2 ppm.
            back.ShouldBeInRange(nanoseconds - (1 / ticksPerNanosecond) - 1 - (nanoseconds * 4e-7), nanoseconds + (nanoseconds * 4e-7));
        }
    }

    [Fact]
    public void TicksToNanoseconds_At2Pow63Ticks_DoesNotOverflow()
    {
        var frequency = new TscFrequency(3e9, TscFrequencySource.CalibratedMonotonicRaw, 1);
        ulong ticks = 1UL << 63;

        double exact = (double)ticks / 3;
        double converted = frequency.TicksToNanoseconds(ticks);

        converted.ShouldBeInRange(exact * (1 - 1e-9), exact * (1 + 1e-9));
        frequency.TicksToNanoseconds(ulong.MaxValue).ShouldBeInRange((ulong)(ulong.MaxValue / 3 * (1 - 1e-9)), ulong.MaxValue / 3 + 1);
        double backTicks = frequency.NanosecondsToTicks(frequency.TicksToNanoseconds(ticks));
        backTicks.ShouldBeInRange(ticks * (1 - 1e-9), ticks * (1 + 1e-9));
    }

    [Fact]
    public void Conversions_ThatDoNotFit_Saturate()
    {
        // 2^64 ticks of a 0.5 GHz counter are 2^65 ns; 2^64 ns of a 3 GHz counter are 3 · 2^64 ticks.
        new TscFrequency(0.5e9, TscFrequencySource.CalibratedMonotonicRaw, 1).TicksToNanoseconds(ulong.MaxValue).ShouldBe(ulong.MaxValue);
        new TscFrequency(3e9, TscFrequencySource.CalibratedMonotonicRaw, 1).NanosecondsToTicks(ulong.MaxValue).ShouldBe(ulong.MaxValue);
    }

    [Fact]
    public void CpuidCrystalRatio_IsCrystalTimesRatio()
    {
        // Skylake client: 24 MHz crystal × 216/2.
        TscFrequency? frequency = TscFrequency.FromCpuidCrystalRatio(eax: 2, ebx: 216, ecx: 24_000_000);

        frequency.ShouldNotBeNull();
        frequency.Hertz.ShouldBe(2_592_000_000);
        frequency.Source.ShouldBe(TscFrequencySource.CpuidCrystalRatio);
        frequency.UncertaintyPpm.ShouldBeNull();
    }

    [Theory]
    [InlineData(0, 216, 24_000_000)]
    [InlineData(2, 0, 24_000_000)]
    [InlineData(2, 216, 0)]
    public void CpuidCrystalRatio_WithAZeroField_IsNotAFrequency(int eax, int ebx, int ecx)
        => TscFrequency.FromCpuidCrystalRatio(eax, ebx, ecx).ShouldBeNull();

    [Fact]
    public void CpuidBaseFrequency_IsTheLow16BitsInMegahertz()
    {
        TscFrequency? frequency = TscFrequency.FromCpuidBaseFrequency(unchecked((int)0xABCD_0A28)); // 0x0A28 = 2600

        frequency.ShouldNotBeNull();
        frequency.Hertz.ShouldBe(2.6e9);
        frequency.Source.ShouldBe(TscFrequencySource.CpuidBaseFrequency);
        TscFrequency.FromCpuidBaseFrequency(unchecked((int)0xFFFF_0000)).ShouldBeNull();
    }

    [Fact]
    public void PerfTimeConversion_InvertsTheKernelsMultShift()
    {
        // The kernel would pick mult = round(1e9 · 2^31 / 3e9) for a 3 GHz TSC with shift 31.
        TscFrequency frequency = TscFrequency.FromPerfTimeConversion(timeMult: 715_827_883, timeShift: 31);

        frequency.Hertz.ShouldBeInRange(3e9 * (1 - 1e-6), 3e9 * (1 + 1e-6));
        frequency.Source.ShouldBe(TscFrequencySource.PerfTimeConversion);
        Should.Throw<ArgumentOutOfRangeException>(() => TscFrequency.FromPerfTimeConversion(0, 31));
    }

    [Theory]
    [InlineData(double.NaN)]
    [InlineData(double.PositiveInfinity)]
    [InlineData(0)]
    [InlineData(-1e9)]
    [InlineData(999)]
    [InlineData(1.1e11)]
    public void Constructor_RejectsImpossibleRates(double hertz)
        => Should.Throw<ArgumentOutOfRangeException>(() => new TscFrequency(hertz, TscFrequencySource.CalibratedMonotonicRaw, 1));

    [Fact]
    public void Constructor_RejectsANegativeUncertainty()
        => Should.Throw<ArgumentOutOfRangeException>(() => new TscFrequency(1e9, TscFrequencySource.CalibratedMonotonicRaw, -1));

    [Fact]
    public void Calibration_FromTwoBrackets_UsesTheMidpointsAndReportsTheirWidths()
    {
        // 60,000,000 ticks over 20 ms of clock = 3 GHz; widths 40 and 60 ns → (20 + 30 + 2) ns over 20 ms = 2.6 ppm.
        var first = new TscCalibration.Bracket(Ticks: 1_000_000, ClockMidpoint: 5_000_000, ClockWidth: 40);
        var second = new TscCalibration.Bracket(Ticks: 61_000_000, ClockMidpoint: 25_000_000, ClockWidth: 60);

        TscFrequency frequency = TscCalibration.FromBrackets(first, second);

        frequency.Hertz.ShouldBe(3e9);
        frequency.Source.ShouldBe(TscFrequencySource.CalibratedMonotonicRaw);
        frequency.UncertaintyPpm.ShouldNotBeNull();
        frequency.UncertaintyPpm.Value.ShouldBe(2.6, tolerance: 1e-9);
    }

    [Fact]
    public void ToString_IsInvariantAndNamesTheSource()
    {
        CultureInfo original = CultureInfo.CurrentCulture;
        CultureInfo.CurrentCulture = CultureInfo.GetCultureInfo("de-DE");
        try
        {
            AssertFormats();
        }
        finally
        {
            CultureInfo.CurrentCulture = original;
        }
    }

    private static void AssertFormats()
    {
        new TscFrequency(2_994_374_000, TscFrequencySource.CalibratedMonotonicRaw, 1.84).ToString()
            .ShouldBe("2,994.374 MHz (CalibratedMonotonicRaw, ±1.8 ppm)");
        new TscFrequency(2.6e9, TscFrequencySource.CpuidBaseFrequency, null).ToString()
            .ShouldBe("2,600.000 MHz (CpuidBaseFrequency)");
    }
}
