using System.Globalization;
using Picollo.Measurement;

namespace Picollo.Baselines;

/// <summary>
/// Judges a measurement against its baseline the way a test must: never on noise, never on code that was not final,
/// never losing a baseline, never hiding a gross regression (docs/ARCHITECTURE.md, "Baselines and verdicts"). The policy
/// lives here once, for the assertion and for both test-framework adapters, as a script of stages: the gate
/// (<see cref="Gate"/>), then measure, record, compare, confirm and conclude (<see cref="Judgement"/>).
/// </summary>
/// <remarks>
/// <list type="number">
/// <item>A run whose warmup did not see the body's final code is measured again before anything is judged or recorded:
/// a baseline taken from tier-0 code holds numbers up to 3.5× too slow, and tier-0 code even allocates what tier-1 code
/// stack-allocates (40 bytes per operation for a 4-int array). A recording none of whose measurements ran final code
/// writes no time, cycles or misses of its own.</item>
/// <item>What is written is recorded from a steady moment, at the machine's fast level, and across fresh processes, so
/// the baseline knows the levels a body's time takes from one process to the next.</item>
/// <item>A statistical regression (time, cycles, misses) fails only when a second measurement regresses on the same
/// counter, and, for time, when fresh processes do too where the test adapter can start them: one disturbed measurement
/// (a busy host slowed a whole run by +56% in the verdict-quality experiment) or one process at a level no recording saw
/// must not fail a build. A deterministic counter needs no second look when the run's code was final.</item>
/// <item>A regression confirmed twice fails even when neither measurement reached tier 1: doubled allocations are real at
/// any tier, and a test process whose tiering never catches up would otherwise never fail; the reader is told what to
/// rule out.</item>
/// </list>
/// </remarks>
internal static class BaselineJudge
{
    /// <summary>Judges <paramref name="result"/> against the baseline of the test, writing what the outcome calls for.</summary>
    /// <param name="result">The measurement.</param>
    /// <param name="callerFilePath">The test's source file, whose folder holds the baseline.</param>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written.</param>
    /// <returns>The judgement.</returns>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    public static BaselineJudgement Judge(
        PerfResult result, string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        (string baselinePath, string? folderProblem) = Locate(callerFilePath, testClass, testMethod, caseName, options);
        if (Gate(result, baselinePath, options) is { } notJudged)
            return notJudged;

        var judgement = new Judgement(result, baselinePath, folderProblem, options);
        judgement.MeasureFinalCode();
        judgement.RecordIfWriting();
        judgement.Check();
        judgement.RemeasureInOtherConditions();
        judgement.Confirm();
        judgement.LookPastBranchyState();
        return judgement.Conclude();
    }

    // The gate: measurements that are not judged against the stored baseline at all, each with the notice that says why.
    private static BaselineJudgement? Gate(PerfResult result, string baselinePath, BaselineStoreOptions options)
    {
        // Unoptimized code (Debug, MinOpt) runs several times slower than what ships: compared with a baseline it would
        // fail for nothing, recorded it would blind every later verdict. Nothing is read, compared or written.
        if (result.Run.UnoptimizedReason is { } unoptimized)
            return NotJudged(result, baselinePath, $"Not compared with the baseline and not recorded: {unoptimized}");

        // Code instrumented for code coverage counts every line it runs (several times slower, and not what ships): the same.
        if (result.Run.InstrumentedReason is { } instrumented)
            return NotJudged(result, baselinePath, $"Not compared with the baseline and not recorded: {instrumented}");

        // A picollo ab worker: the tool judges this measurement against the other build's, measured beside it; the stored
        // baseline is neither read nor written (picollo ab never changes the user's baselines).
        if (SideBySidePeer.IsWorker)
            return NotJudged(result, baselinePath, BaselineMessages.SideBySideWorker());

        // A simulation worker: the test's own process judges, with the counts this process wrote for it.
        if (SimulatedMeasurers.Current is { IsWorker: true })
            return NotJudged(result, baselinePath, BaselineMessages.SimulationWorker());

        // A fresh process started to measure a body for another process's recording or confirmation measures and reports.
        Func<string, string?> environment = options.GetEnvironmentVariable ?? Environment.GetEnvironmentVariable;
        if (FreshProcessWorker.IsWorker(environment))
        {
            // Only the baseline asked for measures again (a theory's other rows run in the same worker): checked first.
            string fullPath = Path.GetFullPath(baselinePath);
            PerfResult measured = FreshProcessWorker.IsFor(fullPath, environment) ? Judgement.FinalCode(result, []) : result;
            return NotJudged(result, baselinePath, FreshProcessWorker.Measure(measured, fullPath, environment));
        }

        return null;
    }

    private static BaselineJudgement NotJudged(PerfResult result, string baselinePath, string message)
    {
        var check = new BaselineCheckResult(BaselineOutcome.NotJudged, [], Path.GetFullPath(baselinePath), null, message);
        return new BaselineJudgement
        {
            First = result,
            Judged = result,
            Current = BaselineRecord.FromResult(result),
            Check = check,
            Notices = [message],
        };
    }

    // The baseline path, or, when the test's source folder cannot be found (a deterministic build run outside the
    // repository), the path it would have and the locator's explanation, so the check reports it instead of throwing.
    // A relative BaselineDirectory is taken from the repository root of the test's source, never from the current
    // directory: under dotnet test that is bin/<configuration>/<tfm>, where baselines would be lost at the next clean.
    internal static (string Path, string? Problem) Locate(
        string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
    {
        string fileName = BaselineLocator.GetFileName(testClass, testMethod, caseName);
        if (options.BaselineDirectory is { } directory && Path.IsPathRooted(directory))
            return (Path.Combine(Path.GetFullPath(directory), fileName), null);

        var locator = new BaselineLocator(getEnvironmentVariable: options.GetEnvironmentVariable);
        string besideSource;
        try
        {
            besideSource = locator.GetBaselinePath(callerFilePath, testClass, testMethod, caseName);
        }
        catch (DirectoryNotFoundException e)
        {
            string unresolved = Path.Combine(
                Path.GetDirectoryName(callerFilePath) ?? string.Empty, options.BaselineDirectory ?? string.Empty, fileName);
            return (unresolved, e.Message + " Nothing was read or written.");
        }

        if (options.BaselineDirectory is not { } relative)
            return (besideSource, null);

        string sourceFolder = Path.GetDirectoryName(besideSource)!;
        return (Path.GetFullPath(Path.Combine(RepositoryRoot(sourceFolder) ?? sourceFolder, relative, fileName)), null);
    }

    // The nearest folder at or above a test's source folder that holds .git (a folder, or a file in a worktree or
    // submodule); null outside a git repository.
    private static string? RepositoryRoot(string sourceFolder)
    {
        for (DirectoryInfo? folder = new(sourceFolder); folder is not null; folder = folder.Parent)
        {
            string git = Path.Combine(folder.FullName, ".git");
            if (Directory.Exists(git) || File.Exists(git))
                return folder.FullName;
        }

        return null;
    }

    /// <summary>
    /// One judgement as a script of stages, each a short method with one reason to change: measure final code, record
    /// what is written, check, measure again in other conditions, confirm, conclude. The state they share is the
    /// measurement being judged, its record and the check against the baseline.
    /// </summary>
    private sealed class Judgement(PerfResult result, string baselinePath, string? folderProblem, BaselineStoreOptions options)
    {
        // Measurements taken when the conditions are not the recording's (another machine speed, a busy machine), before
        // time is judged with the allowance those conditions call for.
        private const int ConditionAttempts = 2;

        // Measurements a fresh process takes: its level is the faster of the two, so one disturbed measurement is not one.
        private const int MeasurementsPerProcess = 2;

        // Fresh processes a recording may add: when fewer than two of its processes agree on the host's state, and while a
        // body that took levels still shows new ones.
        private const int MaxExtraRecordingProcesses = 3;

        // Processes in a row that must show no new level before a recording of a body with levels ends.
        private const int SettledProcesses = 2;

        // Fresh processes that must all confirm a time regression before it fails.
        private const int FreshConfirmations = 3;

        // A fresh process whose band reaches this much further (log scale, 2 %) than the confirmed measurement's was judged in
        // wider conditions: its pass does not contradict the regression.
        private const double WiderConditions = 0.02;

        // How many fresh processes must regress a time verdict that passed here only on the branchy state, and how many may be
        // asked once one did (LookPastBranchyState). Two whatever their size: a body whose recording missed a level 2x slower
        // would otherwise fail on the first fresh process that drew it, about one look in five.
        private const int FreshRegressionsPastBranchyState = 2;
        private const int MostFreshProcessesPastBranchyState = 5;

        // Two references this much slower than the machine's fastest remembered are a slow level worth waiting out.
        private const double SlowLevel = 1.15;

        // Measurements a recording takes to find the machine's fast level, 1.5 s apart: a host's slow state lasts a minute
        // and more, and a baseline recorded in it sees less for as long as it is used.
        private const int FastLevelAttempts = 6;

        private readonly MachineFingerprint _machine = MachineFingerprint.Current;
        private readonly BaselineStore _store = new(options);
        private readonly List<string> _notices = [];
        private readonly List<string> _remeasurements = [];
        private readonly BaselineFile? _baseline = folderProblem is null ? BaselineStore.Read(baselinePath) : null;
        private readonly PerfResult _first = result;
        private PerfResult _judged = result;
        private BaselineRecord _current = BaselineRecord.FromResult(result);
        private BaselineCheckResult? _check;
        private int _conditionMeasurements = 1;
        private string? _confirmation;
        private IReadOnlyList<string> _confirmed = [], _unconfirmed = [];

        // Per time counter, the widest part of a band the host's branchy state made in any measurement of this judgement so far
        // (BaselineRecord.EarlierAllowance).
        private readonly Dictionary<string, double> _widest = new(StringComparer.Ordinal);

        // This judgement's measurements in this process, in order, each as first compared and whether it teaches how far the
        // body follows the branchy reference (BranchFollowing: code that was not final, up to 3.5× slower, moves the body for
        // reasons of its own), and which of them is judged now: what they show narrows the bound every later verdict uses.
        private readonly List<(BaselineRecord Record, bool Teaches)> _measured = [];
        private int _judgedIndex;
        private Dictionary<string, BranchFollowing> _followed = new(StringComparer.Ordinal);

        // The wait between fresh processes (PICOLLO_RECORDING_SPACING or the options'), and whether it was waited: a value of
        // the variable that is not valid is said only where it mattered.
        private readonly (TimeSpan Spacing, string? Problem) _spacing = options.ResolveFreshProcessSpacing();
        private bool _spaced;

        // The simulated counters' recording quality from a second process, and why the recording writes nothing when their
        // counts differed (CheckSimulatedRepeat).
        private readonly Dictionary<string, RecordingQuality> _simulatedRecording = new(StringComparer.Ordinal);
        private string? _simulatedRefusal;

        // What the last check wrote for a measurement whose code was not final, or null (CheckAndWrite).
        private NotFinalRecord? _notFinal;

        // The notice of a recording that did not reach the machine's fast level in this process (SeekFastLevel), said once the
        // levels of other processes are in (RecordIfWriting).
        private string? _slowLevel;

        private void Space()
        {
            _spaced = true;
            Thread.Sleep(_spacing.Spacing);
        }

        private BaselineCheckResult CheckResult =>
            _check ?? throw new InvalidOperationException("Check() runs before the stages that read it.");

        // A later measurement's record, allowed at least the branchy part the earlier ones of this judgement were.
        private BaselineRecord Judged(PerfResult measured) => BaselineRecord.FromResult(measured) with
        {
            EarlierAllowance = new Dictionary<string, double>(_widest, StringComparer.Ordinal),
            BranchFollowed = Followed(),
        };

        // The measurement just looked at is the judged one now.
        private void MarkJudged() => _judgedIndex = _measured.Count - 1;

        // A copy of what the looks showed, for a record to carry; null when they showed nothing.
        private Dictionary<string, BranchFollowing>? Followed() =>
            _followed.Count == 0 ? null : new Dictionary<string, BranchFollowing>(_followed, StringComparer.Ordinal);

        // Adds a measurement and learns from those that teach how far each time counter follows the branchy reference. When that
        // changed, the widest branchy part so far is what every measurement is allowed under it (an earlier one assumed a
        // follower), and the measurement judged now is judged again, allowed the branchy part those before it were: it may
        // regress where a follower would not.
        private void Look(PerfResult measured)
        {
            _measured.Add((BaselineRecord.FromResult(measured), measured.Run.RanFinalCode));
            BaselineRecord[] teaching = [.. _measured.Where(static m => m.Teaches).Select(static m => m.Record)];
            var followed = new Dictionary<string, BranchFollowing>(StringComparer.Ordinal);
            foreach (string name in TimeSpread.TimeCounters(_current, options.VerdictPolicy))
            {
                BaselineCounter counter = _current.Find(name)!;
                BaselineStatistic statistic = options.VerdictPolicy.GetRule(counter.Name, counter.Kind).Statistic;
                if (BranchFollowing.Learn(teaching, name, statistic) is { } learned)
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
                    BaselineRecord record = _measured[index].Record with { BranchFollowed = Followed() };
                    Remember(_store.Compare(baselinePath, _machine, record, folderProblem));
                    continue;
                }

                // The judged measurement keeps its own record (a recording's combined one).
                _current = _current with
                {
                    EarlierAllowance = new Dictionary<string, double>(_widest, StringComparer.Ordinal),
                    BranchFollowed = Followed(),
                };
                _check = CheckAndWrite(_judged, _current);
                Remember(_check.Verdicts);
            }
        }

        private void Remember(IReadOnlyList<CounterVerdict> verdicts)
        {
            foreach (CounterVerdict verdict in verdicts)
            {
                if (verdict.Allowance is { Branchy: > 0 } allowance)
                    _widest[verdict.Counter] = Math.Max(_widest.GetValueOrDefault(verdict.Counter), allowance.Branchy);
            }
        }

        // Judges a measurement and writes what the outcome calls for, without the statistical counters (time, cycles, misses)
        // of a measurement whose code was not final: a recording whose runs all stayed at tier 0 while other tests kept the
        // JIT busy stored 4,215 ticks/op for a chain, and the chain made 3x longer then measured 1,922 and passed as improved
        // (NUnitAdapterTests, issue 24). This machine's earlier ones stay instead, where the entry had them.
        // The last check's is the judged measurement's, which the conclusion's notice describes.
        //
        // Simulated counters are written with what their second process showed (CheckSimulatedRepeat), and a recording whose
        // simulated counts differed between processes writes nothing at all: it says so instead.
        private BaselineCheckResult CheckAndWrite(PerfResult measured, BaselineRecord record)
        {
            record = WithSimulatedRecording(record);
            if (_simulatedRefusal is { } refusal)
            {
                _notFinal = null;
                IReadOnlyList<CounterVerdict> verdicts = _store.Compare(baselinePath, _machine, record, folderProblem);
                BaselineOutcome outcome = _store.IsUpdateMode || verdicts.Any(static v => v.IsRegression)
                    ? BaselineOutcome.Fail
                    : BaselineOutcome.Notice;
                string message = string.Join('\n', verdicts.Select(static v => v.Text).Append(refusal));
                return new BaselineCheckResult(outcome, verdicts, Path.GetFullPath(baselinePath), null, message, refusal);
            }

            _notFinal = WrittenFromCodeNotFinal(measured, record);
            BaselineRecord? written = _notFinal?.Record is { } notFinal ? WithSimulatedRecording(notFinal) : null;
            return _store.Check(baselinePath, _machine, record, folderProblem, written);
        }

        // The record with its simulated counters' recording quality: the difference between the two processes that counted
        // them, which widens their tolerance (BaselineComparer.Tolerance).
        private BaselineRecord WithSimulatedRecording(BaselineRecord record) => _simulatedRecording.Count == 0
            ? record
            : record with
            {
                Counters =
                [
                    .. record.Counters.Select(c =>
                        _simulatedRecording.TryGetValue(c.Name, out RecordingQuality? q) ? c with { Recording = q } : c),
                ],
            };

        // Simulated counters are stored only when another process counts the same (docs/VERDICTS.md, "Simulated counters"): a
        // body whose work depends on its process (random input, a string hash, the time) would otherwise fail unchanged
        // code later. The second process's counts are compared with the first's, each within its rule's tolerance.
        private void CheckSimulatedRepeat()
        {
            if (!_judged.CanSimulateAgain || _current.Counters.All(static c => c.Kind != Counters.CounterKind.Simulated))
                return;

            SimulatedMeasurement other;
            try
            {
                other = _judged.SimulateAgain();
            }
            catch (PerfSimulationException e)
            {
                _simulatedRefusal = BaselineMessages.SimulatedRepeatFailed(e.Message);
                return;
            }

            var differ = new List<string>();
            foreach (BaselineCounter counter in _current.Counters.Where(static c => c.Kind == Counters.CounterKind.Simulated))
            {
                CounterResult again = SimulatedResults.Counter(counter.Name, other, _judged.Options.RelativeError);
                if (!again.IsAvailable)
                    continue;
                CounterVerdictRule rule = options.VerdictPolicy.GetRule(counter.Name, counter.Kind);
                double a = counter.PerOperation.P50, b = again.P50, largest = Math.Max(Math.Abs(a), Math.Abs(b));
                double difference = largest == 0 ? 0 : Math.Abs(a - b) / largest;
                if (Math.Abs(a - b) > Math.Max(rule.MinRelativeChange * largest, rule.MinAbsoluteChange))
                    differ.Add(BaselineMessages.SimulatedCountDiffered(counter.Name, a, b, rule.MinRelativeChange));
                _simulatedRecording[counter.Name] = new RecordingQuality(2, difference, Math.Max(rule.MinRelativeChange, 4 * difference))
                {
                    Processes = 2,
                };
            }

            if (differ.Count > 0)
                _simulatedRefusal = BaselineMessages.SimulatedCountsDiffer(differ);
            else
                _remeasurements.Add(BaselineMessages.SimulatedCountsRepeated(_simulatedRecording.Count));
        }

        // For a measurement whose code was not final, the record written: its exact counters (tier-0 code can allocate more
        // than final code, never less, so they can hide a small allocation regression, which a notice says, but never fail
        // unchanged code), and this machine's earlier statistical counters where its entry has them. Null for final code.
        private NotFinalRecord? WrittenFromCodeNotFinal(PerfResult measured, BaselineRecord record)
        {
            if (measured.Run.RanFinalCode)
                return null;
            bool Statistical(BaselineCounter c) => options.VerdictPolicy.GetRule(c.Name, c.Kind).Mode != VerdictMode.Exact;
            BaselineCounter[] exact = [.. record.Counters.Where(c => !Statistical(c))];
            BaselineEntry? earlier = _baseline?.Entries.FirstOrDefault(e => e.Machine.Id == _machine.Id);
            BaselineCounter[] kept =
            [
                .. (earlier?.Record.Counters ?? []).Where(c => Statistical(c) && !exact.Any(e => e.Name == c.Name)),
            ];
            return new NotFinalRecord(
                record with { Counters = [.. exact, .. kept] },
                [.. record.Counters.Where(Statistical).Select(static c => c.Name)],
                [.. exact.Select(static c => c.Name)],
                [.. kept.Select(static c => c.Name)],
                kept.Length > 0 ? earlier!.Record.RecordedUtc : null);
        }

        // What was written for a measurement whose code was not final: the record, the counters it did not take from that
        // measurement, those it did, this machine's earlier statistical counters it kept instead and when they were recorded.
        private sealed record NotFinalRecord(BaselineRecord Record, string[] LeftOut, string[] Exact, string[] Kept, DateTime? EarlierUtc);

        /// <summary>
        /// A measurement of the body's final code: <paramref name="measured"/>, or, when its warmup never saw it, one
        /// more.
        /// </summary>
        public static PerfResult FinalCode(PerfResult measured, List<string> remeasurements)
        {
            if (measured.Run.RanFinalCode || !measured.CanRemeasure)
                return measured;
            PerfResult again = measured.Remeasure();
            remeasurements.Add(BaselineMessages.MeasuredAgainForFinalCode(string.Join(" ", measured.Run.Notes), again.Run.RanFinalCode));
            return again;
        }

        public void MeasureFinalCode()
        {
            _judged = FinalCode(_first, _remeasurements);
            _current = BaselineRecord.FromResult(_judged);
        }

        // What is written becomes the reference of every later verdict: a baseline (update mode) or a received file (a
        // missing baseline, an improvement) is recorded from a steady moment at the machine's fast level, across processes.
        public void RecordIfWriting()
        {
            IReadOnlyList<CounterVerdict> firstLook = _store.Compare(baselinePath, _machine, _current, folderProblem);
            bool writes = _store.IsUpdateMode || !firstLook.All(BaselineStore.IsPassing);
            if (!writes || (!_store.IsUpdateMode && firstLook.Any(static v => v.IsRegression)) || !_judged.CanRemeasure)
                return;

            CheckSimulatedRepeat();

            SteadyRecording recording = SteadyRecording.Take(_judged, options.VerdictPolicy);
            _judged = recording.Kept;
            _current = recording.Record;
            if (recording.Note is not null)
                _remeasurements.Add(recording.Note);
            _notices.AddRange(recording.Notices);
            // No run of the recording reached the final code: its time is left out of what is written (CheckAndWrite), so the
            // levels of other processes and the machine's fast level have nothing to add to.
            if (!_judged.Run.RanFinalCode)
                return;
            // Runs taken before the recording moved to the machine's fast level were taken in the slow one: not levels.
            RecordLevels(SeekFastLevel() ? [] : recording.Others);
            // The levels may have kept a fresh process at the fast level (TimeSpread.Combine): the slow level is said only when
            // the entry written is still at it. Said before, a recording kept at 587 ns, the fast level, told the user it had
            // run 62 % slower than that and to record again (bench levels, idle / count64).
            if (_slowLevel is { } slowLevel
                && MachineSpeedMemory.Load(_machine.Id, options.GetEnvironmentVariable).SlowerThanFastest(_current) > SlowLevel)
                _notices.Add(slowLevel);
        }

        public void Check()
        {
            // PICOLLO_UPDATE_BASELINES=add joins this process's time to the entry's levels: code that was not final is no level.
            if (_store.IsAddingProcessLevels && !_judged.Run.RanFinalCode)
            {
                string message = BaselineMessages.NotAddedFromCodeNotFinal(string.Join(" ", _judged.Run.Notes));
                _check = new BaselineCheckResult(BaselineOutcome.NotJudged, [], Path.GetFullPath(baselinePath), null, message);
                _notices.Add(message);
                return;
            }

            _check = CheckAndWrite(_judged, _current);
            Remember(_check.Verdicts);
            Look(_judged);
            MarkJudged();
        }

        // The machine at another speed than at recording, or busy with other processes: a host's slow mode and a neighbour's
        // burst pass within seconds, so up to two more looks before time is judged with what those conditions allow. The
        // measurement judged in the best conditions is kept.
        public void RemeasureInOtherConditions()
        {
            for (int attempt = 0; attempt < ConditionAttempts && !_store.IsUpdateMode && _judged.CanRemeasure; attempt++)
            {
                if (CheckResult.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is not { } changed
                    || CheckResult.Verdicts.Any(static v => v.IsRegression))
                    return;

                _conditionMeasurements++;
                PerfResult again = _judged.Remeasure();
                Look(again);
                BaselineRecord record = Judged(again);
                // Looked at first, written only when kept: the received file is the measurement judged.
                IReadOnlyList<CounterVerdict> verdicts = _store.Compare(baselinePath, _machine, record, folderProblem);
                Remember(verdicts);
                _remeasurements.Add($"Measured again in other conditions: {changed.Text}.");
                if (Widening(verdicts) <= Widening(CheckResult.Verdicts) || verdicts.Any(static v => v.IsRegression))
                {
                    (_judged, _current, _check) = (again, record, CheckAndWrite(again, record));
                    MarkJudged();
                }
            }
        }

        // A regression is confirmed by a second measurement when it could be noise; a time regression then by a fresh
        // process too, where the adapter can start one.
        public void Confirm()
        {
            if (_store.IsUpdateMode || !NeedsConfirmation())
                return;

            ConfirmInProcess();
            if (_confirmed.Count > 0)
                ConfirmInFreshProcess();
        }

        public BaselineJudgement Conclude()
        {
            BaselineCheckResult check = CheckResult;
            if ((check.Outcome == BaselineOutcome.Updated || check.ReceivedPath is not null) && _notFinal is { } written)
            {
                string entry = check.Outcome == BaselineOutcome.Updated ? "The baseline entry" : "The received entry";
                _notices.Add(NotFinalNotice(entry, written));
            }

            if (check.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is { } widened)
            {
                _notices.Add(BaselineMessages.JudgedWithConditionsAllowance(_conditionMeasurements, widened.Text));
            }
            else if (check.Verdicts.FirstOrDefault(static v => v.Status == CounterVerdictStatus.Inconclusive) is { } inconclusive)
            {
                _notices.Add(inconclusive.Text);
            }

            switch (check.Outcome)
            {
                case BaselineOutcome.Notice:
                    _notices.Add(check.Message);
                    break;
                case BaselineOutcome.Updated when _store.IsAddingProcessLevels && check.UpdateNote is { } added:
                    // What extending the entry did: widened the spread, matched it (nothing new), or replaced the entry.
                    _notices.Add(added);
                    break;
                case BaselineOutcome.Updated:
                    _notices.Add(BaselineMessages.BaselineUpdated(
                        check.BaselinePath, [.. BaselineEntry.Split(_machine, _current).Select(static e => e.Machine.Id)]));
                    break;
                case BaselineOutcome.Pass when check.WriteFailure is not null:
                    _notices.Add(check.WriteFailure);
                    break;
            }

            if (_spaced && _spacing.Problem is { } spacing)
                _notices.Add(spacing);

            MachineSpeedMemory.Load(_machine.Id, options.GetEnvironmentVariable).Remember(_current);
            return new BaselineJudgement
            {
                First = _first,
                Judged = _judged,
                Current = _current,
                Check = check,
                Baseline = _baseline,
                Remeasurement = _remeasurements.Count == 0 ? null : string.Join(" ", _remeasurements),
                Confirmation = _confirmation,
                ConfirmedCounters = _confirmed,
                UnconfirmedCounters = _unconfirmed,
                Notices = _notices,
            };
        }

        private string NotFinalNotice(string entry, NotFinalRecord written)
        {
            string notes = string.Join(" ", _judged.Run.Notes);
            if (written.LeftOut.Length == 0)
                return BaselineMessages.RecordedExactFromCodeNotFinal(entry, notes, string.Join(", ", written.Exact));
            string? earlier = written.EarlierUtc?.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture);
            string[] named = earlier is null ? written.LeftOut : written.Kept;
            return BaselineMessages.RecordedFromCodeNotFinal(
                entry, notes, string.Join(", ", named), string.Join(", ", written.Exact), earlier);
        }

        // A recording whose references ran slower than the machine's fastest remembered level (an allocation episode, a slow
        // host mode) is measured again, 1.5 s apart, until one runs at the fast level: verdicts scale time by the
        // references, but a baseline at the slow level asks every later verdict to trust the scaling in the riskier
        // direction (a body that follows its reference less than fully would look slower).
        private bool SeekFastLevel()
        {
            MachineSpeedMemory memory = MachineSpeedMemory.Load(_machine.Id, options.GetEnvironmentVariable);
            double slower = memory.SlowerThanFastest(_current);
            if (slower <= SlowLevel)
                return false;

            double busiest = _current.OtherProcessesCores;
            for (int attempt = 0; attempt < FastLevelAttempts; attempt++)
            {
                Thread.Sleep(options.FastLevelSpacing);
                PerfResult again = _judged.Remeasure();
                BaselineRecord record = BaselineRecord.FromResult(again);
                // The busiest reading decides the notice's advice; one that could not be read (NaN compares false) leaves it.
                if (double.IsNaN(busiest) || record.OtherProcessesCores > busiest)
                    busiest = record.OtherProcessesCores;
                if (memory.SlowerThanFastest(record) <= SlowLevel && !MachineLoad.IsBusy(record.OtherProcessesCores))
                {
                    if (KeepsSlowerBranchyState(memory, record, attempt + 2))
                        return false;
                    _remeasurements.Add(BaselineMessages.RecordedAtFastLevel(slower, attempt + 2));
                    _judged = again;
                    _current = record with
                    {
                        Counters = [.. record.Counters.Select(c => c with { Recording = _current.Find(c.Name)?.Recording })],
                    };
                    return true;
                }
            }

            // Slower on the branchy reference only, on a quiet machine, the advice differs: waiting for quiet changes nothing,
            // and a body that does not follow the host's branchy state is served by a recording in it (KeepsSlowerBranchyState).
            // A measurement turned down as busy may have reached the fast level: then quiet is the advice.
            _slowLevel = SlowOnTheBranchyReferenceOnly(memory) && !MachineLoad.IsBusy(busiest)
                ? BaselineMessages.RecordedInSlowBranchyStateOnly(slower, FastLevelAttempts + 1)
                : BaselineMessages.RecordedAtSlowLevel(slower, FastLevelAttempts + 1, busiest);
            return false;
        }

        // Whether the recording's core loop and allocation reference ran at the machine's fast level, so that only the branchy
        // reference can have made it slower than that level.
        private bool SlowOnTheBranchyReferenceOnly(MachineSpeedMemory memory) =>
            memory.SlowerThanFastest(_current with { BranchSpeed = null }) <= SlowLevel;

        // Whether a recording slower than the machine's fast level on the branchy reference only stays as it is, because the
        // body did not follow the reference to the fast level (BranchFollowing.RecordInSlowerState): every later run in that
        // slower state is then judged with no branchy bound, where recorded at the fast level +30 % passed inside one in 45-50
        // of 50 runs of each of the four cells whose recording had caught the reference at a fast moment (bench verdicts, run
        // 6). The recording is whole either way: the floor and the reference reading it keeps come from the same measurement.
        private bool KeepsSlowerBranchyState(MachineSpeedMemory memory, BaselineRecord fast, int measurement)
        {
            if (!SlowOnTheBranchyReferenceOnly(memory))
                return false;
            double? most = null;
            foreach (BaselineCounter counter in _current.Counters)
            {
                if (!Counters.KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike)
                    continue;
                BaselineStatistic statistic = options.VerdictPolicy.GetRule(counter.Name, counter.Kind).Statistic;
                if (BranchFollowing.Slope(fast, _current, counter.Name, statistic) is not { } slope)
                    return false;
                most = Math.Max(most ?? slope, slope);
            }

            if (most is not { } followed || followed >= BranchFollowing.RecordInSlowerState)
                return false;
            _remeasurements.Add(
                BaselineMessages.RecordedInSlowerBranchyState(_current.BranchSpeed, fast.BranchSpeed, followed, measurement));
            return true;
        }

        // The levels the body's time took: this process's other recording runs, and in update mode other processes'. Each
        // fresh process measures twice and contributes the faster; the baseline keeps the fastest level and the spread of
        // the slowest. A received file (a first run, a new machine, an improvement) is recorded in this process only:
        // fresh processes cost seconds per test, and a first run of a suite, or every CI run of a machine without an entry,
        // would pay them for files nobody may accept; update mode is where a user asks for a baseline.
        private void RecordLevels(IReadOnlyList<BaselineRecord> thisProcess)
        {
            var levels = new List<BaselineRecord> { _current };
            var failures = new List<string>();
            int processes = options.RecordingProcesses;
            // PICOLLO_UPDATE_BASELINES=add extends the entry by this process's level: that is what the user asked to add.
            bool measuresLevels = processes > 0 && _store.IsUpdateMode && !_store.IsAddingProcessLevels;
            IFreshProcessMeasurer? fresh = measuresLevels ? options.FreshProcesses : null;
            if (fresh is not null)
                MeasureFreshLevels(fresh, processes, levels, failures);
            else if (options.FreshProcesses is null && measuresLevels && _judged.CanRemeasure)
                thisProcess = MeasureLevelsInThisProcess(thisProcess, processes);

            if (levels.Count == 1 && thisProcess.Count == 0)
            {
                if (failures.Count > 0)
                    _notices.Add(BaselineMessages.RecordedInFewerProcesses(levels.Count, processes + 1, failures[0]));
                return;
            }

            (TimeSpread.Combined combined, int started) = CombineUntilSettled(fresh, processes, levels, failures, thisProcess);
            if (failures.Count > 0)
                _notices.Add(BaselineMessages.RecordedInFewerProcesses(levels.Count, started + 1, failures[0]));
            if (combined.Processes < 2 && started > processes)
                _notices.Add(BaselineMessages.RecordedWithNoSpread(started + 1));

            _current = combined.Record;
            if (levels.Count > 1)
                _remeasurements.Add(SpreadNote(levels.Count, combined));
            NoteWideSpreads();
        }

        private void MeasureFreshLevels(IFreshProcessMeasurer fresh, int processes, List<BaselineRecord> levels, List<string> failures)
        {
            for (int i = 0; i < processes; i++)
            {
                // Spaced out: a host level lasts seconds to minutes, and processes back to back draw the same one (four
                // processes in 8 s all read a word count at 120 ticks; the minutes after read 105 to 224).
                if (i > 0)
                    Space();
                MeasureFreshLevel(fresh, levels, failures);
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
                Space();
                BaselineRecord record = BaselineRecord.FromResult(_judged.Remeasure());
                if (!MachineLoad.IsBusy(record.OtherProcessesCores) || MachineLoad.IsBusy(_current.OtherProcessesCores))
                    later.Add(record);
            }

            _remeasurements.Add(BaselineMessages.MeasuredLevelsInThisProcess(processes, _spacing.Spacing.TotalSeconds));
            return later;
        }

        // A spread is known only where two processes agree on the host's state: with one joined (the others measured while
        // the host ran branchy code slower, or beside a busy machine), the entry knew no spread and unchanged code failed in
        // the next process at another level (bench levels, busy cells: 1 of 4 joined). And a body that took levels may
        // take more than the first processes drew: levels 2× apart, a third of the processes at each, and a recording of
        // four kept the middle one; a process at the slowest failed unchanged code, and a 3× body at the fastest passed
        // inside the allowance (bench levels, the `leveled` model). So more processes, a few, until two join and, where the
        // body showed levels, until two in a row show none the recording had not seen. Returns the combination and the
        // number of fresh processes started.
        private (TimeSpread.Combined Combined, int Started) CombineUntilSettled(
            IFreshProcessMeasurer? fresh,
            int processes,
            List<BaselineRecord> levels,
            List<string> failures,
            IReadOnlyList<BaselineRecord> thisProcess)
        {
            TimeSpread.Combined combined = TimeSpread.Combine(levels, options.VerdictPolicy, thisProcess);
            int started = processes;
            int settled = 0;
            while (fresh is not null && failures.Count == 0 && started < processes + MaxExtraRecordingProcesses
                && (combined.Processes < 2 || (TimeSpread.HasLevels(combined, options.VerdictPolicy) && settled < SettledProcesses)))
            {
                Space();
                MeasureFreshLevel(fresh, levels, failures);
                started++;
                TimeSpread.Combined next = TimeSpread.Combine(levels, options.VerdictPolicy, thisProcess);
                // Only a process that joined can say the levels settled: one left out (a busy machine, the host's slow
                // state) or that could not run showed nothing either way.
                if (TimeSpread.FoundNewLevel(combined, next, options.VerdictPolicy))
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
            foreach (BaselineCounter counter in _current.Counters)
            {
                double threshold = options.VerdictPolicy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
                if (counter.Recording is { Spread: > 1 } quality && quality.Spread > 1 + threshold)
                {
                    double detectable = quality.DetectableChange ?? quality.Spread - 1;
                    _notices.Add(BaselineMessages.WideSpread(counter.Name, quality.Spread, quality.Processes, detectable));
                }
            }
        }

        // One fresh process's level (the faster of its measurements) into levels, or its failure into failures.
        private void MeasureFreshLevel(IFreshProcessMeasurer fresh, List<BaselineRecord> levels, List<string> failures)
        {
            FreshProcessMeasurement measured =
                fresh.Measure(Path.GetFullPath(baselinePath), MeasurementsPerProcess, MeasurementCancellation.Current);
            if (measured.Failure is { } failure)
                failures.Add(failure);
            else if (Fastest(measured.Records) is { } level)
                levels.Add(level);
        }

        private string SpreadNote(int processes, TimeSpread.Combined combined)
        {
            IEnumerable<string> time = TimeSpread.TimeCounters(combined.Record, options.VerdictPolicy);
            string spreads = string.Join(", ", time.Select(name => combined.Record.Find(name) is { Recording: { } q }
                ? string.Create(CultureInfo.InvariantCulture, $"{name} levels spread {q.Spread:0.###}×")
                : name));
            return BaselineMessages.RecordedAcrossProcesses(
                processes, combined.Processes, MeasurementsPerProcess, spreads, combined.Excluded);
        }


        // The fastest measurement of a process, preferring those not measured beside a busy machine: the process's level.
        private BaselineRecord? Fastest(IReadOnlyList<BaselineRecord> records)
        {
            string[] time = [.. TimeSpread.TimeCounters(_current, options.VerdictPolicy)];
            BaselineRecord[] quiet = [.. records.Where(static r => !MachineLoad.IsBusy(r.OtherProcessesCores))];
            return (quiet.Length > 0 ? quiet : records).MinBy(r => TimeSpread.Score(r, time, options.VerdictPolicy));
        }

        // How much the conditions widened a check's time verdicts: the sum of their allowances beyond the recorded spread.
        private static double Widening(IReadOnlyList<CounterVerdict> verdicts) =>
            verdicts.Where(static v => v.ConditionsChanged).Sum(static v => v.Allowance!.High - v.Allowance.Low);

        private void ConfirmInProcess()
        {
            // The second is looked at before the first's verdicts are read: what it shows of the body's following may judge the
            // first again.
            PerfResult second = _judged.Remeasure();
            Look(second);
            BaselineCheckResult check = CheckResult;
            var firstRegressed =
                check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
            BaselineRecord secondRecord = Judged(second);
            BaselineCheckResult recheck = CheckAndWrite(second, secondRecord);
            Remember(recheck.Verdicts);

            // Code that was not final in either measurement (its tier-1 code still to come, other code compiled under the
            // samples) confirms nothing: a test host busy compiling its own reporting kept a body at tier 0 for both, and
            // failed unchanged code by 20 %. Such a regression is reported, not failed.
            bool neitherFinal = !_judged.Run.RanFinalCode && !second.Run.RanFinalCode;
            _confirmed = neitherFinal
                ? []
                : [.. recheck.Verdicts.Where(v => v.IsRegression && firstRegressed.Contains(v.Counter)).Select(static v => v.Counter)];
            List<CounterVerdict> verdicts = Unconfirm(recheck.Verdicts, _confirmed);
            _unconfirmed = [.. verdicts.Where(static v => v.Status == CounterVerdictStatus.Unconfirmed).Select(static v => v.Counter)];

            string before = string.Join("; ", check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Text));
            string again = string.Join(
                "; ", recheck.Verdicts.Where(v => firstRegressed.Contains(v.Counter) || v.IsRegression).Select(static v => v.Text));
            bool regressedAgain = recheck.Verdicts.Any(v => v.IsRegression && firstRegressed.Contains(v.Counter));
            _remeasurements.Add(BaselineMessages.MeasuredTwice(before, _confirmed.Count > 0, regressedAgain, again));
            if (_confirmed.Count > 0)
                _confirmation = Confirmation(verdicts);
            else if (regressedAgain)
                _notices.Add(BaselineMessages.NotFailingOnCodeNotFinal(before, again, string.Join(" ", second.Run.Notes)));
            else
                _notices.Add(BaselineMessages.NotFailingOnUnconfirmed(before, again));

            // The second measurement decided the outcome either way: the verdicts, the report and a failure message all show
            // it. Unconfirmed regressions pass; a missing baseline in CI still fails when the policy says so.
            _check = _store.Rejudge(recheck, verdicts);
            _judged = second;
            _current = secondRecord;
            MarkJudged();
        }

        // A time regression confirmed in this process may be this process's level, one no recording saw: a fresh process
        // draws its level anew. Up to three fresh processes are measured, one after the other, and the first whose faster
        // measurement does not regress ends it: unchanged code fails only when every one of them sits at a level the
        // recording missed (a level a third of the processes take, missed by a recording of four: about 1 % of the time).
        // A real regression shows in all of them. A fresh process that passes only because its own conditions allowed more
        // (a busy moment, a slow host state) cannot tell, and the next one is asked. When a process cannot run, the
        // measurements so far decide.
        private void ConfirmInFreshProcess()
        {
            var pending = new List<string>(
                _confirmed.Where(name => _current.Find(name) is { } c && Counters.KnownCounters.Of(c.Name, c.Kind).IsTimeLike));
            if (pending.Count == 0 || options.FreshProcesses is not { } fresh)
                return;

            Dictionary<string, CounterVerdict> here = CheckResult.Verdicts
                .Where(v => pending.Contains(v.Counter, StringComparer.Ordinal))
                .ToDictionary(static v => v.Counter, StringComparer.Ordinal);
            var gone = new List<string>();
            var seen = new List<string>();
            int confirming = 0;
            // A regression twice beyond its band in this process's confirmed measurement needs one fresh process, not three: no
            // level of any body seen moved that far.
            bool gross = Gross(pending);
            int needed = gross ? 1 : FreshConfirmations;
            for (int process = 1; process <= needed && pending.Count > 0; process++)
            {
                (BaselineRecord? level, bool stop) = MeasureFreshProcess(fresh, process, BaselineMessages.FreshProcessCouldNotMeasure);
                if (stop)
                    break;
                if (level is null)
                    continue;

                // Each counter on its own: one cleared in this process leaves the others to the next.
                CounterVerdict[] there = FreshVerdicts(level, pending);
                seen.Add(string.Join("; ", there.Select(static v => v.Text)));
                string[] cleared =
                [
                    .. there.Where(v => !v.IsRegression && here.TryGetValue(v.Counter, out CounterVerdict? mine) && Clears(v, mine))
                        .Select(static v => v.Counter),
                ];
                gone.AddRange(cleared);
                pending.RemoveAll(name => cleared.Contains(name, StringComparer.Ordinal));
                if (there.Any(static v => v.IsRegression))
                    confirming++;
            }

            string all = string.Join("; then ", seen);
            if (gone.Count > 0)
                Unconfirmed([.. gone], seen);
            if (pending.Count == 0 || seen.Count == 0)
                return;

            string sentence = BaselineMessages.ConfirmedByFreshProcesses(seen.Count, confirming, gross);
            _remeasurements.Add($"{sentence} ({all}).");
            _confirmation += $" {sentence}.";
        }

        // A time verdict that passed only inside what the host's slow branchy state allowed is asked of fresh processes: a
        // process draws that state at its start (bench levels: 3 and 6 of 10 processes of a cell drew it, and a 2x word count
        // passed in each, inside the +150 % its bound allowed, the body at its usual speed in the 1x processes of that state:
        // the word count does not follow the reference there). The first fresh process that passes it without a branchy bound
        // of its own ends the look, and the pass stands; one that needs such a bound cannot tell. Two that regress fail it, as
        // the first clear would have ended it: for unchanged code at a level its recording missed (a third of the processes)
        // with about half the processes in the slow state, that is about 4 % of such looks (an estimate), as three fresh
        // processes of a confirmation all drawing the missed level are (1/3)^3.
        public void LookPastBranchyState()
        {
            if (_store.IsUpdateMode || options.FreshProcesses is not { } fresh || CheckResult.Outcome != BaselineOutcome.Pass
                || !_judged.Run.RanFinalCode)
                return;

            Dictionary<string, CounterVerdict> here = CheckResult.Verdicts
                .Where(v => v.Status == CounterVerdictStatus.Pass && PassedOnBranchyState(v))
                .ToDictionary(static v => v.Counter, StringComparer.Ordinal);
            if (here.Count == 0)
                return;

            (List<(CounterVerdict Verdict, BaselineCounter Measured)> failing, int regressed, List<string> seen, bool cleared) =
                LookInFreshProcesses(fresh, here);
            if (seen.Count == 0)
                return;
            string all = string.Join("; then ", seen);
            if (failing.Count == 0)
            {
                _remeasurements.Add(BaselineMessages.LookedPastBranchyState(seen.Count, cleared, all));
                return;
            }

            // The fresh processes' first regression stands for the counter: the verdict, the report and the failure show it, and
            // the diff table the numbers of that process, not this one's pass beside them.
            var failed = failing.ToDictionary(static f => f.Verdict.Counter, StringComparer.Ordinal);
            List<CounterVerdict> verdicts =
                [.. CheckResult.Verdicts.Select(v => failed.TryGetValue(v.Counter, out var f) ? f.Verdict : v)];
            _current = _current with
            {
                Counters = [.. _current.Counters.Select(c => failed.TryGetValue(c.Name, out var f) ? f.Measured : c)],
            };
            string passedHere = string.Join("; ", failing.Select(f => here[f.Verdict.Counter].Text));
            _confirmed = [.. failing.Select(static f => f.Verdict.Counter)];
            _confirmation = BaselineMessages.RegressedPastBranchyState(passedHere, seen.Count, regressed, all);
            _remeasurements.Add(_confirmation);
            _check = _store.Rejudge(CheckResult, verdicts);
        }

        // Measures fresh process number `process` (the second and later spaced out, so three span some 30 s: a host level that
        // slowed one body by a quarter for 8-25 s, with no reference moving, held through a process and the fresh processes
        // right after it; bench levels) and returns its faster measurement. When it has none, says why (couldNot) and whether
        // to stop asking: a process that ran only code that was not final says nothing either way, and the next one may.
        private (BaselineRecord? Level, bool Stop) MeasureFreshProcess(
            IFreshProcessMeasurer fresh, int process, Func<string, string> couldNot)
        {
            if (process > 1)
                Space();

            FreshProcessMeasurement measured =
                fresh.Measure(Path.GetFullPath(baselinePath), MeasurementsPerProcess, MeasurementCancellation.Current);
            if (measured.Failure is null && Fastest(measured.Records) is { } level)
                return (level, false);
            _remeasurements.Add(couldNot(measured.Failure ?? "it wrote no measurement"));
            return (null, !measured.RanNoFinalCode);
        }

        // Fresh processes, one after the other, until each counter is cleared or fails (LookPastBranchyState): the verdicts that
        // fail, how many processes regressed, each process's verdicts, and whether one cleared a counter.
        private (List<(CounterVerdict Verdict, BaselineCounter Measured)> Failing, int Regressed, List<string> Seen, bool Cleared)
            LookInFreshProcesses(IFreshProcessMeasurer fresh, Dictionary<string, CounterVerdict> here)
        {
            var pending = new List<string>(here.Keys);
            // Per counter, its first fresh regression (the verdict and what that process measured) and how many regressed it.
            var regressions =
                new Dictionary<string, (CounterVerdict First, BaselineCounter Measured, int Count)>(StringComparer.Ordinal);
            var failing = new List<(CounterVerdict, BaselineCounter)>();
            var seen = new List<string>();
            bool cleared = false;
            // Three processes, and up to five once one regressed: a fresh process that draws the slow state too cannot tell, and
            // two regressions are needed whatever their size.
            for (int process = 1; pending.Count > 0
                && (process <= FreshConfirmations || (process <= MostFreshProcessesPastBranchyState && regressions.Count > 0)); process++)
            {
                (BaselineRecord? level, bool stop) = MeasureFreshProcess(fresh, process, BaselineMessages.FreshProcessCouldNotLook);
                if (stop)
                    break;
                if (level is null)
                    continue;

                CounterVerdict[] there = FreshVerdicts(level, pending);
                seen.Add(string.Join("; ", there.Select(static v => v.Text)));
                foreach (CounterVerdict verdict in there)
                {
                    if (!verdict.IsRegression)
                    {
                        // A pass that needs no branchy state says the body is where the recording was. One that does cannot
                        // tell, however a little narrower its band: the reference at 880 ns instead of 903 still allows +74 %.
                        // A verdict that judged nothing (too few samples) tells nothing either.
                        if (verdict.Status == CounterVerdictStatus.Pass && !PassedOnBranchyState(verdict))
                        {
                            pending.Remove(verdict.Counter);
                            cleared = true;
                        }

                        continue;
                    }

                    (CounterVerdict first, BaselineCounter measured, int count) = regressions.TryGetValue(verdict.Counter, out var found)
                        ? (found.First, found.Measured, found.Count + 1)
                        : (verdict, level.Find(verdict.Counter)!, 1);
                    regressions[verdict.Counter] = (first, measured, count);
                    if (count >= FreshRegressionsPastBranchyState)
                    {
                        failing.Add((first, measured));
                        pending.Remove(verdict.Counter);
                    }
                }
            }

            return (failing, regressions.Count == 0 ? 0 : regressions.Values.Max(static r => r.Count), seen, cleared);
        }

        // Whether a time verdict passed only on the host's branchy state: without that part of its band it would lie beyond the
        // rest by the rule's threshold. Only that state is drawn per process; a busy neighbour or a host's slow mode is the
        // moment's, and a fresh process seconds later meets it too: beside a spinning process 4 of 24 measurements of
        // unchanged bodies read +17 to +47 % (TimeAllowance.BusyShare), so asking fresh processes there would fail unchanged
        // code that this process, inside its band, passed.
        private bool PassedOnBranchyState(CounterVerdict verdict)
        {
            if (verdict.Allowance is not { Branchy: > 0 } allowance || verdict.RelativeChange is not { } change
                || _current.Find(verdict.Counter) is not { } counter || !Counters.KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike)
                return false;
            double threshold = options.VerdictPolicy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
            // The rest of the band holds the recorded spread whatever the cap cut: the cut comes off the branchy part first.
            return Math.Log(1 + change) - allowance.Shift - (allowance.High - allowance.Branchy) >= Math.Log(1 + threshold);
        }

        // A fresh process's verdicts on the counters still pending, in its own conditions: it is a new moment seconds after this
        // process, and allowed the widest band of this process's measurements (a slow host state, +121 %), it cleared 2x word
        // counts that read +100 % with the branchy reference back at its speed (bench levels, idle / count64). What lingers
        // within a process stays allowed there (EarlierAllowance); a fresh process whose own conditions allow more than this
        // one's cannot tell (Wider). What this judgement learned of the body's following holds: it is the body's, not the moment's.
        private CounterVerdict[] FreshVerdicts(BaselineRecord level, List<string> pending) =>
        [
            .. _store.Compare(baselinePath, _machine, level with { EarlierAllowance = null, BranchFollowed = Followed() }, folderProblem)
                .Where(v => pending.Contains(v.Counter, StringComparer.Ordinal)),
        ];

        // Whether every pending counter's regression lies twice beyond its band in this process's confirmed measurement.
        private bool Gross(List<string> pending) => pending.All(name =>
            CheckResult.Verdicts.FirstOrDefault(v => v.Counter == name) is { RelativeChange: { } change } verdict
            && Math.Log(1 + change) - (verdict.Allowance?.Shift ?? 0) - (verdict.Allowance?.High ?? 0) >= Math.Log(2));

        // Whether a fresh process's verdict was judged in wider conditions than this process's on either side: it allowed
        // unchanged code more (a busy moment, a slow host state), or its conditions ran faster than the recording's and could
        // hide a regression (a fast host state against a baseline recorded in a slow one). Its pass contradicts nothing.
        private static bool Wider(CounterVerdict fresh, CounterVerdict mine) =>
            (fresh.Allowance?.High ?? 0) > (mine.Allowance?.High ?? 0) + WiderConditions
            || (fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - WiderConditions;

        // Whether a fresh process's pass clears this process's regression: judged in conditions no wider, or wider only on the
        // slow side while its change lies within this process's band, so that band would have passed it too. A word count
        // regressed +48 % twice at a level the recording had left out with the slow branchy state; the three fresh processes
        // drew that state, two of them ran the body at its recorded speed (+1.5 %, +2.1 %), and their wider bands let the two
        // measurements decide: unchanged code failed (bench levels, idle / count64).
        private bool Clears(CounterVerdict fresh, CounterVerdict mine)
        {
            if (!Wider(fresh, mine))
                return true;
            if ((fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - WiderConditions || fresh.RelativeChange is not { } change
                || _current.Find(fresh.Counter) is not { } counter)
                return false;
            double threshold = options.VerdictPolicy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
            return Math.Log(1 + change) - (fresh.Allowance?.Shift ?? 0) - (mine.Allowance?.High ?? 0) < Math.Log(1 + threshold);
        }

        private void Unconfirmed(string[] gone, List<string> seen)
        {
            string all = string.Join("; then ", seen);
            _confirmed = [.. _confirmed.Except(gone, StringComparer.Ordinal)];
            List<CounterVerdict> verdicts = Unconfirm(CheckResult.Verdicts, _confirmed);
            _unconfirmed = [.. verdicts.Where(static v => v.Status == CounterVerdictStatus.Unconfirmed).Select(static v => v.Counter)];
            _notices.Add(BaselineMessages.NotFailingAfterFreshProcess(gone, seen.Count, all));
            _remeasurements.Add(BaselineMessages.MeasuredInFreshProcesses(seen.Count, all));
            _confirmation = _confirmed.Count == 0 ? null : Confirmation(verdicts);
            _check = _store.Rejudge(CheckResult, verdicts);
        }

        private static string Confirmation(List<CounterVerdict> verdicts) =>
            BaselineMessages.ConfirmedBySecondMeasurement(
                string.Join("; ", verdicts.Where(static v => v.IsRegression).Select(static v => v.Text)));

        // Regressions not among the confirmed counters become unconfirmed passes.
        private static List<CounterVerdict> Unconfirm(IReadOnlyList<CounterVerdict> verdicts, IReadOnlyList<string> confirmed) =>
        [
            .. verdicts.Select(v => v.IsRegression && !confirmed.Contains(v.Counter, StringComparer.Ordinal)
                ? v with { Status = CounterVerdictStatus.Unconfirmed }
                : v),
        ];

        // A regression is confirmed by a second measurement when it could be noise: some counter regressed statistically, or
        // the run's code was not final (then even a deterministic counter may have moved with the code).
        private bool NeedsConfirmation()
        {
            BaselineCheckResult check = CheckResult;
            if (check.Outcome != BaselineOutcome.Fail || !check.Verdicts.Any(static v => v.IsRegression) || !_judged.CanRemeasure)
                return false;
            if (!_judged.Run.RanFinalCode)
                return true;

            foreach (CounterVerdict verdict in check.Verdicts)
            {
                if (!verdict.IsRegression)
                    continue;
                BaselineCounter? counter = _current.Find(verdict.Counter);
                if (counter is null || options.VerdictPolicy.GetRule(counter.Name, counter.Kind).Mode == VerdictMode.Exact)
                    return false;
            }

            return true;
        }
    }
}
