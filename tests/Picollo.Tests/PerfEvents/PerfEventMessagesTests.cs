using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed class PerfEventDiagnosticsTests
{
    private static readonly PerfEventSpec Cycles = PerfEventSpec.Hardware("cycles", PerfHardwareCounterId.CpuCycles);
    private static readonly PerfEventSpec TaskClock = PerfEventSpec.Software("task-clock", PerfSoftwareCounterId.TaskClock, "ns");

    private static PerfSystemFacts Facts(int? paranoid = 2, bool cpuPmu = false) =>
        new(paranoid, cpuPmu, ["software", "msr"], "1024", "524288", "/usr/lib/dotnet/dotnet");

    [Theory]
    [InlineData(Picollo.Interop.Errno.ENOENT)]
    [InlineData(Picollo.Interop.Errno.EOPNOTSUPP)]
    [InlineData(Picollo.Interop.Errno.ENODEV)]
    public void HardwareUnsupportedWithoutCpuPmu_ExplainsTheMissingVirtualPmu(int errno)
    {
        string message = PerfEventDiagnostics.Explain(errno, Cycles, true, Facts());

        message.ShouldStartWith($"{Picollo.Interop.Errno.Name(errno)} ({Picollo.Interop.Errno.Meaning(errno)}) opening 'cycles': no hardware PMU");
        message.ShouldContain("VM without a virtual PMU");
        message.ShouldContain("GitHub-hosted");
        message.ShouldContain("task-clock");
        message.ShouldEndWith(".");
    }

    [Fact]
    public void CacheEventUnsupportedWithCpuPmu_SuggestsAnotherEvent()
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ENOENT, PerfEventSpec.Cache("L1-dcache-store-misses", PerfCacheCounterId.L1DWriteMiss), true, Facts(cpuPmu: true));

        message.ShouldContain("no mapping for the generic cache event 'L1-dcache-store-misses'");
        message.ShouldContain("perf list cache");
    }

    [Fact]
    public void RawEventUnsupportedWithCpuPmu_NamesTheConfig() =>
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ENOENT, new PerfEventSpec("r01c2", 4, 0x1c2, 0, 0, CounterKind.Raw), true, Facts(cpuPmu: true))
            .ShouldContain("does not support this event (type 4, config 0x1c2)");

    [Fact]
    public void KernelCountingAtParanoid2_GivesTheSysctlAndCapability()
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: false, Facts(paranoid: 2));

        message.ShouldStartWith("EACCES (Permission denied) opening 'task-clock': kernel.perf_event_paranoid is 2");
        message.ShouldContain("sudo sysctl kernel.perf_event_paranoid=1");
        message.ShouldContain("sudo setcap cap_perfmon+ep /usr/lib/dotnet/dotnet");
        message.ShouldContain("WithKernel(false)");
    }

    [Theory]
    [InlineData(3)]
    [InlineData(4)]
    public void DebianParanoidLevel_ExplainsThatEveryOpenIsForbidden(int level)
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: true, Facts(paranoid: level));

        message.ShouldContain($"kernel.perf_event_paranoid is {level}, a Debian/Ubuntu hardening level");
        message.ShouldContain("sudo sysctl kernel.perf_event_paranoid=2");
        message.ShouldContain("cap_perfmon+ep");
    }

    [Fact]
    public void MsrPmu_IsExplainedAsPrivileged()
    {
        var tsc = new PerfEventSpec("msr/tsc/", 9, 0, 0, 0, CounterKind.Raw, Pmu: "msr");

        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EACCES, tsc, false, Facts()).ShouldContain("msr PMU cannot be opened unprivileged");
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EINVAL, tsc, true, Facts()).ShouldContain("msr PMU refuses unprivileged opens");
    }

    [Fact]
    public void Seccomp_GivesTheDockerOptions()
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EPERM, Cycles, true, Facts());

        message.ShouldStartWith("EPERM (Operation not permitted) opening 'cycles': ");
        message.ShouldContain("seccomp");
        message.ShouldContain("--security-opt seccomp=unconfined");
        message.ShouldContain("--cap-add PERFMON");
    }

    [Fact]
    public void TooManyOpenFiles_QuotesTheLimitsAndHowToRaiseThem()
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EMFILE, TaskClock, true, Facts());

        message.ShouldStartWith("EMFILE (Too many open files) opening 'task-clock': ");
        message.ShouldContain("ulimit -n = 1024, hard limit 524288");
        message.ShouldContain("'ulimit -n 524288'");
        message.ShouldContain("dispose sessions");
    }

    [Theory]
    [InlineData(Picollo.Interop.Errno.ENOSPC)]
    [InlineData(Picollo.Interop.Errno.EBUSY)]
    public void CountersExhausted_SaysReduceTheGroupOrDropPinned(int errno)
    {
        string message = PerfEventDiagnostics.Explain(errno, Cycles, true, Facts(cpuPmu: true));

        message.ShouldContain("no free counter for 'cycles'");
        message.ShouldContain("reduce the group");
        message.ShouldContain("drop 'pinned'");
        message.Contains("nmi_watchdog", StringComparison.Ordinal).ShouldBe(errno == Picollo.Interop.Errno.EBUSY);
    }

    [Fact]
    public void InvalidKernelCountingAtParanoid2_SaysCountUserSpace() =>
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EINVAL, Cycles, excludeKernel: false, Facts(cpuPmu: true))
            .ShouldContain("kernel-mode counting was requested at kernel.perf_event_paranoid 2");

    [Fact]
    public void OtherErrnos_AreNamedAndExplained()
    {
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.E2BIG, TaskClock, true, Facts()).ShouldContain("kernel is too old");
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EINVAL, TaskClock, true, Facts()).ShouldContain("perf stat -e task-clock true");
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ENOSYS, TaskClock, true, Facts()).ShouldContain("CONFIG_PERF_EVENTS");
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ENFILE, TaskClock, true, Facts()).ShouldContain("fs.file-max");
        PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ESRCH, TaskClock, true, Facts()).ShouldStartWith("ESRCH (No such process)");
        PerfEventDiagnostics.Explain(200, TaskClock, true, Facts()).ShouldStartWith("errno 200 (");
    }

    [Fact]
    public void RealMachine_EnoentOnCyclesWithoutCpuPmu_SaysNoPmu()
    {
        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.ENOENT, Cycles, true);

        if (PerfPmu.HasCpuPmu)
            message.ShouldContain("does not support this event");
        else
            message.ShouldContain("no hardware PMU");
    }

    [Fact]
    public void RealMachine_EaccesQuotesTheParanoidLevelOfProc()
    {
        int? level = PerfSystemFacts.ParseParanoid(File.Exists(PerfSystemFacts.ParanoidPath) ? File.ReadAllText(PerfSystemFacts.ParanoidPath) : null);

        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: false);

        PerfSystemFacts.Current.ParanoidLevel.ShouldBe(level);
        // Level 2 and up are named as restrictions ("is 2"); below, the level is quoted where permission was still denied.
        message.ShouldContain(level >= 2
            ? $"kernel.perf_event_paranoid is {level}"
            : $"kernel.perf_event_paranoid {level?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "unknown"}");
        message.ShouldContain("cap_perfmon+ep " + PerfSystemFacts.Current.HostPath);
    }

    [Fact]
    public void RealMachine_EmfileQuotesTheRealLimit()
    {
        string limits = File.Exists("/proc/self/limits") ? File.ReadAllText("/proc/self/limits") : "";

        string message = PerfEventDiagnostics.Explain(Picollo.Interop.Errno.EMFILE, TaskClock, true);

        message.ShouldContain($"ulimit -n = {PerfSystemFacts.ParseOpenFilesLimit(limits).Soft ?? "unknown"}");
    }

    [Fact]
    public void ProcLimits_ParsesSoftAndHardOpenFiles()
    {
        const string limits = """
            Limit                     Soft Limit           Hard Limit           Units
            Max processes             63687                63687                processes
            Max open files            20000                40000                files
            """;

        PerfSystemFacts.ParseOpenFilesLimit(limits).ShouldBe(("20000", "40000"));
        PerfSystemFacts.ParseOpenFilesLimit(null).ShouldBe((null, null));
        PerfSystemFacts.ParseParanoid("-1\n").ShouldBe(-1);
        PerfSystemFacts.ParseParanoid("x").ShouldBeNull();
    }
}
