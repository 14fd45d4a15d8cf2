using Picollo.Counters;
using Picollo.Measurement;
using Shouldly;
using Xunit;
using ProcessArchitecture = System.Runtime.InteropServices.Architecture;

namespace Picollo.Tests.Counters;

/// <summary>
/// Which time counter the default set measures, through the seam that decides it: this machine's platform, and others
/// described as their facts (Windows, macOS, Arm64 Linux, Linux x64 without the native library). Only Linux x64 runs here;
/// the others are their facts, not their machines (docs/COUNTERS.md, "The portable clock").
/// </summary>
public sealed class TimePlatformTests
{
    private const string NoLibrary = "libpicollo_native.so was not found next to Picollo.dll.";

    private static readonly TimePlatform LinuxX64 = new(true, "Linux 6.18.0", ProcessArchitecture.X64, HasX86Base: true, NativeLibraryFailure: null);

    [Fact]
    public void ThisMachine_CountsTsc_AndKeepsTheDefaultSetAsItWas()
    {
        TimePlatform.Current.IsLinux.ShouldBeTrue();
        TimePlatform.Current.Architecture.ShouldBe(ProcessArchitecture.X64);
        TimePlatform.Current.TscUnsupportedReason.ShouldBeNull();
        TimePlatform.Current.TscUnsupportedReason.ShouldBe(Tsc.UnsupportedReason);

        PerfOptions.DefaultCounters.ShouldBe(TimePlatform.Current.DefaultCounters);
        PerfOptions.DefaultCounters.ShouldContain(CounterNames.Tsc);
        PerfOptions.DefaultCounters.ShouldNotContain(CounterNames.Clock);
        LinuxX64.DefaultCounters.ShouldBe(PerfOptions.DefaultCounters);
    }

    [Theory]
    [InlineData("windows-x64")]
    [InlineData("windows-arm64")]
    [InlineData("macos-arm64")]
    [InlineData("macos-x64")]
    [InlineData("linux-arm64")]
    [InlineData("linux-x64-without-native-library")]
    public void WhereTscCannotCount_TheClockTakesItsPlace_AndTheRestStays(string platform)
    {
        TimePlatform other = Platform(platform);

        string reason = other.TscUnsupportedReason.ShouldNotBeNull();
        ShouldHaveTheClockInTscsPlace(other.DefaultCounters);

        // Without the library the loader's own reason stands (it names the command that builds it); elsewhere the reason
        // says what measures time instead.
        if (platform == "linux-x64-without-native-library")
            reason.ShouldBe(NoLibrary);
        else
            reason.ShouldContain("clock counter");
    }

    [Fact]
    public void Windows_SaysWhyAndWhatMeasuresTime()
    {
        Platform("windows-x64").TscUnsupportedReason.ShouldBe(
            "tsc reads the time-stamp counter through libpicollo_native, which exists for Linux x64 only; this process runs on "
            + "Microsoft Windows 10.0.26100. Time is measured here by the clock counter (the runtime's high-resolution clock, in "
            + "the default set where tsc cannot count): name clock instead of tsc, e.g. Counters = \"clock,allocated-bytes\", with "
            + "budgets in nanoseconds (tsc's are in ticks).");
    }

    [Fact]
    public void Arm64_SaysTheTscIsAnX64Register()
    {
        Platform("linux-arm64").TscUnsupportedReason.ShouldStartWith(
            "The time-stamp counter is an x86-64 register; this process is Arm64. Time is measured here by the clock counter");
    }

    private static void ShouldHaveTheClockInTscsPlace(IReadOnlyList<string> defaults)
    {
        defaults.ShouldContain(CounterNames.Clock);
        defaults.ShouldNotContain(CounterNames.Tsc);
        defaults[0].ShouldBe(CounterNames.Clock);
        defaults.Skip(1).ShouldBe(LinuxX64.DefaultCounters.Skip(1));
    }

    private static TimePlatform Platform(string name) => name switch
    {
        "windows-x64" => new(false, "Microsoft Windows 10.0.26100", ProcessArchitecture.X64, HasX86Base: true, NativeLibraryFailure: null),
        "windows-arm64" => new(false, "Microsoft Windows 10.0.26100", ProcessArchitecture.Arm64, HasX86Base: false, NativeLibraryFailure: null),
        "macos-arm64" => new(false, "Darwin 24.1.0", ProcessArchitecture.Arm64, HasX86Base: false, NativeLibraryFailure: null),
        "macos-x64" => new(false, "Darwin 24.1.0", ProcessArchitecture.X64, HasX86Base: true, NativeLibraryFailure: null),
        "linux-arm64" => new(true, "Linux 6.8.0", ProcessArchitecture.Arm64, HasX86Base: false, NativeLibraryFailure: null),
        _ => LinuxX64 with { NativeLibraryFailure = NoLibrary },
    };
}
