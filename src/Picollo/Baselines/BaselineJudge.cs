using Picollo.Measurement;

namespace Picollo.Baselines;

/// <summary>
/// Judges a measurement against its baseline the way a test must: never on noise, never on code that was not final,
/// never losing a baseline (docs/ARCHITECTURE.md, "Baselines and verdicts"). The policy lives here once, for the
/// assertion and for both test-framework adapters.
/// </summary>
/// <remarks>
/// <list type="number">
/// <item>A run whose warmup did not see the body's final code is measured again before anything is judged or recorded:
/// a baseline taken from tier-0 code holds numbers up to 3.5× too slow, and tier-0 code even allocates what tier-1 code
/// stack-allocates (40 bytes per operation for a 4-int array).</item>
/// <item>A statistical regression (time, cycles, misses) fails only when a second measurement regresses on the same
/// counter: one disturbed measurement (a busy host slowed a whole run by +56% in the verdict-quality experiment,
/// bench/RESULTS.md) must not fail a build. A deterministic counter needs no second look when the run's code was final.</item>
/// <item>A regression confirmed twice fails even when neither measurement reached tier 1: doubled allocations are real at
/// any tier, and a test process whose tiering never catches up would otherwise never fail; the reader is told what to
/// rule out.</item>
/// </list>
/// </remarks>
internal static class BaselineJudge
{
    // Measurements taken when the machine runs at another speed than the baseline's, before time is left unjudged.
    private const int SpeedAttempts = 2;

    /// <summary>Judges <paramref name="result"/> against the baseline of the test, writing what the outcome calls for.</summary>
    /// <param name="result">The measurement.</param>
    /// <param name="callerFilePath">The test's source file, whose folder holds the baseline.</param>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written.</param>
    /// <returns>The judgement.</returns>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    public static BaselineJudgement Judge(PerfResult result, string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        (string baselinePath, string? folderProblem) = Locate(callerFilePath, testClass, testMethod, caseName, options);

        // Unoptimized code (Debug, MinOpt) runs several times slower than what ships: compared with a baseline it would
        // fail for nothing, recorded it would blind every later verdict. Nothing is read, compared or written.
        if (result.Run.UnoptimizedReason is { } unoptimized)
            return NotJudged(result, baselinePath, unoptimized);

        MachineFingerprint machine = MachineFingerprint.Current;
        var store = new BaselineStore(options);
        var notices = new List<string>();
        var remeasurements = new List<string>();

        PerfResult judged = result;
        if (!RanFinalCode(judged.Run) && judged.CanRemeasure)
        {
            judged = judged.Remeasure();
            remeasurements.Add("Measured again before judging: the first measurement did not run the body's final code ("
                + string.Join(" ", result.Run.Notes) + ")" + (RanFinalCode(judged.Run) ? "; this one did." : "; neither did this one."));
        }

        BaselineRecord current = BaselineRecord.FromResult(judged);

        // Read before the check: in update mode the check rewrites the file, and the report and a failure message must
        // show what was compared with.
        BaselineFile? baseline = folderProblem is null ? BaselineStore.Read(baselinePath) : null;

        // What is written becomes the reference of every later verdict: a baseline (update mode) or a received file (a
        // missing baseline, an improvement) is recorded from a steady moment, not from whatever one measurement saw.
        IReadOnlyList<CounterVerdict> firstLook = store.Compare(baselinePath, machine, current, folderProblem);
        bool writes = store.IsUpdateMode || !firstLook.All(BaselineStore.IsPassing);
        if (writes && (store.IsUpdateMode || !firstLook.Any(static v => v.IsRegression)) && judged.CanRemeasure)
        {
            SteadyRecording recording = SteadyRecording.Take(judged, options.VerdictPolicy);
            judged = recording.Kept;
            current = recording.Record;
            if (recording.Note is not null)
                remeasurements.Add(recording.Note);
            notices.AddRange(recording.Notices);
        }

        BaselineCheckResult check = store.Check(baselinePath, machine, current, folderProblem);

        // The machine at another speed than at recording (a host's slow mode lasts seconds): one more look before time is
        // left unjudged.
        int speedMeasurements = 1;
        for (int attempt = 0; attempt < SpeedAttempts && !store.IsUpdateMode && check.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is { } speed && judged.CanRemeasure; attempt++)
        {
            speedMeasurements++;
            judged = judged.Remeasure();
            current = BaselineRecord.FromResult(judged);
            check = store.Check(baselinePath, machine, current, folderProblem);
            remeasurements.Add($"Measured again: {speed.Text}.");
        }

        string? confirmation = null;
        IReadOnlyList<string> confirmed = [], unconfirmed = [];

        if (!store.IsUpdateMode && NeedsConfirmation(check, judged, current, options.VerdictPolicy))
        {
            var firstRegressed = check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
            PerfResult second;
            BaselineRecord secondRecord;
            BaselineCheckResult recheck;
            int attempt = 0;
            do
            {
                // A confirming measurement taken while the machine ran at another speed confirms nothing either way: it is
                // taken again (a host's slow mode passes within seconds).
                second = judged.Remeasure();
                secondRecord = BaselineRecord.FromResult(second);
                recheck = store.Check(baselinePath, machine, secondRecord, folderProblem);
            }
            while (++attempt < SpeedAttempts && recheck.Verdicts.Any(v => v.ConditionsChanged && firstRegressed.Contains(v.Counter)));

            // Code that was not final in either measurement (its tier-1 code still to come, other code compiled under the
            // samples) confirms nothing: a test host busy compiling its own reporting kept a body at tier 0 for both, and
            // failed unchanged code by 20 %. Such a regression is reported, not failed.
            bool neitherFinal = !RanFinalCode(judged.Run) && !RanFinalCode(second.Run);
            confirmed = neitherFinal ? [] : [.. recheck.Verdicts.Where(v => v.IsRegression && firstRegressed.Contains(v.Counter)).Select(static v => v.Counter)];
            var confirmedSet = confirmed.ToHashSet(StringComparer.Ordinal);
            var verdicts = recheck.Verdicts
                .Select(v => v.IsRegression && !confirmedSet.Contains(v.Counter) ? v with { Status = CounterVerdictStatus.Unconfirmed } : v)
                .ToList();
            unconfirmed = [.. verdicts.Where(static v => v.Status == CounterVerdictStatus.Unconfirmed).Select(static v => v.Counter)];

            string first = string.Join("; ", check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Text));
            string again = string.Join("; ", recheck.Verdicts.Where(v => firstRegressed.Contains(v.Counter) || v.IsRegression).Select(static v => v.Text));
            bool regressedAgain = recheck.Verdicts.Any(v => v.IsRegression && firstRegressed.Contains(v.Counter));
            string outcome = confirmed.Count > 0 ? "confirmed it" : regressedAgain ? "regressed too, on code that was not final either" : "did not";
            remeasurements.Add($"Measured twice: the first measurement regressed ({first}); the second, reported here, {outcome} ({again}).");
            if (confirmed.Count > 0)
            {
                confirmation = "Confirmed by a second measurement: " + string.Join("; ", verdicts.Where(static v => v.IsRegression).Select(static v => v.Text)) + ".";
            }
            else if (regressedAgain)
            {
                notices.Add($"Not failing on a regression measured on code that was not final in either measurement ({first}; then {again}): {string.Join(" ", second.Run.Notes)} Run the test alone, or give it a longer TimeBudget, to judge it.");
            }
            else
            {
                notices.Add($"Not failing on an unconfirmed regression: the first measurement regressed ({first}), a second one did not ({again}).");
            }

            // The second measurement decided the outcome either way: the verdicts, the report and a failure message all show
            // it. Unconfirmed regressions pass; a missing baseline in CI still fails when the policy says so.
            check = store.Rejudge(recheck, verdicts);
            judged = second;
            current = secondRecord;
        }

        if (check.Outcome == BaselineOutcome.Updated && !RanFinalCode(judged.Run))
        {
            notices.Add($"The baseline entry was recorded from a measurement whose code may not have been final ({string.Join(" ", judged.Run.Notes)}). Record it again with the test alone, or with a longer TimeBudget, before relying on it.");
        }

        if (check.Verdicts.FirstOrDefault(static v => v.ConditionsChanged) is { } slow)
        {
            // In add mode the outcome line says why nothing was added; "record it again with =1" would undo the levels.
            if (!store.IsAddingProcessLevels)
                notices.Add($"Time not judged: {slow.Text}{(speedMeasurements > 1 ? $", in {speedMeasurements} measurements" : string.Empty)}. If this persists on a quiet machine, the baseline was recorded at another speed of the host: record it again ({BaselineStoreOptions.UpdateVariable}=1).");
        }
        else if (check.Verdicts.FirstOrDefault(static v => v.Status == CounterVerdictStatus.Inconclusive) is { } inconclusive)
        {
            notices.Add(inconclusive.Text);
        }

        switch (check.Outcome)
        {
            case BaselineOutcome.Notice:
                notices.Add(check.Message);
                break;
            case BaselineOutcome.Updated when store.IsAddingProcessLevels && check.UpdateNote is { } added:
                // What adding a process level did: added, matched a level (nothing written), or replaced the entry.
                notices.Add(added);
                break;
            case BaselineOutcome.Updated:
                notices.Add($"Baseline updated: {check.BaselinePath} (entry of {machine.Id}).");
                break;
            case BaselineOutcome.Pass when check.WriteFailure is not null:
                notices.Add(check.WriteFailure);
                break;
        }

        return new BaselineJudgement
        {
            First = result,
            Judged = judged,
            Current = current,
            Check = check,
            Baseline = baseline,
            Remeasurement = remeasurements.Count == 0 ? null : string.Join(" ", remeasurements),
            Confirmation = confirmation,
            ConfirmedCounters = confirmed,
            UnconfirmedCounters = unconfirmed,
            Notices = notices,
        };
    }

    private static BaselineJudgement NotJudged(PerfResult result, string baselinePath, string reason)
    {
        string message = $"Not compared with the baseline and not recorded: {reason}";
        var check = new BaselineCheckResult(BaselineOutcome.NotJudged, [], Path.GetFullPath(baselinePath), null, message);
        return new BaselineJudgement { First = result, Judged = result, Current = BaselineRecord.FromResult(result), Check = check, Notices = [message] };
    }

    /// <summary>Whether a run measured the body's final code: its warmup ended on evidence and no code changed under the samples.</summary>
    /// <param name="run">The run.</param>
    /// <returns><see langword="true"/> when the numbers are those of the final code.</returns>
    public static bool RanFinalCode(PerfRunInfo run) => run.WarmupEnd != WarmupEnd.TimeCap && !run.CodeMayHaveChanged;

    // The baseline path, or, when the test's source folder cannot be found (a deterministic build run outside the
    // repository), the path it would have and the locator's explanation, so the check reports it instead of throwing.
    // A relative BaselineDirectory is taken from the repository root of the test's source, never from the current
    // directory: under dotnet test that is bin/<configuration>/<tfm>, where baselines would be lost at the next clean.
    internal static (string Path, string? Problem) Locate(string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
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
            string unresolved = Path.Combine(Path.GetDirectoryName(callerFilePath) ?? string.Empty, options.BaselineDirectory ?? string.Empty, fileName);
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

    // A regression is confirmed by a second measurement when it could be noise: some counter regressed statistically, or
    // the run's code was not final (then even a deterministic counter may have moved with the code).
    private static bool NeedsConfirmation(BaselineCheckResult check, PerfResult judged, BaselineRecord current, VerdictPolicy policy)
    {
        if (check.Outcome != BaselineOutcome.Fail || !check.Verdicts.Any(static v => v.IsRegression) || !judged.CanRemeasure)
            return false;
        if (!RanFinalCode(judged.Run))
            return true;

        foreach (CounterVerdict verdict in check.Verdicts)
        {
            if (!verdict.IsRegression)
                continue;
            BaselineCounter? counter = current.Find(verdict.Counter);
            if (counter is null || policy.GetRule(counter.Name, counter.Kind).Mode == VerdictMode.Exact)
                return false;
        }

        return true;
    }
}
