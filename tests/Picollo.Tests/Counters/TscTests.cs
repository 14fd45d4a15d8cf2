using System.Diagnostics;
using System.Runtime.Intrinsics.X86;
using Picollo.Counters;
using Picollo.Tests.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

// In the perf kernel group: ExpectedSource may open a perf event, which the fd-leak test of that group would count.
[Collection(PerfKernelTestGroup.Name)]
public sealed class TscTests
{
    [Fact]
    public void IsSupported_OnThisMachine_IsTrueWithoutAReason()
    {
        Tsc.UnsupportedReason.ShouldBeNull();
        Tsc.IsSupported.ShouldBeTrue();
    }

    [Fact]
    public void CpuFeatures_AgreeWithTheKernelsView()
    {
        // The kernel derives nonstop_tsc from the same CPUID bit (80000007H:EDX[8]) and rdtscp from 80000001H:EDX[27].
        string[] flags = CpuFlags();

        Tsc.IsInvariant.ShouldBe(flags.Contains("nonstop_tsc"));
        Tsc.HasRdtscp.ShouldBe(flags.Contains("rdtscp"));
    }

    [Fact]
    public void ReadStart_OverAThousandReads_IsMonotonic()
    {
        ulong previous = Tsc.ReadStart();
        for (int i = 0; i < 1_000; i++)
        {
            ulong now = Tsc.ReadStart();
            now.ShouldBeGreaterThanOrEqualTo(previous);
            previous = now;
        }
    }

    [Fact]
    public void ReadEnd_AfterReadStart_IsNeverSmaller()
    {
        for (int i = 0; i < 1_000; i++)
        {
            ulong start = Tsc.ReadStart();
            ulong end = Tsc.ReadEnd();
            end.ShouldBeGreaterThanOrEqualTo(start);
        }
    }

    [Fact]
    public void Frequency_OnThisMachine_ReportsItsMethodAndASaneRate()
    {
        TscFrequency frequency = Tsc.Frequency;

        frequency.Source.ShouldBe(ExpectedSource());
        frequency.Hertz.ShouldBeInRange(0.5e9, 6e9);
        if (frequency.Source == TscFrequencySource.CalibratedMonotonicRaw)
        {
            // Brackets of a few hundred ns over 20 ms: tens of ppm at worst, usually a few.
            frequency.UncertaintyPpm.ShouldNotBeNull();
            frequency.UncertaintyPpm.Value.ShouldBeInRange(0, 1_000);
        }
        else
        {
            frequency.UncertaintyPpm.ShouldBeNull("CPUID and the kernel do not report the error of their rates");
        }

        Tsc.Frequency.ShouldBeSameAs(frequency, "detected once per process");
    }

    [Fact]
    public void TicksToNanoseconds_OfASleep_AgreesWithStopwatch()
    {
        TscFrequency frequency = Tsc.Frequency;

        long stopwatchStart = Stopwatch.GetTimestamp();
        ulong ticksStart = Tsc.ReadStart();
        Thread.Sleep(20);
        ulong ticksEnd = Tsc.ReadEnd();
        long stopwatchEnd = Stopwatch.GetTimestamp();

        double tscNanoseconds = frequency.TicksToNanoseconds(ticksEnd - ticksStart);
        double stopwatchNanoseconds = Stopwatch.GetElapsedTime(stopwatchStart, stopwatchEnd).Ticks * 100.0;

        // A functional check of the conversion (a wrong frequency is off by far more), not a timing assertion.
        tscNanoseconds.ShouldBeInRange(stopwatchNanoseconds * 0.8, stopwatchNanoseconds * 1.2);
    }

    private static TscFrequencySource ExpectedSource()
    {
        int maxLeaf = X86Base.CpuId(0, 0).Eax;
        if (maxLeaf >= 0x15)
        {
            (int eax, int ebx, int ecx, _) = X86Base.CpuId(0x15, 0);
            if (eax != 0 && ebx != 0 && ecx != 0)
                return TscFrequencySource.CpuidCrystalRatio;
        }

        if (maxLeaf >= 0x16 && (X86Base.CpuId(0x16, 0).Eax & 0xFFFF) != 0)
            return TscFrequencySource.CpuidBaseFrequency;
        return PerfTimeConversion.TryReadFrequency() is null ? TscFrequencySource.CalibratedMonotonicRaw : TscFrequencySource.PerfTimeConversion;
    }

    private static string[] CpuFlags()
        => File.ReadLines("/proc/cpuinfo").First(line => line.StartsWith("flags", StringComparison.Ordinal))
            .Split(':')[1].Split(' ', StringSplitOptions.RemoveEmptyEntries);
}
