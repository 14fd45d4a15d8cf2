using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Tests.Support;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The verdict lines a time verdict writes when it allows for the conditions (issue 24), as stored expectations: each
/// allowance alone, unchanged code passing inside it and a gross regression failing beyond it, then all of them at once.
/// A change to any of these sentences is a reviewed diff of <c>Approved/Verdict.Allowances.approved.md</c>.
/// </summary>
public sealed class AllowanceMessagesTests
{
    [Fact]
    public void EveryAllowance_SaysWhatItAllowsAndWhy_AndAGrossRegressionFailsBeyondIt()
    {
        BaselineRecord recorded = Record(TscCounter(FloorRun(seed: 1)), AllocatedBytes(Constant(0))) with { MachineSpeed = 1_100, BranchSpeed = 414, AllocationSpeed = null };
        BaselineCounter tsc = recorded.Find("tsc")!;
        BaselineRecord leveled = recorded with
        {
            Counters = [tsc with { Recording = new RecordingQuality(2, 0.003, null) { Processes = 4, Spread = 1.37 } }, recorded.Find("allocated-bytes")!],
        };
        BaselineRecord allocating = Record(TscCounter(FloorRun(seed: 1)), AllocatedBytes(Constant(24))) with { MachineSpeed = 1_100, BranchSpeed = 414, AllocationSpeed = 18.2 };
        int others = Math.Max(1, Environment.ProcessorCount - 1);

        var text = new StringBuilder();
        Case(text, "Levels recorded across processes: unchanged code at the slowest level", leveled, Measured(2, 1.37, allocated: 0));
        Case(text, "Levels recorded across processes: twice the work at the fastest level", leveled, Measured(3, 2.0, allocated: 0));
        Case(text, "Another process keeps a core busy: unchanged code slowed by it", recorded, Measured(4, 1.12, allocated: 0) with { OtherProcessesCores = others });
        Case(text, "Another process keeps a core busy: three times the work", recorded, Measured(5, 3.0, allocated: 0) with { OtherProcessesCores = others });
        Case(text, "The host runs branchy code in its slow state: unchanged code", recorded, Measured(6, 1.6, allocated: 0) with { BranchSpeed = 660 });
        Case(text, "The host runs branchy code in its slow state: three times the work", recorded, Measured(7, 3 * 1.6, allocated: 0) with { BranchSpeed = 660 });
        Case(text, "Recorded in the slow branchy state, judged in the fast one", recorded with { BranchSpeed = 660 }, Measured(8, 1.0, allocated: 0));
        Case(text, "An allocating body judged in a faster allocation episode: unchanged code", allocating, Measured(9, 10.0 / 18.2, allocated: 24) with { AllocationSpeed = 10.0 });
        Case(text, "An allocating body judged in a faster allocation episode: +30 %", allocating, Measured(10, 1.3 * 10.0 / 18.2, allocated: 24) with { AllocationSpeed = 10.0 });
        BaselineRecord episode = allocating with { AllocationSpeed = 12.3 };
        Case(text, "The allocation reference in a slow episode of its own: unchanged code", episode, Measured(13, 1.0, allocated: 24) with { AllocationSpeed = 19.8 });
        Case(text, "The allocation reference in a slow episode of its own: twice the work", episode, Measured(14, 2.0, allocated: 24) with { AllocationSpeed = 19.8 });
        Case(text, "All at once: levels, a busy core and the slow branchy state, unchanged code", leveled, Measured(11, 1.6, allocated: 0) with { OtherProcessesCores = others, BranchSpeed = 660 });
        Case(text, "All at once: three times the work", leveled, Measured(12, 3.0, allocated: 0) with { OtherProcessesCores = others, BranchSpeed = 660 });

        // The busy share is of the other cores, so the line names this machine's core count: written as <cores>.
        Approvals.Verify(text.ToString().Replace($"of {Environment.ProcessorCount} cores", "of <cores> cores", StringComparison.Ordinal), "Verdict.Allowances");
    }

    private static BaselineRecord Measured(int seed, double scale, ulong allocated) =>
        Record(TscCounter(FloorRun(seed, scale: scale)), AllocatedBytes(Constant(allocated))) with { MachineSpeed = 1_100, BranchSpeed = 414 };

    private static void Case(StringBuilder text, string title, BaselineRecord baseline, BaselineRecord measured)
    {
        CounterVerdict tsc = BaselineComparer.Compare(new BaselineFile([new BaselineEntry(Epyc, baseline)]), Epyc, measured).Single(static v => v.Counter == "tsc");
        text.Append("## ").Append(title).Append("\n\n").Append(tsc.Status).Append(tsc.ConditionsChanged ? " (measured again in other conditions)" : string.Empty)
            .Append("\n\n").Append(tsc.Text).Append("\n\n");
    }
}
