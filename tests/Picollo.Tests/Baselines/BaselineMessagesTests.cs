using System.Text;
using Picollo.Baselines;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// Every notice of a judgement and of a recording (<see cref="BaselineMessages"/>, issue 28) in real situations, as a
/// stored expectation: a change to any of these sentences is a reviewed diff of <c>Approved/BaselineMessages.approved.md</c>.
/// </summary>
public sealed class BaselineMessagesTests
{
    private const string WarmupNote =
        "Warmup stopped at half the time budget (250 ms) while methods were still being JIT-compiled in the process: the body may "
        + "not have reached its final optimized code. A longer TimeBudget gives the JIT more time.";

    private const string Regressed = "tsc P10 +24.1% (1,062 → 1,318 ticks/op), z = 6.3, Cohen's d = 2.9, detects ≥ 9.5%: regressed";
    private const string PassedAgain = "tsc P10 +1.2% (1,062 → 1,075 ticks/op), z = 0.3, Cohen's d = 0.1, detects ≥ 9.5%: pass";
    private const string PassedOnBranchyState = "tsc P10 +100.4% (507.1 → 1,016.3 ticks/op), z = 0.0, Cohen's d = 0.0, detects ≥ 170.9%, "
        + "allowing +150% (the slowest level recorded in 4 processes, +49%; a reference word count 590 → 903 ns per 1,000 characters, "
        + "53% more than the reference loop, up to +68%; at most +150% in all): pass";

    private const string FreshRegressed = "tsc P10 +101.7% (507.1 → 1,022.7 ticks/op), z = 11.8, Cohen's d = 99.8, detects ≥ 62.3%, "
        + "allowing +49% (the slowest level recorded in 4 processes, +49%): regressed";

    private const string FreshPass = "tsc P10 +2.0% (1,062 → 1,083 ticks/op), z = 0.5, Cohen's d = 0.2, detects ≥ 9.5%: pass";

    [Fact]
    public void EveryNotice_ReadsAsItsSituation()
    {
        var text = new StringBuilder();
        Case(text, nameof(BaselineMessages.PairedWorker), BaselineMessages.PairedWorker());
        Case(text, "MeasuredAgainForFinalCode: the second measurement ran the final code",
            BaselineMessages.MeasuredAgainForFinalCode(WarmupNote, thisOneDid: true));
        Case(text, "MeasuredAgainForFinalCode: neither did", BaselineMessages.MeasuredAgainForFinalCode(WarmupNote, thisOneDid: false));
        Case(text, nameof(BaselineMessages.RecordedFromCodeNotFinal),
            BaselineMessages.RecordedFromCodeNotFinal("The baseline entry", WarmupNote, "tsc, task-clock", "allocated-bytes", null));
        Case(text, "RecordedFromCodeNotFinal: no exact counter, this machine's earlier time kept",
            BaselineMessages.RecordedFromCodeNotFinal("The received entry", WarmupNote, "tsc", string.Empty, "2026-11-20 09:14 UTC"));
        Case(text, nameof(BaselineMessages.RecordedExactFromCodeNotFinal),
            BaselineMessages.RecordedExactFromCodeNotFinal("The baseline entry", WarmupNote, "allocated-bytes"));
        Case(text, nameof(BaselineMessages.NotAddedFromCodeNotFinal), BaselineMessages.NotAddedFromCodeNotFinal(WarmupNote));
        Case(text, "NotFinalMeasurementsAgreeWithNone: some", BaselineMessages.NotFinalMeasurementsAgreeWithNone(2, 5));
        Case(text, "NotFinalMeasurementsAgreeWithNone: all", BaselineMessages.NotFinalMeasurementsAgreeWithNone(5, 5));
        string busyVerdict = "tsc P10 +9.0% (1,062 → 1,158 ticks/op), z = 0.4, Cohen's d = 0.0, detects ≥ 24.6%, allowing +15% "
            + "(other processes used 1.00 of 2 cores, up to +15%): pass";
        Case(text, "JudgedWithConditionsAllowance: one measurement", BaselineMessages.JudgedWithConditionsAllowance(1, busyVerdict));
        Case(text, "JudgedWithConditionsAllowance: measured again twice", BaselineMessages.JudgedWithConditionsAllowance(3, busyVerdict));
        Case(text, nameof(BaselineMessages.RecordedAtFastLevel), BaselineMessages.RecordedAtFastLevel(1.31, 3));
        Case(text, nameof(BaselineMessages.RecordedInSlowerBranchyState), BaselineMessages.RecordedInSlowerBranchyState(903.4, 741.2, 0.04, 2));
        Case(text, nameof(BaselineMessages.RecordedInSlowBranchyStateOnly), BaselineMessages.RecordedInSlowBranchyStateOnly(1.53, 7));
        Case(text, "RecordedAtSlowLevel: a busy machine", BaselineMessages.RecordedAtSlowLevel(1.42, 7, 64));
        Case(text, "RecordedAtSlowLevel: the load unknown", BaselineMessages.RecordedAtSlowLevel(1.42, 7, double.NaN));
        Case(text, "RecordedAtSlowLevel: a quiet machine", BaselineMessages.RecordedAtSlowLevel(1.79, 7, 0.09));
        Case(text, nameof(BaselineMessages.RecordedInFewerProcesses),
            BaselineMessages.RecordedInFewerProcesses(3, 4, "the fresh process exited with code 1 before it measured."));
        Case(text, nameof(BaselineMessages.RecordedWithNoSpread), BaselineMessages.RecordedWithNoSpread(7));
        Case(text, nameof(BaselineMessages.InvalidRecordingSpacing), BaselineMessages.InvalidRecordingSpacing("1s", TimeSpan.FromSeconds(5)));
        Case(text, nameof(BaselineMessages.MeasuredLevelsInThisProcess), BaselineMessages.MeasuredLevelsInThisProcess(3, 1.5));
        Case(text, "RecordedAcrossProcesses: every level joined",
            BaselineMessages.RecordedAcrossProcesses(4, 4, 2, "tsc levels spread 1.368×", []));
        Case(text, "RecordedAcrossProcesses: a process left out",
            BaselineMessages.RecordedAcrossProcesses(
                4, 3, 2, "tsc levels spread 1.12×", ["process 3: other processes used 1.02 of 2 cores while it measured"]));
        Case(text, "WideSpread: four processes", BaselineMessages.WideSpread("tsc", 1.37, 4, 0.47));
        Case(text, "WideSpread: one process", BaselineMessages.WideSpread("tsc", 1.3, 1, 0.3));
        Case(text, "MeasuredTwice: confirmed", BaselineMessages.MeasuredTwice(Regressed, confirmed: true, regressedAgain: true, Regressed));
        Case(text, "MeasuredTwice: regressed again on code that was not final",
            BaselineMessages.MeasuredTwice(Regressed, confirmed: false, regressedAgain: true, Regressed));
        Case(text, "MeasuredTwice: not confirmed",
            BaselineMessages.MeasuredTwice(Regressed, confirmed: false, regressedAgain: false, PassedAgain));
        Case(text, nameof(BaselineMessages.ConfirmedBySecondMeasurement), BaselineMessages.ConfirmedBySecondMeasurement(Regressed));
        Case(text, nameof(BaselineMessages.NotFailingOnCodeNotFinal),
            BaselineMessages.NotFailingOnCodeNotFinal(Regressed, Regressed, WarmupNote));
        Case(text, nameof(BaselineMessages.NotFailingOnUnconfirmed), BaselineMessages.NotFailingOnUnconfirmed(Regressed, PassedAgain));
        Case(text, nameof(BaselineMessages.FreshProcessCouldNotMeasure),
            BaselineMessages.FreshProcessCouldNotMeasure("the test adapter cannot start a fresh process here."));
        Case(text, "ConfirmedByFreshProcesses: one fresh process", BaselineMessages.ConfirmedByFreshProcesses(1, 1, gross: false));
        Case(text, "ConfirmedByFreshProcesses: one fresh process, twice beyond the band",
            BaselineMessages.ConfirmedByFreshProcesses(1, 1, gross: true));
        Case(text, "ConfirmedByFreshProcesses: three fresh processes", BaselineMessages.ConfirmedByFreshProcesses(3, 3, gross: false));
        Case(text, "ConfirmedByFreshProcesses: none could tell", BaselineMessages.ConfirmedByFreshProcesses(3, 0, gross: false));
        Case(text, "ConfirmedByFreshProcesses: some could tell", BaselineMessages.ConfirmedByFreshProcesses(3, 2, gross: false));
        Case(text, "NotFailingAfterFreshProcess: the first fresh process",
            BaselineMessages.NotFailingAfterFreshProcess(["tsc"], 1, FreshPass));
        Case(text, "NotFailingAfterFreshProcess: the third fresh process",
            BaselineMessages.NotFailingAfterFreshProcess(["tsc", "cycles"], 3, Regressed + "; then " + Regressed + "; then " + FreshPass));
        Case(text, "MeasuredInFreshProcesses: the first fresh process", BaselineMessages.MeasuredInFreshProcesses(1, FreshPass));
        Case(text, "MeasuredInFreshProcesses: the second fresh process",
            BaselineMessages.MeasuredInFreshProcesses(2, Regressed + "; then " + FreshPass));
        Case(text, nameof(BaselineMessages.FreshProcessCouldNotLook),
            BaselineMessages.FreshProcessCouldNotLook("the test adapter cannot start a fresh process here."));
        Case(text, "LookedPastBranchyState: a fresh process passed it", BaselineMessages.LookedPastBranchyState(1, cleared: true, FreshPass));
        Case(text, "LookedPastBranchyState: none could tell",
            BaselineMessages.LookedPastBranchyState(3, cleared: false, PassedOnBranchyState + "; then " + PassedOnBranchyState + "; then " + PassedOnBranchyState));
        Case(text, "RegressedPastBranchyState: every fresh process",
            BaselineMessages.RegressedPastBranchyState(PassedOnBranchyState, 2, 2, FreshRegressed + "; then " + FreshRegressed));
        Case(text, "RegressedPastBranchyState: some could not tell",
            BaselineMessages.RegressedPastBranchyState(PassedOnBranchyState, 3, 2, FreshRegressed + "; then " + PassedOnBranchyState + "; then " + FreshRegressed));
        Case(text, nameof(BaselineMessages.RecordedFromSteadyMoment),
            BaselineMessages.RecordedFromSteadyMoment(2, "tsc P10 199.9 and 199.9"));
        string why = "the closest two differ by 6.3% on tsc P10 (1,062 and 1,129), more than the 2.1% the verdicts allow";
        string unsteady = BaselineMessages.RecordedOnUnsteadyMachine(5, why, "tsc P10 1,062 and 1,129", busy: false);
        Case(text, "RecordedOnUnsteadyMachine: quiet", unsteady);
        Case(text, "RecordedOnUnsteadyMachine: beside busy processes",
            BaselineMessages.RecordedOnUnsteadyMachine(5, why, "tsc P10 1,062 and 1,129", busy: true));
        Case(text, nameof(BaselineMessages.UnsteadyRecordingNotice),
            BaselineMessages.UnsteadyRecordingNotice(unsteady));
        Case(text, nameof(BaselineMessages.BlindBaseline), BaselineMessages.BlindBaseline("tsc", BaselineStatistic.P10, 0.123, 0.08));
        Case(text, "BusyMeasurementsAgreeWithNone: one of them",
            BaselineMessages.BusyMeasurementsAgreeWithNone(1, 5, 1.02, 1.02, 2));
        Case(text, "BusyMeasurementsAgreeWithNone: all of them",
            BaselineMessages.BusyMeasurementsAgreeWithNone(5, 5, 0.61, 1.37, 2));
        Case(text, "ClosestTwoDiffer: all quiet",
            BaselineMessages.ClosestTwoDiffer(5, anyBusy: false, 6.3, "tsc", BaselineStatistic.P10, 1_062, 1_129, 2.1));
        Case(text, "ClosestTwoDiffer: some beside busy processes",
            BaselineMessages.ClosestTwoDiffer(3, anyBusy: true, 6.3, "tsc", BaselineStatistic.P10, 1_062, 1_129, 2.1));
        Case(text, nameof(BaselineMessages.ReplacedNotExtended),
            BaselineMessages.ReplacedNotExtended("allocated-bytes P50 +100.0% (24 → 48 bytes/op): regressed (exact)"));
        Case(text, nameof(BaselineMessages.NotExtendedOtherCounters),
            BaselineMessages.NotExtendedOtherCounters("allocated-bytes, tsc", "allocated-bytes, cycles, instructions, tsc"));
        Case(text, nameof(BaselineMessages.NotExtendedOtherConditions),
            BaselineMessages.NotExtendedOtherConditions("other processes used 1.02 of 2 cores while it measured"));
        Case(text, "Extended: within the recorded levels", BaselineMessages.Extended("tsc 1.368×", withinLevels: true));
        Case(text, "Extended: the spread widened", BaselineMessages.Extended("tsc 1.52×", withinLevels: false));
        Case(text, nameof(BaselineMessages.LevelRanOtherCode), BaselineMessages.LevelRanOtherCode("allocated-bytes", 24, 40, "bytes"));
        Case(text, nameof(BaselineMessages.LevelBesideBusyProcesses), BaselineMessages.LevelBesideBusyProcesses(1.02, 2));
        Case(text, nameof(BaselineMessages.LevelInSlowBranchyState), BaselineMessages.LevelInSlowBranchyState(414.2, 662.8));
        Case(text, nameof(BaselineMessages.LevelAtOtherMachineSpeed), BaselineMessages.LevelAtOtherMachineSpeed(1_082.4, 1_291.7));
        Case(text, nameof(BaselineMessages.SimulationWorker), BaselineMessages.SimulationWorker());
        Case(text, nameof(BaselineMessages.SimulatedCountDiffered), BaselineMessages.SimulatedCountDiffered("sim-instructions", 3_325, 3_391.5, 0.001));
        Case(text, nameof(BaselineMessages.SimulatedCountsDiffer), BaselineMessages.SimulatedCountsDiffer(
            [BaselineMessages.SimulatedCountDiffered("sim-instructions", 3_325, 3_391.5, 0.001),
                BaselineMessages.SimulatedCountDiffered("sim-branch-misses", 29.02, 31.4, 0.01)]));
        Case(text, nameof(BaselineMessages.SimulatedRepeatFailed), BaselineMessages.SimulatedRepeatFailed(
            "The simulation worker for WordsPerf.Count in TextKit.PerfTests.dll did not finish within 300 s and was stopped: nothing was recorded."));
        Case(text, nameof(BaselineMessages.SimulatedCountsRepeated), BaselineMessages.SimulatedCountsRepeated(3));
        Case(text, nameof(BaselineMessages.BaselineUpdated), BaselineMessages.BaselineUpdated(
            "/src/TextKit.PerfTests/WordsPerf.Count.perf.json",
            ["amd-epyc.x64.net10.0.12.5f33ee1e", "simulated-callgrind-3-19-0.x64.net10.0.12.24ece60d"]));

        Approvals.Verify(text.ToString(), nameof(BaselineMessages));
    }

    private static void Case(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
