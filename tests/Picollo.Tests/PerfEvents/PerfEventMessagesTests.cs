using System.Text;
using System.Text.RegularExpressions;
using Picollo.Counters;
using Picollo.PerfEvents;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed partial class PerfEventMessagesTests
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
        string message = PerfEventMessages.OpenFailed(errno, Cycles, true, Facts());

        message.ShouldStartWith($"{Picollo.Interop.Errno.Name(errno)} ({Picollo.Interop.Errno.Meaning(errno)}) opening 'cycles': no hardware PMU");
        message.ShouldContain("VM without a virtual PMU");
        message.ShouldContain("GitHub-hosted");
        message.ShouldContain("task-clock");
        message.ShouldEndWith(".");
    }

    [Fact]
    public void CacheEventUnsupportedWithCpuPmu_SuggestsAnotherEvent()
    {
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENOENT, PerfEventSpec.Cache("L1-dcache-store-misses", PerfCacheCounterId.L1DWriteMiss), true, Facts(cpuPmu: true));

        message.ShouldContain("no mapping for the generic cache event 'L1-dcache-store-misses'");
        message.ShouldContain("perf list cache");
    }

    [Fact]
    public void RawEventUnsupportedWithCpuPmu_NamesTheConfig() =>
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENOENT, new PerfEventSpec("r01c2", 4, 0x1c2, 0, 0, CounterKind.Raw), true, Facts(cpuPmu: true))
            .ShouldContain("does not support this event (type 4, config 0x1c2)");

    [Fact]
    public void KernelCountingAtParanoid2_GivesTheSysctlAndCapability()
    {
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: false, Facts(paranoid: 2));

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
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: true, Facts(paranoid: level));

        message.ShouldContain($"kernel.perf_event_paranoid is {level}, a Debian/Ubuntu hardening level");
        message.ShouldContain("sudo sysctl kernel.perf_event_paranoid=2");
        message.ShouldContain("cap_perfmon+ep");
    }

    [Fact]
    public void MsrPmu_IsExplainedAsPrivileged()
    {
        var tsc = new PerfEventSpec("msr/tsc/", 9, 0, 0, 0, CounterKind.Raw, Pmu: "msr");

        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EACCES, tsc, false, Facts()).ShouldContain("msr PMU cannot be opened unprivileged");
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EINVAL, tsc, true, Facts()).ShouldContain("msr PMU refuses unprivileged opens");
    }

    [Fact]
    public void Seccomp_GivesTheDockerOptions()
    {
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EPERM, Cycles, true, Facts());

        message.ShouldStartWith("EPERM (Operation not permitted) opening 'cycles': ");
        message.ShouldContain("seccomp");
        message.ShouldContain("--security-opt seccomp=unconfined");
        message.ShouldContain("--cap-add PERFMON");
    }

    [Fact]
    public void TooManyOpenFiles_QuotesTheLimitsAndHowToRaiseThem()
    {
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EMFILE, TaskClock, true, Facts());

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
        string message = PerfEventMessages.OpenFailed(errno, Cycles, true, Facts(cpuPmu: true));

        message.ShouldContain("no free counter for 'cycles'");
        message.ShouldContain("reduce the group");
        message.ShouldContain("drop 'pinned'");
        message.Contains("nmi_watchdog", StringComparison.Ordinal).ShouldBe(errno == Picollo.Interop.Errno.EBUSY);
    }

    [Fact]
    public void InvalidKernelCountingAtParanoid2_SaysCountUserSpace() =>
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EINVAL, Cycles, excludeKernel: false, Facts(cpuPmu: true))
            .ShouldContain("kernel-mode counting was requested at kernel.perf_event_paranoid 2");

    [Fact]
    public void OtherErrnos_AreNamedAndExplained()
    {
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.E2BIG, TaskClock, true, Facts()).ShouldContain("kernel is too old");
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EINVAL, TaskClock, true, Facts()).ShouldContain("perf stat -e task-clock true");
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENOSYS, TaskClock, true, Facts()).ShouldContain("CONFIG_PERF_EVENTS");
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENFILE, TaskClock, true, Facts()).ShouldContain("fs.file-max");
        PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ESRCH, TaskClock, true, Facts()).ShouldStartWith("ESRCH (No such process)");
        PerfEventMessages.OpenFailed(200, TaskClock, true, Facts()).ShouldStartWith("errno 200 (");
    }

    [Fact]
    public void RealMachine_EnoentOnCyclesWithoutCpuPmu_SaysNoPmu()
    {
        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENOENT, Cycles, true);

        if (PerfPmu.HasCpuPmu)
            message.ShouldContain("does not support this event");
        else
            message.ShouldContain("no hardware PMU");
    }

    [Fact]
    public void RealMachine_EaccesQuotesTheParanoidLevelOfProc()
    {
        int? level = PerfSystemFacts.ParseParanoid(File.Exists(PerfSystemFacts.ParanoidPath) ? File.ReadAllText(PerfSystemFacts.ParanoidPath) : null);

        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EACCES, TaskClock, excludeKernel: false);

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

        string message = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.EMFILE, TaskClock, true);

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

    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var msr = new PerfEventSpec("msr/tsc/", 9, 0, 0, 0, CounterKind.Raw, Pmu: "msr");
        var raw = new PerfEventSpec("r01c2", (uint)PerfEventType.Raw, 0x1c2, 0, 0, CounterKind.Raw);
        var uncore = new PerfEventSpec("uncore_imc/cas_count_read/", 15, 0x304, 0, 0, CounterKind.Raw, Pmu: "uncore_imc");
        var l1Stores = PerfEventSpec.Cache("L1-dcache-store-misses", PerfCacheCounterId.L1DWriteMiss);
        var newSoftware = new PerfEventSpec("bpf-output", (uint)PerfEventType.Software, 42, 0, 0, CounterKind.Software);
        var text = new StringBuilder();
        void Open(string situation, int errno, PerfEventSpec spec, bool excludeKernel, PerfSystemFacts facts) =>
            Add(text, "OpenFailed: " + situation, PerfEventMessages.OpenFailed(errno, spec, excludeKernel, facts));

        Open("cycles on a VM without a virtual PMU", Picollo.Interop.Errno.ENOENT, Cycles, true, Facts());
        Open("a generic cache event the CPU does not map", Picollo.Interop.Errno.ENOENT, l1Stores, true, Facts(cpuPmu: true));
        Open("a mode filter the CPU PMU lacks", Picollo.Interop.Errno.EOPNOTSUPP, Cycles, true, Facts(cpuPmu: true));
        Open("a raw event the CPU does not support", Picollo.Interop.Errno.ENOENT, raw, true, Facts(cpuPmu: true));
        Open("a software event newer than the kernel", Picollo.Interop.Errno.ENOENT, newSoftware, true, Facts());
        Open("an uncore PMU rejecting the config", Picollo.Interop.Errno.ENODEV, uncore, true, Facts(cpuPmu: true));
        Open("the msr PMU, unprivileged", Picollo.Interop.Errno.EACCES, msr, true, Facts());
        Open("paranoid 3 (Debian hardening)", Picollo.Interop.Errno.EACCES, TaskClock, true, Facts(paranoid: 3));
        Open("kernel counting at paranoid 2", Picollo.Interop.Errno.EACCES, TaskClock, false, Facts(paranoid: 2));
        Open("user-space counting refused at paranoid 1", Picollo.Interop.Errno.EACCES, TaskClock, true, Facts(paranoid: 1));
        Open("paranoid level unknown", Picollo.Interop.Errno.EACCES, TaskClock, true, Facts(paranoid: null));
        Open("seccomp in a container", Picollo.Interop.Errno.EPERM, Cycles, true, Facts());
        Open("the open-file limit", Picollo.Interop.Errno.EMFILE, TaskClock, true, Facts());
        Open("the system-wide file table", Picollo.Interop.Errno.ENFILE, TaskClock, true, Facts());
        Open("no free hardware counter", Picollo.Interop.Errno.ENOSPC, Cycles, true, Facts(cpuPmu: true));
        Open("hardware counters held by another user", Picollo.Interop.Errno.EBUSY, Cycles, true, Facts(cpuPmu: true));
        Open("the msr PMU with exclude flags", Picollo.Interop.Errno.EINVAL, msr, true, Facts());
        Open("kernel counting refused at paranoid 2", Picollo.Interop.Errno.EINVAL, Cycles, false, Facts(cpuPmu: true));
        Open("a raw config out of range", Picollo.Interop.Errno.EINVAL, raw, true, Facts(cpuPmu: true));
        Open("attributes the kernel rejects", Picollo.Interop.Errno.EINVAL, TaskClock, true, Facts());
        Open("an old kernel", Picollo.Interop.Errno.E2BIG, TaskClock, true, Facts());
        Open("no perf_event_open in the kernel", Picollo.Interop.Errno.ENOSYS, TaskClock, true, Facts());
        Open("the target thread exited", Picollo.Interop.Errno.ESRCH, TaskClock, true, Facts());
        Open("interrupted", Picollo.Interop.Errno.EINTR, TaskClock, true, Facts());
        Open("out of kernel memory", Picollo.Interop.Errno.ENOMEM, TaskClock, true, Facts());
        Open("a closed group leader", Picollo.Interop.Errno.EBADF, TaskClock, true, Facts());
        Open("a bad attribute pointer", Picollo.Interop.Errno.EFAULT, TaskClock, true, Facts());
        Open("an errno perf_event_open does not document", Picollo.Interop.Errno.EIO, TaskClock, true, Facts());
        Add(text, "CountsOnlyInKernel", PerfEventMessages.CountsOnlyInKernel("context-switches"));
        Add(text, "NotLinux", PerfEventMessages.NotLinux("Microsoft Windows 10.0.26100"));
        Add(text, "NoPerfEvents", PerfEventMessages.NoPerfEvents(PerfSystemFacts.ParanoidPath));
        Add(text, "EventIdUnavailable", PerfEventMessages.EventIdUnavailable("cycles", Picollo.Interop.Errno.Describe(Picollo.Interop.Errno.EINVAL)));
        Add(text, "GroupInErrorState", PerfEventMessages.GroupInErrorState("[cycles, instructions]"));
        foreach ((string situation, PerfGroupReadStatus status, int errno) in new[]
        {
            ("more events than opened", PerfGroupReadStatus.Failed, Picollo.Interop.Errno.ENOSPC),
            ("interrupted by signals", PerfGroupReadStatus.Failed, Picollo.Interop.Errno.EINTR),
            ("another errno", PerfGroupReadStatus.Failed, Picollo.Interop.Errno.EBADF),
            ("truncated", PerfGroupReadStatus.Truncated, 0),
            ("count mismatch", PerfGroupReadStatus.CountMismatch, 0),
            ("unknown id", PerfGroupReadStatus.UnknownId, 0),
            ("duplicate id", PerfGroupReadStatus.DuplicateId, 0),
        })
        {
            Add(text, "GroupReadFailed: " + situation, PerfEventMessages.GroupReadFailed("[cycles, instructions]", status, errno));
        }

        Approvals.Verify(text.ToString(), "PerfEventMessages");
    }

    // The number of counters per core comes from this machine's CPU (and is absent without a PMU): the golden file leaves it out.
    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(CountersPerCore().Replace(message, "")).Append("\n\n");

    [GeneratedRegex(@" \(\d+ fixed \+ \d+ programmable per core here\)")]
    private static partial Regex CountersPerCore();
}
