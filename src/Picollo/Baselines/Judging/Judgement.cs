using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Measurement;

namespace Picollo.Baselines.Judging;

/// <summary>
/// One judgement as a script of stages (docs/VERDICTS.md): measure final code, record what is written, check, measure
/// again in other conditions, confirm, conclude. The state the stages share is the measurement being judged, its record
/// and the check against the baseline; the recording's levels (<see cref="LevelRecording"/>) and the fresh processes'
/// votes (<see cref="FreshProcessLooks"/>) are stages of their own, and what the evidence means is decided by
/// <see cref="VerdictDecision"/> and <see cref="FreshProcessVote"/>. The script
/// measures nothing itself: each measurement it asks for comes from the evidence (<see cref="Measurements"/>), and
/// <see cref="JudgementDecision.Decide"/> runs it over the evidence until it asks for one the evidence does not hold.
/// Each check is a plan (<see cref="BaselineCheckPlan"/>): the driver writes the judged measurement's plan once, at the
/// end (<see cref="Plan"/>, <see cref="Finish"/>).
/// </summary>
/// <param name="inputs">The baseline, the options and the machine.</param>
/// <param name="measurements">The evidence, answering the measurements the stages ask for.</param>
internal sealed class Judgement(JudgementInputs inputs, EvidenceReplay measurements)
{
    private readonly PerfResult _first = measurements.Test;
    private readonly SimulatedRepeat _simulated = new();
    private int _conditionMeasurements = 1;
    private BaselineCheckResult? _check;

    // What the judged measurement's check writes at the end, and the result it stood for before any stage re-judged it.
    private BaselineCheckPlan? _plan;
    private BaselineCheckResult? _planned;

    // Per time counter, the widest part of a band the host's branchy state made in any measurement of this judgement so far
    // (EarlierLooks.BranchyAllowance).
    private readonly Dictionary<string, double> _widest = new(StringComparer.Ordinal);

    // This judgement's measurements in this process, in order, and whether each teaches how far the body follows the branchy
    // reference (code that was not final moves for reasons of its own), and which is judged now (BranchFollowing).
    private readonly List<(BaselineRecord Record, bool Teaches)> _measured = [];
    private int _judgedIndex;
    private Dictionary<string, BranchFollowing> _followed = new(StringComparer.Ordinal);

    // The wait between fresh processes, and whether it was waited: a value of the variable that is not valid is said only
    // where it mattered.
    private readonly (TimeSpan Spacing, string? Problem) _spacing = inputs.Options.ResolveFreshProcessSpacing();
    private bool _spaced;

    // What the judgement's earlier measurements showed, which the judged one was judged with (null before a second look).
    private EarlierLooks? _judgedLooks;

    // What the last check wrote for a measurement whose code was not final, or null (CheckAndPlan).
    private NotFinalRecord? _notFinal;

    /// <summary>Gets the baseline file's path.</summary>
    public string BaselinePath => inputs.BaselinePath;

    /// <summary>Gets why the baseline folder cannot be used, or <see langword="null"/>.</summary>
    public string? FolderProblem => inputs.FolderProblem;

    /// <summary>Gets how the baseline is judged and written.</summary>
    public BaselineStoreOptions Options => inputs.Options;

    /// <summary>Gets the rules.</summary>
    public VerdictPolicy Policy => inputs.Options.VerdictPolicy;

    /// <summary>Gets this machine.</summary>
    public MachineFingerprint Machine => inputs.Machine;

    /// <summary>Gets the store that compares (the driver writes through it).</summary>
    public BaselineStore Store => inputs.Store;

    /// <summary>Gets the machine's recent reference speeds.</summary>
    public MachineSpeedMemory SpeedMemory => inputs.SpeedMemory;

    /// <summary>Gets the measurements the stages ask for, answered from the evidence.</summary>
    public EvidenceReplay Measurements => measurements;

    /// <summary>Gets what the judged measurement's check writes, or <see langword="null"/> when nothing is written.</summary>
    public BaselineCheckPlan? Plan => _plan;

    /// <summary>Gets or sets the measurement judged now.</summary>
    public PerfResult Judged { get; set; } = measurements.Test;

    /// <summary>Gets or sets the judged measurement's record (a recording's combined one).</summary>
    public BaselineRecord Current { get; set; } = BaselineRecord.FromResult(measurements.Test);

    /// <summary>Gets the notices the test shows.</summary>
    public List<string> Notices { get; } = [];

    /// <summary>Gets what was measured again, and why, in order.</summary>
    public List<string> Remeasurements { get; } = [];

    /// <summary>Gets or sets the sentence that says what confirmed a regression, or <see langword="null"/>.</summary>
    public string? Confirmation { get; set; }

    /// <summary>Gets or sets the counters whose regression was confirmed.</summary>
    public IReadOnlyList<string> Confirmed { get; set; } = [];

    /// <summary>Gets the counters whose regression a later measurement did not confirm.</summary>
    public IReadOnlyList<string> Unconfirmed { get; private set; } = [];

    /// <summary>Gets or sets the check of the judged measurement.</summary>
    public BaselineCheckResult CheckResult
    {
        get => _check ?? throw new InvalidOperationException("Check() runs before the stages that read it.");
        set => _check = value;
    }

    /// <summary>
    /// The wait before a fresh process, or a level in this process, after another: a host level lasts seconds to minutes.
    /// </summary>
    /// <returns>The wait.</returns>
    public TimeSpan Space()
    {
        _spaced = true;
        return _spacing.Spacing;
    }

    /// <summary>Gets the wait between fresh processes.</summary>
    public TimeSpan Spacing => _spacing.Spacing;

    /// <summary>A copy of what the looks showed of the body's following, for a record to carry; null when they showed nothing.</summary>
    /// <returns>The copy.</returns>
    public Dictionary<string, BranchFollowing>? Followed() =>
        _followed.Count == 0 ? null : new Dictionary<string, BranchFollowing>(_followed, StringComparer.Ordinal);

    /// <summary>The stage that makes sure the judged measurement ran the body's final code.</summary>
    public void MeasureFinalCode()
    {
        Judged = NotFinalRecord.FinalCode(_first, Remeasurements, from => measurements.ThisProcess(EvidenceOrigin.FinalCode, from));
        Current = BaselineRecord.FromResult(Judged);
    }

    /// <summary>
    /// What is written becomes the reference of every later verdict: a baseline (update mode) or a received file (a missing
    /// baseline, an improvement) is recorded from a steady moment at the machine's fast level, across processes.
    /// </summary>
    public void RecordIfWriting()
    {
        IReadOnlyList<CounterVerdict> firstLook = Store.Compare(BaselinePath, Machine, Current, FolderProblem);
        bool writes = Store.IsUpdateMode || !firstLook.All(BaselineStore.IsPassing);
        if (!writes || (!Store.IsUpdateMode && firstLook.Any(static v => v.IsRegression)) || !Judged.CanRemeasure)
            return;

        _simulated.Take(Judged, Current, Policy, Remeasurements, Measurements.SimulateAgain);
        new LevelRecording(this).Record();
    }

    /// <summary>The stage that checks the judged measurement against the baseline and writes what the outcome calls for.</summary>
    public void Check()
    {
        // PICOLLO_UPDATE_BASELINES=add joins this process's time to the entry's levels: code that was not final is no level.
        if (Store.IsAddingProcessLevels && !Judged.Run.RanFinalCode)
        {
            string message = BaselineMessages.NotAddedFromCodeNotFinal(string.Join(" ", Judged.Run.Notes));
            _check = new BaselineCheckResult(BaselineOutcome.NotJudged, [], Path.GetFullPath(BaselinePath), null, message);
            Notices.Add(message);
            return;
        }

        _check = CheckAndPlan(Judged, Current, _judgedLooks);
        Remember(_check.Verdicts);
        Look(Judged);
        MarkJudged();
    }

    /// <summary>
    /// The machine at another speed than at recording, or busy with other processes: a host's slow mode and a neighbour's
    /// burst pass within seconds, so up to two more looks before time is judged with what those conditions allow. The
    /// measurement judged in the best conditions is kept.
    /// </summary>
    public void RemeasureInOtherConditions()
    {
        for (int attempt = 0; attempt < Policy.Judgement.ConditionAttempts && !Store.IsUpdateMode && Judged.CanRemeasure; attempt++)
        {
            if (CheckResult.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is not { } changed
                || CheckResult.Verdicts.Any(static v => v.IsRegression))
                return;

            _conditionMeasurements++;
            PerfResult again = measurements.ThisProcess(EvidenceOrigin.OtherConditions, Judged);
            Look(again);
            BaselineRecord record = BaselineRecord.FromResult(again);
            EarlierLooks looks = LaterLooks();
            // Looked at first, written only when kept: the received file is the measurement judged.
            IReadOnlyList<CounterVerdict> verdicts = Store.Compare(BaselinePath, Machine, record, FolderProblem, looks);
            Remember(verdicts);
            Remeasurements.Add($"Measured again in other conditions: {changed.Text}.");
            if (VerdictDecision.KeepsLaterConditions(CheckResult.Verdicts, verdicts))
            {
                (Judged, Current, _judgedLooks, _check) = (again, record, looks, CheckAndPlan(again, record, looks));
                MarkJudged();
            }
        }
    }

    /// <summary>
    /// A regression is confirmed by a second measurement when it could be noise; a time regression then by fresh processes
    /// too, where the adapter can start them.
    /// </summary>
    public void Confirm()
    {
        if (Store.IsUpdateMode
            || !VerdictDecision.NeedsConfirmation(CheckResult, Current, Judged.Run.RanFinalCode, Judged.CanRemeasure, Policy))
            return;

        ConfirmInProcess();
        if (Confirmed.Count > 0)
            new FreshProcessLooks(this).Confirm();
    }

    /// <summary>The stage that asks fresh processes about a time verdict that passed only on the host's branchy state.</summary>
    public void LookPastBranchyState() => new FreshProcessLooks(this).LookPastBranchyState();

    /// <summary>
    /// Says what was done and returns the judgement, once the driver wrote <see cref="Plan"/>: the check as the stages left
    /// it, its files and any write failure the write's.
    /// </summary>
    /// <param name="written">What writing <see cref="Plan"/> returned; <see langword="null"/> when there was no plan.</param>
    /// <returns>The judgement.</returns>
    public BaselineJudgement Finish(BaselineCheckResult? written)
    {
        BaselineCheckResult check = written is null || ReferenceEquals(CheckResult, _planned)
            ? written ?? CheckResult
            : Store.Rejudge(written, CheckResult.Verdicts);
        if ((check.Outcome == BaselineOutcome.Updated || check.ReceivedPath is not null) && _notFinal is { } notFinal)
        {
            string entry = check.Outcome == BaselineOutcome.Updated ? "The baseline entry" : "The received entry";
            Notices.Add(notFinal.Notice(entry, string.Join(" ", Judged.Run.Notes)));
        }

        if (check.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is { } widened)
            Notices.Add(BaselineMessages.JudgedWithConditionsAllowance(_conditionMeasurements, widened.Text));
        else if (check.Verdicts.FirstOrDefault(static v => v.Status == CounterVerdictStatus.Inconclusive) is { } inconclusive)
            Notices.Add(inconclusive.Text);

        switch (check.Outcome)
        {
            case BaselineOutcome.Notice:
                Notices.Add(check.Message);
                break;
            case BaselineOutcome.Updated when Store.IsAddingProcessLevels && check.UpdateNote is { } added:
                // What extending the entry did: widened the spread, matched it (nothing new), or replaced the entry.
                Notices.Add(added);
                break;
            case BaselineOutcome.Updated:
                Notices.Add(BaselineMessages.BaselineUpdated(
                    check.BaselinePath, [.. BaselineEntry.Split(Machine, Current).Select(static e => e.Machine.Id)]));
                break;
            case BaselineOutcome.Pass when check.WriteFailure is not null:
                Notices.Add(check.WriteFailure);
                break;
        }

        if (_spaced && _spacing.Problem is { } spacing)
            Notices.Add(spacing);

        return new BaselineJudgement
        {
            First = _first,
            Judged = Judged,
            Current = Current,
            Check = check,
            Baseline = inputs.Baseline,
            Remeasurement = Remeasurements.Count == 0 ? null : string.Join(" ", Remeasurements),
            Confirmation = Confirmation,
            ConfirmedCounters = Confirmed,
            UnconfirmedCounters = Unconfirmed,
            Notices = Notices,
        };
    }

    /// <summary>
    /// Adds a measurement and learns from those that teach how far each time counter follows the branchy reference. When
    /// that changed, every measurement is allowed the widest branchy part so far, and the judged one is judged again: it may
    /// regress where a follower would not.
    /// </summary>
    /// <param name="measured">The measurement just taken.</param>
    public void Look(PerfResult measured)
    {
        _measured.Add((BaselineRecord.FromResult(measured), measured.Run.RanFinalCode));
        BaselineRecord[] teaching = [.. _measured.Where(static m => m.Teaches).Select(static m => m.Record)];
        var followed = new Dictionary<string, BranchFollowing>(StringComparer.Ordinal);
        foreach (string name in TimeSpread.TimeCounters(Current, Policy))
        {
            BaselineCounter counter = Current.Find(name)!;
            BaselineStatistic statistic = Policy.GetRule(counter.Name, counter.Kind).Statistic;
            if (BranchFollowing.Learn(teaching, name, statistic, Policy.Judgement) is { } learned)
                followed[name] = learned;
        }

        if (followed.Count == _followed.Count && followed.All(f => _followed.GetValueOrDefault(f.Key) == f.Value))
            return;
        _followed = followed;
        _widest.Clear();
        for (int index = 0; index < _measured.Count; index++)
        {
            if (index != _judgedIndex)
            {
                Remember(Store.Compare(BaselinePath, Machine, _measured[index].Record, FolderProblem, new EarlierLooks(null, Followed())));
                continue;
            }

            // The judged measurement keeps its own record (a recording's combined one).
            _judgedLooks = LaterLooks();
            _check = CheckAndPlan(Judged, Current, _judgedLooks);
            Remember(_check.Verdicts);
        }
    }

    /// <summary>Keeps the widest branchy part of each time counter's band.</summary>
    /// <param name="verdicts">A measurement's verdicts.</param>
    public void Remember(IReadOnlyList<CounterVerdict> verdicts)
    {
        foreach (CounterVerdict verdict in verdicts)
        {
            if (verdict.Allowance is { Branchy: > 0 } allowance)
                _widest[verdict.Counter] = Math.Max(_widest.GetValueOrDefault(verdict.Counter), allowance.Branchy);
        }
    }

    /// <summary>Says that a fresh process cleared some confirmed regressions: they pass, unconfirmed.</summary>
    /// <param name="gone">The counters cleared.</param>
    /// <param name="seen">Each fresh process's verdicts.</param>
    public void Unconfirm(IReadOnlyList<string> gone, IReadOnlyList<string> seen)
    {
        string all = string.Join("; then ", seen);
        Confirmed = [.. Confirmed.Except(gone, StringComparer.Ordinal)];
        List<CounterVerdict> verdicts = VerdictDecision.Unconfirm(CheckResult.Verdicts, Confirmed);
        Unconfirmed = [.. verdicts.Where(static v => v.Status == CounterVerdictStatus.Unconfirmed).Select(static v => v.Counter)];
        Notices.Add(BaselineMessages.NotFailingAfterFreshProcess([.. gone], seen.Count, all));
        Remeasurements.Add(BaselineMessages.MeasuredInFreshProcesses(seen.Count, all));
        Confirmation = Confirmed.Count == 0 ? null : ConfirmationOf(verdicts);
        _check = Store.Rejudge(CheckResult, verdicts);
    }

    // What a later measurement is judged with: at least the branchy part the earlier ones of this judgement were allowed,
    // and what they showed of the body's following.
    private EarlierLooks LaterLooks() => new(new Dictionary<string, double>(_widest, StringComparer.Ordinal), Followed());

    // The measurement just looked at is the judged one now.
    private void MarkJudged() => _judgedIndex = _measured.Count - 1;

    // Judges a measurement and plans what the outcome writes (the judged one's plan is written at the end), without the
    // statistical counters of a measurement whose code was not final (NotFinalRecord); a recording whose simulated counts
    // differed between processes writes nothing.
    private BaselineCheckResult CheckAndPlan(PerfResult measured, BaselineRecord record, EarlierLooks? looks)
    {
        record = _simulated.Apply(record);
        if (_simulated.Refusal is { } refusal)
        {
            _notFinal = null;
            IReadOnlyList<CounterVerdict> verdicts = Store.Compare(BaselinePath, Machine, record, FolderProblem, looks);
            BaselineOutcome outcome = Store.IsUpdateMode || verdicts.Any(static v => v.IsRegression)
                ? BaselineOutcome.Fail
                : BaselineOutcome.Notice;
            string message = string.Join('\n', verdicts.Select(static v => v.Text).Append(refusal));
            var result = new BaselineCheckResult(outcome, verdicts, Path.GetFullPath(BaselinePath), null, message, refusal);
            _plan = new BaselineCheckPlan(result.BaselinePath, Machine, verdicts, [], FolderProblem) { Refused = result };
            return _planned = result;
        }

        _notFinal = NotFinalRecord.For(measured, record, inputs.Baseline, Machine, Policy);
        BaselineRecord? written = _notFinal?.Record is { } notFinal ? _simulated.Apply(notFinal) : null;
        _plan = Store.Plan(BaselinePath, Machine, record, FolderProblem, written, looks);
        return _planned = Store.Preview(_plan);
    }

    // The second measurement of a regression decides it: the counters that regressed in both are confirmed, the others
    // pass unconfirmed. It is looked at before the first's verdicts are read: what it shows of the body's following may
    // judge the first again.
    private void ConfirmInProcess()
    {
        PerfResult second = measurements.ThisProcess(EvidenceOrigin.Confirmation, Judged);
        Look(second);
        BaselineCheckResult check = CheckResult;
        BaselineRecord secondRecord = BaselineRecord.FromResult(second);
        EarlierLooks secondLooks = LaterLooks();
        BaselineCheckResult recheck = CheckAndPlan(second, secondRecord, secondLooks);
        Remember(recheck.Verdicts);

        var firstRegressed =
            check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
        bool neitherFinal = !Judged.Run.RanFinalCode && !second.Run.RanFinalCode;
        Confirmed = VerdictDecision.ConfirmedInProcess(check.Verdicts, recheck.Verdicts, neitherFinal);
        List<CounterVerdict> verdicts = VerdictDecision.Unconfirm(recheck.Verdicts, Confirmed);
        Unconfirmed = [.. verdicts.Where(static v => v.Status == CounterVerdictStatus.Unconfirmed).Select(static v => v.Counter)];

        string before = string.Join("; ", check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Text));
        string again = string.Join(
            "; ", recheck.Verdicts.Where(v => firstRegressed.Contains(v.Counter) || v.IsRegression).Select(static v => v.Text));
        bool regressedAgain = recheck.Verdicts.Any(v => v.IsRegression && firstRegressed.Contains(v.Counter));
        Remeasurements.Add(BaselineMessages.MeasuredTwice(before, Confirmed.Count > 0, regressedAgain, again));
        if (Confirmed.Count > 0)
            Confirmation = ConfirmationOf(verdicts);
        else if (regressedAgain)
            Notices.Add(BaselineMessages.NotFailingOnCodeNotFinal(before, again, string.Join(" ", second.Run.Notes)));
        else
            Notices.Add(BaselineMessages.NotFailingOnUnconfirmed(before, again));

        // The second measurement decided the outcome either way: the verdicts, the report and a failure message all show it.
        // Unconfirmed regressions pass; a missing baseline in CI still fails when the policy says so.
        _check = Store.Rejudge(recheck, verdicts);
        Judged = second;
        Current = secondRecord;
        _judgedLooks = secondLooks;
        MarkJudged();
    }

    private static string ConfirmationOf(List<CounterVerdict> verdicts) =>
        BaselineMessages.ConfirmedBySecondMeasurement(
            string.Join("; ", verdicts.Where(static v => v.IsRegression).Select(static v => v.Text)));
}
