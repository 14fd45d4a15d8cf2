using Picollo.Counters;
using Picollo.PerfEvents;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class UnavailableReasonsTests
{
    [Fact]
    public void ReasonsQuotingTheirCounter_AreOneLineNamingEachCounterQuoted()
    {
        var groups = UnavailableReasons.Group(
        [
            ("cycles", "ENOENT opening 'cycles': no hardware PMU."),
            ("instructions", "ENOENT opening 'instructions': no hardware PMU."),
        ]).ToList();

        groups.Count.ShouldBe(1);
        groups[0].Names.ShouldBe(["cycles", "instructions"]);
        groups[0].Reason.ShouldBe("ENOENT opening 'cycles', 'instructions': no hardware PMU.");
    }

    [Fact]
    public void ANameThatIsAlsoAWordOfTheProse_IsNotReplacedThere()
    {
        // "faults" is a counter name and a word of the reason: only its quoted form names the counter.
        var groups = UnavailableReasons.Group(
        [
            ("faults", "'faults' counts page faults in the kernel."),
            ("cs", "'cs' counts page faults in the kernel."),
        ]).ToList();

        groups.Count.ShouldBe(1);
        groups[0].Reason.ShouldBe("'faults', 'cs' counts page faults in the kernel.");
    }

    [Fact]
    public void AReasonThatListsItsCountersItself_IsGroupedByItsTextAndLeftAsItIs()
    {
        const string Reason = "cycles, instructions: the kernel does not let this thread read them with rdpmc.";

        var groups = UnavailableReasons.Group([("cycles", Reason), ("instructions", Reason)]).ToList();

        groups.Count.ShouldBe(1);
        groups[0].Names.ShouldBe(["cycles", "instructions"]);
        groups[0].Reason.ShouldBe(Reason);
    }

    [Fact]
    public void DifferentReasons_AreSeparateGroupsInTheOrderOfTheirFirstCounter()
    {
        var groups = UnavailableReasons.Group(
        [
            ("cycles", "no PMU for 'cycles'."),
            ("task-clock", "not asked."),
            ("instructions", "no PMU for 'instructions'."),
            ("task-clock", "not asked."),
            ("bogus", null),
        ]).ToList();

        groups.Select(static g => g.Reason).ShouldBe(["no PMU for 'cycles', 'instructions'.", "not asked.", "No reason given."]);
        groups[1].Names.ShouldBe(["task-clock"]);
    }

    [Fact]
    public void Headline_IsTheCauseInAFewWords_FromTheRealMessages()
    {
        var spec = PerfEventSpec.Hardware("cycles", PerfHardwareCounterId.CpuCycles);
        var noPmuFacts = new PerfSystemFacts(2, HasCpuPmu: false, ["software"], "1024", "524288", "/usr/lib/dotnet/dotnet");
        string noPmu = PerfEventMessages.OpenFailed(Picollo.Interop.Errno.ENOENT, spec, excludeKernel: true, noPmuFacts);

        UnavailableReasons.Headline(noPmu).ShouldBe("no hardware PMU", noPmu);
        UnavailableReasons.Headline("kernel.perf_event_paranoid is 3, a Debian/Ubuntu hardening level that forbids every unprivileged perf_event_open: run 'sudo sysctl'")
            .ShouldBe("kernel.perf_event_paranoid is 3, a Debian/Ubuntu hardening level that forbids …");
        UnavailableReasons.Headline("Simulated counters need Linux x64.").ShouldBe("Simulated counters need Linux x64");
    }
}
