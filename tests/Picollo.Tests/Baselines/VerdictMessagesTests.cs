using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Rules;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Every phrase of a verdict against a baseline (<see cref="VerdictMessages"/>, issue 28), in real situations: why a counter
/// was not compared, each part of what a time verdict allowed for, and the policy's threshold errors. A change to any of
/// them is a reviewed diff of <c>Approved/VerdictMessages.approved.md</c>; the verdict lines as a whole stay checked by
/// <c>Approved/Verdict.Allowances.approved.md</c>.
/// </summary>
public sealed class VerdictMessagesTests
{
    [Fact]
    public void EveryPhrase_ReadsAsItsSituation()
    {
        var text = new StringBuilder();
        Case(text, nameof(VerdictMessages.PageFaultsOfAnAllocatingBody), VerdictMessages.PageFaultsOfAnAllocatingBody());
        Case(text, nameof(VerdictMessages.OperationsPerSampleChanged), VerdictMessages.OperationsPerSampleChanged(1, 16));
        Case(text, nameof(VerdictMessages.TooFewSamples), VerdictMessages.TooFewSamples(6));
        string[] parts =
        [
            VerdictMessages.SlowestLevelRecorded(4, 1.37),
            VerdictMessages.OtherProcessesBusy(1.0, 2, 1.15),
        ];
        Case(text, "Allowing: a band", VerdictMessages.Allowing(Math.Log(1.37 * 1.15), parts));
        string scaled = VerdictMessages.ScaledByAllocationReference(18.2, 10.0, Math.Log(10.0 / 18.2));
        Case(text, "Allowing: a correction only", VerdictMessages.Allowing(0, [scaled]));
        Case(text, "SlowestLevelRecorded: four processes", VerdictMessages.SlowestLevelRecorded(4, 1.37));
        Case(text, "SlowestLevelRecorded: one process", VerdictMessages.SlowestLevelRecorded(1, 1.12));
        Case(text, nameof(VerdictMessages.AllocationReferenceSlower),
            VerdictMessages.AllocationReferenceSlower(12.3, 19.8, Math.Log(19.8 / 12.3)));
        Case(text, nameof(VerdictMessages.ScaledByAllocationReference),
            VerdictMessages.ScaledByAllocationReference(18.2, 10.0, Math.Log(10.0 / 18.2)));
        Case(text, nameof(VerdictMessages.MachineSlower), VerdictMessages.MachineSlower(1_100, 1_390, Math.Log(1_390 / 1_100.0)));
        Case(text, nameof(VerdictMessages.MachineFaster), VerdictMessages.MachineFaster(1_100, 880, Math.Log(880 / 1_100.0)));
        Case(text, nameof(VerdictMessages.BranchyCodeSlower),
            VerdictMessages.BranchyCodeSlower(
                414, 660, Math.Log(660 / 414.0), Math.Log(660 / 414.0), null, 1.5 * (Math.Log(660 / 414.0) - Math.Log(1.04))));
        double beyond = Math.Log(2_059 / 1_061.0) - Math.Log(1_480 / 1_300.0);
        Case(text, "BranchyCodeSlower: beyond a slower core loop, a body that did not follow it",
            VerdictMessages.BranchyCodeSlower(1_061, 2_059, Math.Log(2_059 / 1_061.0), beyond, -0.08, 0.52 * (beyond - Math.Log(1.04))));
        Case(text, nameof(VerdictMessages.BranchyCodeFaster), VerdictMessages.BranchyCodeFaster(660, 414, Math.Log(414 / 660.0)));
        Case(text, "OtherProcessesBusy: one core of two", VerdictMessages.OtherProcessesBusy(1.0, 2, 1.15));
        Case(text, "OtherProcessesBusy: more than the machine has", VerdictMessages.OtherProcessesBusy(3.1, 4, 1.155));
        Case(text, nameof(VerdictMessages.OtherProcessesBusyAsRecorded), VerdictMessages.OtherProcessesBusyAsRecorded(1.02, 0.97, 2, 1.061));
        Case(text, nameof(VerdictMessages.AtMostInAll), VerdictMessages.AtMostInAll(Math.Log(2.5)));
        Case(text, nameof(VerdictMessages.AsEarlierBranchyState), VerdictMessages.AsEarlierBranchyState(Math.Log(1.15)));
        Case(text, nameof(VerdictMessages.ChangeThresholdOutOfRange), VerdictMessages.ChangeThresholdOutOfRange());
        Case(text, nameof(VerdictMessages.ConfidenceOutOfRange), VerdictMessages.ConfidenceOutOfRange());
        Case(text, nameof(VerdictMessages.CohensDGateOutOfRange), VerdictMessages.CohensDGateOutOfRange());

        Approvals.Verify(text.ToString(), nameof(VerdictMessages));
    }

    private static void Case(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
