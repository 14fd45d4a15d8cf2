using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;

namespace Picollo.Baselines.Judging;

/// <summary>
/// The recording stage of a judgement (docs/VERDICTS.md, "Recording a baseline", "Levels"): what is written is taken from
/// a steady moment, at the machine's fast level, and, in update mode, across fresh processes, so the baseline knows the
/// levels a body's time takes from one process to the next.
/// </summary>
/// <param name="j">The judgement recording.</param>
internal sealed class LevelRecording(Judgement j)
{
    // The notice of a recording that did not reach the machine's fast level in this process (SeekFastLevel), said once the
    // levels of other processes are in.
    private string? _slowLevel;

    /// <summary>Records from a steady moment, at the fast level, across processes; the judgement's measurement and record change.</summary>
    public void Record()
    {
        SteadyRecording recording =
            SteadyRecording.Take(j.Judged, j.Policy, from => j.Measurements.ThisProcess(EvidenceOrigin.SteadyRecording, from));
        j.Judged = recording.Kept;
        j.Current = recording.Record;
        if (recording.Note is not null)
            j.Remeasurements.Add(recording.Note);
        j.Notices.AddRange(recording.Notices);
        // No run of the recording reached the final code: its time is left out of what is written, so the levels of other
        // processes and the machine's fast level have nothing to add to.
        if (!j.Judged.Run.RanFinalCode)
            return;
        // Runs taken before the recording moved to the machine's fast level were taken in the slow one: not levels.
        RecordLevels(SeekFastLevel() ? [] : recording.Others);
        // The levels may have kept a fresh process at the fast level (TimeSpread.Combine): the slow level is said only when
        // the entry written is still at it.
        if (_slowLevel is { } slowLevel
            && j.SpeedMemory.SlowerThanFastest(j.Current) > j.Policy.Judgement.SlowLevel)
            j.Notices.Add(slowLevel);
    }

    /// <summary>The fastest measurement of a process, preferring those not measured beside a busy machine: the process's level.</summary>
    /// <param name="records">The process's measurements.</param>
    /// <param name="current">The judged record, which names the time counters.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>The level, or <see langword="null"/> when there is none.</returns>
    public static BaselineRecord? Fastest(IReadOnlyList<BaselineRecord> records, BaselineRecord current, VerdictPolicy policy)
    {
        string[] time = [.. TimeSpread.TimeCounters(current, policy)];
        BaselineRecord[] quiet = [.. records.Where(r => !MachineLoad.IsBusy(r.OtherProcessesCores, policy.Judgement.Cores))];
        return (quiet.Length > 0 ? quiet : records).MinBy(r => TimeSpread.Score(r, time, policy));
    }

    // A recording whose references ran slower than the machine's fastest remembered level (an allocation episode, a slow
    // host mode) is measured again, 1.5 s apart, until one runs at the fast level: verdicts scale time by the
    // references, but a baseline at the slow level asks every later verdict to trust the scaling in the riskier
    // direction (a body that follows its reference less than fully would look slower).
    private bool SeekFastLevel()
    {
        MachineSpeedMemory memory = j.SpeedMemory;
        double slower = memory.SlowerThanFastest(j.Current);
        if (slower <= j.Policy.Judgement.SlowLevel)
            return false;

        double busiest = j.Current.OtherProcessesCores;
        for (int attempt = 0; attempt < j.Policy.Judgement.FastLevelAttempts; attempt++)
        {
            PerfResult again = j.Measurements.ThisProcess(EvidenceOrigin.FastLevel, j.Judged, j.Options.FastLevelSpacing);
            BaselineRecord record = BaselineRecord.FromResult(again);
            // The busiest reading decides the notice's advice; one that could not be read (NaN compares false) leaves it.
            if (double.IsNaN(busiest) || record.OtherProcessesCores > busiest)
                busiest = record.OtherProcessesCores;
            bool busy = MachineLoad.IsBusy(record.OtherProcessesCores, j.Policy.Judgement.Cores);
            if (memory.SlowerThanFastest(record) <= j.Policy.Judgement.SlowLevel && !busy)
            {
                if (KeepsSlowerBranchyState(memory, record, attempt + 2))
                    return false;
                j.Remeasurements.Add(BaselineMessages.RecordedAtFastLevel(slower, attempt + 2));
                j.Judged = again;
                j.Current = record with
                {
                    Counters = [.. record.Counters.Select(c => c with { Recording = j.Current.Find(c.Name)?.Recording })],
                };
                return true;
            }
        }

        // Slower on the branchy reference only, on a quiet machine, the advice differs: waiting for quiet changes nothing,
        // and a body that does not follow the host's branchy state is served by a recording in it (KeepsSlowerBranchyState).
        // A measurement turned down as busy may have reached the fast level: then quiet is the advice.
        _slowLevel = SlowOnTheBranchyReferenceOnly(memory) && !MachineLoad.IsBusy(busiest)
            ? BaselineMessages.RecordedInSlowBranchyStateOnly(slower, j.Policy.Judgement.FastLevelAttempts + 1)
            : BaselineMessages.RecordedAtSlowLevel(slower, j.Policy.Judgement.FastLevelAttempts + 1, busiest);
        return false;
    }

    // Whether the recording's core loop and allocation reference ran at the machine's fast level, so that only the branchy
    // reference can have made it slower than that level.
    private bool SlowOnTheBranchyReferenceOnly(MachineSpeedMemory memory) =>
        memory.SlowerThanFastest(j.Current with { BranchSpeed = null }) <= j.Policy.Judgement.SlowLevel;

    // Whether a recording slower than the machine's fast level on the branchy reference only stays as it is, because the
    // body did not follow the reference to the fast level (j.Policy.Judgement.RecordInSlowerState): later runs in that state
    // are then judged with no branchy bound to hide in (docs/VERDICTS.md, "Levels"). The recording stays whole: its floor
    // and the reference reading it keeps come from the same measurement.
    private bool KeepsSlowerBranchyState(MachineSpeedMemory memory, BaselineRecord fast, int measurement)
    {
        if (!SlowOnTheBranchyReferenceOnly(memory))
            return false;
        double? most = null;
        foreach (BaselineCounter counter in j.Current.Counters)
        {
            if (!Counters.KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike)
                continue;
            BaselineStatistic statistic = j.Policy.GetRule(counter.Name, counter.Kind).Statistic;
            if (BranchFollowing.Slope(fast, j.Current, counter.Name, statistic, j.Policy.Judgement) is not { } slope)
                return false;
            most = Math.Max(most ?? slope, slope);
        }

        if (most is not { } followed || followed >= j.Policy.Judgement.RecordInSlowerState)
            return false;
        j.Remeasurements.Add(
            BaselineMessages.RecordedInSlowerBranchyState(j.Current.BranchSpeed, fast.BranchSpeed, followed, measurement));
        return true;
    }

    // The levels the body's time took: this process's other recording runs, and in update mode other processes'. Each
    // fresh process measures twice and contributes the faster; the baseline keeps the fastest level and the spread of
    // the slowest. A received file (a first run, a new machine, an improvement) is recorded in this process only:
    // fresh processes cost seconds per test, and a first run of a suite, or every CI run of a machine without an entry,
    // would pay them for files nobody may accept; update mode is where a user asks for a baseline.
    private void RecordLevels(IReadOnlyList<BaselineRecord> thisProcess)
    {
        var levels = new List<BaselineRecord> { j.Current };
        var failures = new List<string>();
        int processes = j.Options.RecordingProcesses;
        // PICOLLO_UPDATE_BASELINES=add extends the entry by this process's level: that is what the user asked to add.
        bool measuresLevels = processes > 0 && j.Store.IsUpdateMode && !j.Store.IsAddingProcessLevels;
        IFreshProcessMeasurer? fresh = measuresLevels ? j.Options.FreshProcesses : null;
        if (fresh is not null)
            MeasureFreshLevels(processes, levels, failures);
        else if (j.Options.FreshProcesses is null && measuresLevels && j.Judged.CanRemeasure)
            thisProcess = MeasureLevelsInThisProcess(thisProcess, processes);

        if (levels.Count == 1 && thisProcess.Count == 0)
        {
            if (failures.Count > 0)
                j.Notices.Add(BaselineMessages.RecordedInFewerProcesses(levels.Count, processes + 1, failures[0]));
            return;
        }

        (TimeSpread.Combined combined, int started) = CombineUntilSettled(fresh, processes, levels, failures, thisProcess);
        if (failures.Count > 0)
            j.Notices.Add(BaselineMessages.RecordedInFewerProcesses(levels.Count, started + 1, failures[0]));
        if (combined.Processes < 2 && started > processes)
            j.Notices.Add(BaselineMessages.RecordedWithNoSpread(started + 1));

        j.Current = combined.Record;
        if (levels.Count > 1)
            j.Remeasurements.Add(SpreadNote(levels.Count, combined));
        NoteWideSpreads();
    }

    private void MeasureFreshLevels(int processes, List<BaselineRecord> levels, List<string> failures)
    {
        for (int i = 0; i < processes; i++)
        {
            // Spaced out: a host level lasts seconds to minutes, and processes back to back draw the same one
            // (docs/VERDICTS.md, "Levels").
            MeasureFreshLevel(i > 0 ? j.Space() : TimeSpan.Zero, levels, failures);
        }
    }

    // Without an adapter to start fresh processes, the same number of measurements in this process, as far apart: they
    // see the host's levels over time (not the process's), and how far the body follows the branchy reference when the
    // host changes state meanwhile.
    private List<BaselineRecord> MeasureLevelsInThisProcess(IReadOnlyList<BaselineRecord> thisProcess, int processes)
    {
        var later = new List<BaselineRecord>(thisProcess);
        for (int i = 0; i < processes; i++)
        {
            BaselineRecord record =
                BaselineRecord.FromResult(j.Measurements.ThisProcess(EvidenceOrigin.LevelInThisProcess, j.Judged, j.Space()));
            if (!MachineLoad.IsBusy(record.OtherProcessesCores) || MachineLoad.IsBusy(j.Current.OtherProcessesCores))
                later.Add(record);
        }

        j.Remeasurements.Add(BaselineMessages.MeasuredLevelsInThisProcess(processes, j.Spacing.TotalSeconds));
        return later;
    }

    // A spread is known only where two processes agree on the host's state, and a body that took levels may take more than
    // the first processes drew (docs/VERDICTS.md, "Recording a baseline"): so a few more processes, until two join and,
    // where the body showed levels, until two in a row show none the recording had not seen. Returns the combination and
    // the number of fresh processes started.
    private (TimeSpread.Combined Combined, int Started) CombineUntilSettled(
        IFreshProcessMeasurer? fresh,
        int processes,
        List<BaselineRecord> levels,
        List<string> failures,
        IReadOnlyList<BaselineRecord> thisProcess)
    {
        TimeSpread.Combined combined = TimeSpread.Combine(levels, j.Policy, thisProcess);
        int started = processes;
        int settled = 0;
        while (fresh is not null && failures.Count == 0 && started < processes + j.Policy.Judgement.MaxExtraRecordingProcesses
            && (combined.Processes < 2 || (TimeSpread.HasLevels(combined, j.Policy) && settled < j.Policy.Judgement.SettledProcesses)))
        {
            MeasureFreshLevel(j.Space(), levels, failures);
            started++;
            TimeSpread.Combined next = TimeSpread.Combine(levels, j.Policy, thisProcess);
            // Only a process that joined can say the levels settled: one left out (a busy machine, the host's slow
            // state) or that could not run showed nothing either way.
            if (TimeSpread.FoundNewLevel(combined, next, j.Policy))
                settled = 0;
            else if (next.Processes > combined.Processes)
                settled++;
            combined = next;
        }

        return (combined, started);
    }

    // A time counter whose levels spread wider than its practical threshold cannot detect a regression that small.
    private void NoteWideSpreads()
    {
        foreach (BaselineCounter counter in j.Current.Counters)
        {
            double threshold = j.Policy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
            if (counter.Recording is { Spread: > 1 } quality && quality.Spread > 1 + threshold)
            {
                double detectable = quality.DetectableChange ?? quality.Spread - 1;
                j.Notices.Add(BaselineMessages.WideSpread(counter.Name, quality.Spread, quality.Processes, detectable));
            }
        }
    }

    // One fresh process's level (the faster of its measurements) into levels, or its failure into failures.
    private void MeasureFreshLevel(TimeSpan wait, List<BaselineRecord> levels, List<string> failures)
    {
        FreshProcessMeasurement measured = j.Measurements.FreshProcess(EvidenceOrigin.FreshLevel, j.Judged, wait);
        if (measured.Failure is { } failure)
            failures.Add(failure);
        else if (Fastest(measured.Records, j.Current, j.Policy) is { } level)
            levels.Add(level);
    }

    private string SpreadNote(int processes, TimeSpread.Combined combined)
    {
        IEnumerable<string> time = TimeSpread.TimeCounters(combined.Record, j.Policy);
        string spreads = string.Join(", ", time.Select(name => combined.Record.Find(name) is { Recording: { } q }
            ? string.Create(CultureInfo.InvariantCulture, $"{name} levels spread {q.Spread:0.###}×")
            : name));
        return BaselineMessages.RecordedAcrossProcesses(
            processes, combined.Processes, j.Policy.Judgement.MeasurementsPerProcess, spreads, combined.Excluded);
    }
}
