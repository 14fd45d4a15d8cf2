using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Engine;

namespace Picollo.Baselines.Judging;

/// <summary>
/// The stages of a judgement that ask fresh processes (docs/VERDICTS.md, "Levels"): a time regression confirmed in this
/// process may be this process's level, and a time pass inside the host's branchy state may be that state's; a fresh
/// process draws both anew. This class measures the processes, spaced out, and hands their verdicts to one vote
/// (<see cref="FreshProcessVote"/>), which decides.
/// </summary>
/// <param name="j">The judgement.</param>
internal sealed class FreshProcessLooks(Judgement j)
{
    /// <summary>
    /// Asks fresh processes about the time regressions confirmed in this process: the first whose pass clears a counter ends
    /// it; unchanged code fails only when every one sits at a level the recording missed. When a process cannot run, the
    /// measurements so far decide.
    /// </summary>
    public void Confirm()
    {
        string[] pending = [.. j.Confirmed.Where(name => j.Current.Find(name) is { } c && KnownCounters.Of(c.Name, c.Kind).IsTimeLike)];
        if (pending.Length == 0 || j.Options.FreshProcesses is null)
            return;

        FreshProcessVote vote = Ask(
            new FreshProcessVote(FreshQuestion.Regression, j.CheckResult.Verdicts, pending, j.Current, j.Policy),
            EvidenceOrigin.FreshConfirmation, BaselineMessages.FreshProcessCouldNotMeasure);
        if (vote.Cleared.Count > 0)
            j.Unconfirm(vote.Cleared, vote.Seen);
        if (!vote.Stands)
            return;

        string sentence = BaselineMessages.ConfirmedByFreshProcesses(vote.Seen.Count, vote.Confirming, vote.IsGross);
        j.Remeasurements.Add($"{sentence} ({string.Join("; then ", vote.Seen)}).");
        j.Confirmation += $" {sentence}.";
    }

    /// <summary>
    /// Asks fresh processes about a time verdict that passed here only inside what the host's slow branchy state allowed:
    /// a process draws that state at its start. Two that regress fail it; the first that passes without such a bound ends it.
    /// </summary>
    public void LookPastBranchyState()
    {
        if (j.Store.IsUpdateMode || j.Options.FreshProcesses is null || j.CheckResult.Outcome != BaselineOutcome.Pass
            || !j.Judged.Run.RanFinalCode)
            return;

        Dictionary<string, CounterVerdict> here = j.CheckResult.Verdicts
            .Where(v => v.Status == CounterVerdictStatus.Pass && VerdictDecision.PassedOnBranchyState(v, j.Current, j.Policy))
            .ToDictionary(static v => v.Counter, StringComparer.Ordinal);
        if (here.Count == 0)
            return;

        FreshProcessVote vote = Ask(
            new FreshProcessVote(FreshQuestion.PassOnBranchyState, j.CheckResult.Verdicts, here.Keys, j.Current, j.Policy),
            EvidenceOrigin.PastBranchyState, BaselineMessages.FreshProcessCouldNotLook);
        if (vote.Seen.Count == 0)
            return;
        string all = string.Join("; then ", vote.Seen);
        if (vote.Failing.Count == 0)
        {
            j.Remeasurements.Add(BaselineMessages.LookedPastBranchyState(vote.Seen.Count, vote.Cleared.Count > 0, all));
            return;
        }

        // The fresh processes' first regression stands for the counter: the verdict, the report and the failure show it, and
        // the diff table the numbers of that process, not this one's pass beside them.
        var failed = vote.Failing.ToDictionary(static f => f.Verdict.Counter, StringComparer.Ordinal);
        List<CounterVerdict> verdicts = [.. j.CheckResult.Verdicts.Select(v => failed.TryGetValue(v.Counter, out var f) ? f.Verdict : v)];
        j.Current = j.Current with
        {
            Counters = [.. j.Current.Counters.Select(c => failed.TryGetValue(c.Name, out var f) ? f.Measured : c)],
        };
        string passedHere = string.Join("; ", vote.Failing.Select(f => here[f.Verdict.Counter].Text));
        j.Confirmed = [.. vote.Failing.Select(static f => f.Verdict.Counter)];
        j.Confirmation = BaselineMessages.RegressedPastBranchyState(passedHere, vote.Seen.Count, vote.Regressed, all);
        j.Remeasurements.Add(j.Confirmation);
        j.CheckResult = j.Store.Rejudge(j.CheckResult, verdicts);
    }

    // Asks fresh processes, one after the other, while the vote asks for them.
    private FreshProcessVote Ask(FreshProcessVote vote, EvidenceOrigin origin, Func<string, string> couldNot)
    {
        for (int process = 1; vote.Asks(process); process++)
        {
            (BaselineRecord? level, bool stop) = MeasureFreshProcess(origin, process, couldNot);
            if (stop)
                break;
            if (level is not null)
                vote.Add(FreshVerdicts(level, vote.Pending), level);
        }

        return vote;
    }

    // Measures fresh process number `process` (the second and later spaced out: a host level that slowed a body for 8-25 s
    // holds through a process and those right after it) and returns its faster measurement. When it has none, says why and
    // whether to stop asking: a process that ran only code that was not final says nothing either way, and the next may.
    private (BaselineRecord? Level, bool Stop) MeasureFreshProcess(EvidenceOrigin origin, int process, Func<string, string> couldNot)
    {
        FreshProcessMeasurement measured = j.Measurements.FreshProcess(origin, j.Judged, process > 1 ? j.Space() : TimeSpan.Zero);
        if (measured.Failure is null && LevelRecording.Fastest(measured.Records, j.Current, j.Policy) is { } level)
            return (level, false);
        j.Remeasurements.Add(couldNot(measured.Failure ?? "it wrote no measurement"));
        return (null, !measured.RanNoFinalCode);
    }

    // A fresh process's verdicts on the counters still pending, in its own conditions: a new moment, so not allowed what
    // lingers of this process's branchy state (EarlierLooks.BranchyAllowance); what this judgement learned of the body's following holds.
    private CounterVerdict[] FreshVerdicts(BaselineRecord level, IReadOnlyList<string> pending) =>
    [
        .. j.Store.Compare(j.BaselinePath, j.Machine, level, j.FolderProblem, new EarlierLooks(null, j.Followed()))
            .Where(v => pending.Contains(v.Counter, StringComparer.Ordinal)),
    ];
}
