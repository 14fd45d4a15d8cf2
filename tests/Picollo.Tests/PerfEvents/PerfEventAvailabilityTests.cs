using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfEventAvailabilityTests
{
    private static readonly PerfEventSpec ContextSwitches = PerfEventSpec.Software("context-switches", PerfSoftwareCounterId.ContextSwitches);
    private static readonly PerfEventSpec Cycles = PerfEventSpec.Hardware("cycles", PerfHardwareCounterId.CpuCycles);
    private static readonly PerfEventSpec TaskClock = PerfEventSpec.Software("task-clock", PerfSoftwareCounterId.TaskClock, "ns");

    private static PerfSystemFacts Facts(int? paranoid, bool cpuPmu) =>
        new(paranoid, cpuPmu, cpuPmu ? ["cpu", "software"] : ["software"], "1024", "4096", "/usr/bin/dotnet");

    [Fact]
    public void RealMachine_ProbeMatchesProcAndSysfs()
    {
        PerfEventAvailability availability = PerfEventAvailability.Current;
        int? paranoid = PerfSystemFacts.ParseParanoid(File.Exists(PerfSystemFacts.ParanoidPath) ? File.ReadAllText(PerfSystemFacts.ParanoidPath) : null);

        availability.ShouldBeSameAs(PerfEventAvailability.Current);
        availability.ParanoidLevel.ShouldBe(paranoid);
        availability.HasCpuPmu.ShouldBe(PerfPmu.HasCpuPmu);
        if (!OperatingSystem.IsLinux())
        {
            availability.Level.ShouldBe(PerfEventAvailabilityLevel.None);
            availability.SoftwareUnavailableReason.ShouldNotBeNull().ShouldContain("Linux-only");
            return;
        }

        // This VM: paranoid 2, no CPU PMU. Software counts, hardware does not; kernel mode is refused unless the
        // tests run privileged (root here), which the paranoid level does not restrict.
        bool privileged = PerfSystemFacts.ParseIsPrivileged(File.ReadAllText("/proc/self/status"));
        availability.IsPrivileged.ShouldBe(privileged);
        if (paranoid is <= 2 || privileged)
            availability.IsSoftwareAvailable.ShouldBeTrue(availability.ToString());
        availability.IsKernelExcludedForced.ShouldBe(paranoid >= 2 && !privileged, availability.ToString());

        // Checked against a session, which opens through its own path (full-size attr, group read format): counting
        // kernel mode works exactly when the probe says it is not refused, and fails with the probe's remedy otherwise.
        using (PerfEventCounterSession kernelSession = PerfEventCounterSession.Factory.WithKernel(true).WithSoftwareCounter(PerfSoftwareCounterId.TaskClock).Create())
        {
            if (availability.IsKernelExcludedForced)
            {
                kernelSession.UnavailableCounters.ShouldHaveSingleItem().UnavailableReason.ShouldNotBeNull().ShouldContain("sudo sysctl kernel.perf_event_paranoid=1");
                availability.KernelCountingUnavailableReason.ShouldNotBeNull().ShouldContain("sudo sysctl kernel.perf_event_paranoid=1");
            }
            else
            {
                kernelSession.UnavailableCounters.ShouldBeEmpty(availability.ToString());
                kernelSession.Counters.Software.TaskClock.ShouldNotBeNull();
            }
        }

        if (!PerfPmu.HasCpuPmu)
        {
            availability.IsHardwareAvailable.ShouldBeFalse();
            availability.HardwareUnavailableReason.ShouldNotBeNull().ShouldStartWith("ENOENT (No such file or directory) opening 'cycles': no hardware PMU");
            if (availability.IsSoftwareAvailable)
                availability.Level.ShouldBe(PerfEventAvailabilityLevel.SoftwareOnly);
        }
        else
        {
            (availability.HardwareUnavailableReason ?? "").ShouldNotContain("no hardware PMU");
        }
    }

    [Fact]
    public void RealMachine_ReportExplainsEachFamily()
    {
        string report = PerfEventAvailability.Current.ToString();

        report.ShouldStartWith("perf_event availability: " + PerfEventAvailability.Current.Level);
        report.ShouldContain("perf_event_paranoid: ");
        report.ShouldContain("software events: ");
        report.ShouldContain("hardware events: ");
        report.Contains("(no CPU PMU)", StringComparison.Ordinal).ShouldBe(!PerfPmu.HasCpuPmu);
        report.Contains("kernel-mode counting: refused (exclude_kernel forced)", StringComparison.Ordinal)
            .ShouldBe(PerfEventAvailability.Current.IsKernelExcludedForced);
        report.Contains("kernel-mode counting: allowed", StringComparison.Ordinal).ShouldBe(!PerfEventAvailability.Current.IsKernelExcludedForced);
    }

    [Theory]
    [InlineData("CapEff:\t000001fffeffffff\n", true)]
    [InlineData("CapEff:\t0000004000000000\n", true)]
    [InlineData("CapEff:\t0000000000200000\n", true)]
    [InlineData("CapEff:\t0000000000000000\n", false)]
    [InlineData("", false)]
    public void Capabilities_PerfmonOrSysAdminArePrivileged(string status, bool privileged) =>
        PerfSystemFacts.ParseIsPrivileged("Name:\tdotnet\n" + status).ShouldBe(privileged);

    [Fact]
    public void NonLinux_IsNoneWithTheLinuxOnlyReason()
    {
        var availability = PerfEventAvailability.Classify(isLinux: false, Facts(null, false), 0, 0, 0);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.None);
        availability.SoftwareUnavailableReason.ShouldNotBeNull().ShouldContain("perf_event is Linux-only");
        availability.HardwareUnavailableReason.ShouldBe(availability.SoftwareUnavailableReason);
    }

    [Fact]
    public void MissingParanoidFile_IsNoneBecausePerfEventsAreNotCompiledIn()
    {
        var availability = PerfEventAvailability.Classify(isLinux: true, Facts(null, false), 0, 0, 0);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.None);
        availability.SoftwareUnavailableReason.ShouldNotBeNull().ShouldContain("CONFIG_PERF_EVENTS");
    }

    [Fact]
    public void VmWithoutPmu_IsSoftwareOnlyWithTheNoPmuReason()
    {
        var availability = PerfEventAvailability.Classify(true, Facts(2, false), 0, Picollo.Interop.Errno.ENOENT, Picollo.Interop.Errno.EACCES);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.SoftwareOnly);
        availability.HardwareUnavailableReason.ShouldNotBeNull().ShouldContain("no hardware PMU");
        availability.IsKernelExcludedForced.ShouldBeTrue();
        availability.ParanoidLevel.ShouldBe(2);
    }

    [Fact]
    public void DebianParanoid3_IsNoneWithTheSysctl()
    {
        var availability = PerfEventAvailability.Classify(true, Facts(3, true), Picollo.Interop.Errno.EACCES, Picollo.Interop.Errno.EACCES, Picollo.Interop.Errno.EACCES);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.None);
        availability.SoftwareUnavailableReason.ShouldNotBeNull().ShouldContain("sudo sysctl kernel.perf_event_paranoid=2");
        availability.HardwareUnavailableReason.ShouldNotBeNull().ShouldContain("Debian/Ubuntu");
    }

    [Fact]
    public void DockerSeccomp_IsNoneWithTheContainerOptions()
    {
        var availability = PerfEventAvailability.Classify(true, Facts(2, true), Picollo.Interop.Errno.EPERM, Picollo.Interop.Errno.EPERM, Picollo.Interop.Errno.EPERM);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.None);
        availability.SoftwareUnavailableReason.ShouldNotBeNull().ShouldContain("--security-opt seccomp=unconfined");
    }

    [Fact]
    public void BareMetalParanoid1_IsHardwareWithKernelCounting()
    {
        var availability = PerfEventAvailability.Classify(true, Facts(1, true), 0, 0, 0);

        availability.Level.ShouldBe(PerfEventAvailabilityLevel.Hardware);
        availability.IsKernelExcludedForced.ShouldBeFalse();
        availability.GetUnavailableReason(Cycles, excludeKernel: false).ShouldBeNull();
        availability.GetUnavailableReason(ContextSwitches, excludeKernel: false).ShouldBeNull();
        availability.ToString().ShouldContain("kernel-mode counting: allowed");
    }

    [Theory]
    [InlineData(PerfSoftwareCounterId.ContextSwitches, true)]
    [InlineData(PerfSoftwareCounterId.CpuMigrations, true)]
    [InlineData(PerfSoftwareCounterId.TaskClock, false)]
    [InlineData(PerfSoftwareCounterId.PageFaults, false)]
    [InlineData(PerfSoftwareCounterId.PageFaultsMin, false)]
    public void KernelOnlySoftwareCounters_AreContextSwitchesAndMigrations(PerfSoftwareCounterId id, bool kernelOnly)
    {
        var spec = PerfEventSpec.Software(PerfEventCatalog.GetName(id), id);

        PerfEventAvailability.CountsOnlyInKernel(spec, out string? reason).ShouldBe(kernelOnly);

        if (kernelOnly)
            reason.ShouldNotBeNull().ShouldContain("always reads 0");
        else
            reason.ShouldBeNull();
    }

    [Fact]
    public void HardwareId3_IsNotMistakenForContextSwitches() =>
        PerfEventAvailability.CountsOnlyInKernel(PerfEventSpec.Hardware("cache-misses", PerfHardwareCounterId.CacheMisses), out _).ShouldBeFalse();

    [Fact]
    public void UnavailableReason_CombinesFamilyKernelOnlyAndKernelMode()
    {
        var availability = PerfEventAvailability.Classify(true, Facts(2, false), 0, Picollo.Interop.Errno.ENOENT, Picollo.Interop.Errno.EACCES);

        availability.GetUnavailableReason(TaskClock, excludeKernel: true).ShouldBeNull();
        availability.GetUnavailableReason(Cycles, excludeKernel: true).ShouldNotBeNull().ShouldContain("no hardware PMU");
        availability.GetUnavailableReason(ContextSwitches, excludeKernel: true).ShouldNotBeNull().ShouldContain("always reads 0");
        availability.GetUnavailableReason(TaskClock, excludeKernel: false).ShouldNotBeNull().ShouldContain("paranoid is 2");
    }
}
