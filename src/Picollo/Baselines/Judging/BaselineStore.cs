using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;

namespace Picollo.Baselines.Judging;

/// <summary>
/// Reads baselines, judges measurements against them, and writes received files and updates, Verify-style
/// (docs/ARCHITECTURE.md, "Baselines and verdicts"): results that differ or have no entry go to
/// <c>*.received.perf.json</c> beside the baseline, to be accepted by renaming it over the baseline or by running with
/// <c>PICOLLO_UPDATE_BASELINES=1</c>.
/// </summary>
/// <remarks>
/// <para>
/// Every write is a read-merge-write under an exclusive lock of the baseline path (<see cref="BaselineFileLock"/>):
/// parallel tests of one process and several processes (e.g. one per target framework) updating the same file
/// each re-read it under the lock and add their entry, so none is lost. The file is replaced atomically: the new
/// content goes to a temporary file in the same directory (same file system), is flushed, and is moved over the
/// target, so readers never see half a file.
/// </para>
/// <para>
/// A corrupt baseline throws <see cref="BaselineFormatException"/> and is never written, not even in update mode:
/// merging into it would drop the other machines' entries.
/// </para>
/// </remarks>
internal sealed class BaselineStore
{
    // PICOLLO_UPDATE_BASELINES=add: update mode that extends this machine's entry by one process's level (TimeSpread.Extend).
    private const string AddValue = "add";

    private readonly BaselineStoreOptions _options;
    private readonly Func<string, string?> _getEnvironmentVariable;
    private (string Path, BaselineFile? File)? _read;

    /// <summary>Creates a store.</summary>
    /// <param name="options">The options; defaults when <see langword="null"/>.</param>
    public BaselineStore(BaselineStoreOptions? options = null)
    {
        _options = options ?? new BaselineStoreOptions();
        _getEnvironmentVariable = _options.GetEnvironmentVariable ?? Environment.GetEnvironmentVariable;
    }

    /// <summary>
    /// Whether results are merged into baselines: <see cref="BaselineStoreOptions.UpdateBaselines"/>,
    /// <see cref="BaselineStoreOptions.AddProcessLevels"/>, or <c>PICOLLO_UPDATE_BASELINES</c> = <c>1</c>/<c>true</c>/<c>add</c>.
    /// </summary>
    public bool IsUpdateMode =>
        _options.UpdateBaselines || IsTrue(_getEnvironmentVariable(BaselineStoreOptions.UpdateVariable)) || IsAddingProcessLevels;

    /// <summary>
    /// Whether update mode extends this machine's entry by the measurement's level
    /// (<see cref="BaselineStoreOptions.AddProcessLevels"/>, <c>PICOLLO_UPDATE_BASELINES=add</c>) rather than replacing
    /// it.
    /// </summary>
    /// <remarks>An explicit <c>PICOLLO_UPDATE_BASELINES=1</c> wins over the option: it is how a full entry starts over.</remarks>
    public bool IsAddingProcessLevels
    {
        get
        {
            string? variable = _getEnvironmentVariable(BaselineStoreOptions.UpdateVariable);
            return string.Equals(variable?.Trim(), AddValue, StringComparison.OrdinalIgnoreCase)
                || (_options.AddProcessLevels && !IsTrue(variable));
        }
    }

    /// <summary>The CI variable detected (see <see cref="ContinuousIntegration.Detect"/>), or <see langword="null"/> locally.</summary>
    public string? CIVariable => ContinuousIntegration.Detect(_getEnvironmentVariable);

    /// <summary>Reads a baseline file (<see cref="BaselineJson.Read"/>).</summary>
    /// <param name="path">The baseline path.</param>
    /// <returns>The file, or <see langword="null"/> when it does not exist.</returns>
    /// <exception cref="BaselineFormatException">The file is not a valid baseline; the message names it and the JSON position.</exception>
    public static BaselineFile? Read(string path) => BaselineJson.Read(path);

    /// <summary>
    /// Whether a verdict leaves nothing to record: a pass, or too few samples to judge (a received file would hold no
    /// better numbers).
    /// </summary>
    /// <param name="verdict">The verdict.</param>
    /// <returns><see langword="true"/> for <see cref="CounterVerdictStatus.Pass"/> and
    /// <see cref="CounterVerdictStatus.Inconclusive"/>.</returns>
    public static bool IsPassing(CounterVerdict verdict) =>
        verdict.Status is CounterVerdictStatus.Pass or CounterVerdictStatus.Inconclusive;

    /// <summary>
    /// Judges <paramref name="current"/> against the baseline at <paramref name="baselinePath"/> without writing
    /// anything.
    /// </summary>
    /// <param name="baselinePath">The baseline path.</param>
    /// <param name="machine">The machine the measurement ran on.</param>
    /// <param name="current">The measurement.</param>
    /// <param name="folderProblem">Why the baseline's folder cannot be used, or <see langword="null"/>: then there is no baseline.</param>
    /// <param name="looks">What the judgement's earlier measurements in this process showed, or <see langword="null"/>.</param>
    /// <returns>One verdict per counter.</returns>
    /// <exception cref="BaselineFormatException">The baseline is corrupt.</exception>
    public IReadOnlyList<CounterVerdict> Compare(
        string baselinePath, MachineFingerprint machine, BaselineRecord current, string? folderProblem = null, EarlierLooks? looks = null)
    {
        ArgumentNullException.ThrowIfNull(baselinePath);
        BaselineFile? baseline = folderProblem is null ? ReadOnce(Path.GetFullPath(baselinePath)) : null;
        return BaselineComparer.Compare(baseline, machine, current, _options.VerdictPolicy, looks);
    }

    /// <summary>
    /// The baseline as this store last read it (<see cref="Read"/> the first time): a judgement compares up to a dozen
    /// measurements with one file, which nothing but this store's own update writes meanwhile (each test has its own file).
    /// </summary>
    /// <param name="fullPath">The baseline's full path.</param>
    /// <returns>The file, or <see langword="null"/> when it does not exist.</returns>
    /// <exception cref="BaselineFormatException">The file is not a valid baseline.</exception>
    public BaselineFile? ReadOnce(string fullPath)
    {
        if (_read is { } read && read.Path == fullPath)
            return read.File;
        BaselineFile? file = Read(fullPath);
        _read = (fullPath, file);
        return file;
    }

    /// <summary>
    /// Judges <paramref name="current"/> against the baseline at <paramref name="baselinePath"/> and writes what the
    /// outcome calls for: in update mode the merged baseline; otherwise a received file when a counter is not a plain
    /// pass, and the removal of this machine's stale received entry when all pass (<see cref="Plan"/>, then
    /// <see cref="Write"/>).
    /// </summary>
    /// <param name="baselinePath">The baseline path (see <see cref="BaselineLocator"/>).</param>
    /// <param name="machine">The machine the measurement ran on (usually <see cref="MachineFingerprint.Current"/>).</param>
    /// <param name="current">The measurement.</param>
    /// <param name="folderProblem">
    /// Why the baseline's folder cannot be used (the test's source folder was not found), or <see langword="null"/>: then
    /// nothing is read or written, the counters have no baseline, and the problem is reported as a write failure.
    /// </param>
    /// <param name="written">
    /// What is written (the baseline entry or the received one) when it is not <paramref name="current"/>: the judge leaves out
    /// the time of a measurement whose code was not final, yet judges it; <see langword="null"/> writes
    /// <paramref name="current"/>.
    /// </param>
    /// <param name="looks">What the judgement's earlier measurements in this process showed, or <see langword="null"/>.</param>
    /// <returns>The verdicts and their outcome. A folder that cannot be written is never thrown: locally it is a line of
    /// the message and <see cref="BaselineCheckResult.WriteFailure"/>; in update mode it fails the check.</returns>
    /// <exception cref="BaselineFormatException">The baseline is corrupt; it is left untouched.</exception>
    public BaselineCheckResult Check(
        string baselinePath,
        MachineFingerprint machine,
        BaselineRecord current,
        string? folderProblem = null,
        BaselineRecord? written = null,
        EarlierLooks? looks = null)
        => Write(Plan(baselinePath, machine, current, folderProblem, written, looks));

    /// <summary>
    /// Judges <paramref name="current"/> against the baseline and decides what its outcome writes, writing nothing
    /// (<see cref="Check"/> has the parameters).
    /// </summary>
    /// <param name="baselinePath">The baseline path.</param>
    /// <param name="machine">The machine the measurement ran on.</param>
    /// <param name="current">The measurement.</param>
    /// <param name="folderProblem">Why the baseline's folder cannot be used, or <see langword="null"/>.</param>
    /// <param name="written">What is written when it is not <paramref name="current"/>, or <see langword="null"/>.</param>
    /// <param name="looks">What the judgement's earlier measurements in this process showed, or <see langword="null"/>.</param>
    /// <returns>The plan: <see cref="Preview"/> says what it means, <see cref="Write"/> writes it.</returns>
    /// <exception cref="BaselineFormatException">The baseline is corrupt.</exception>
    public BaselineCheckPlan Plan(
        string baselinePath,
        MachineFingerprint machine,
        BaselineRecord current,
        string? folderProblem = null,
        BaselineRecord? written = null,
        EarlierLooks? looks = null)
    {
        ArgumentNullException.ThrowIfNull(baselinePath);
        ArgumentNullException.ThrowIfNull(machine);
        ArgumentNullException.ThrowIfNull(current);
        baselinePath = Path.GetFullPath(baselinePath);
        IReadOnlyList<CounterVerdict> verdicts = Compare(baselinePath, machine, current, folderProblem, looks);
        return new BaselineCheckPlan(baselinePath, machine, verdicts, BaselineEntry.Split(machine, written ?? current), folderProblem);
    }

    /// <summary>The result <paramref name="plan"/> stands for, as though its writes succeed; nothing is written.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>The result; the stages of a judgement decide from it before anything is written.</returns>
    public BaselineCheckResult Preview(BaselineCheckPlan plan) => Finish(plan, write: false);

    /// <summary>Writes what <paramref name="plan"/> calls for and returns the result, write failures included.</summary>
    /// <param name="plan">The plan.</param>
    /// <returns>The result.</returns>
    /// <exception cref="BaselineFormatException">The baseline is corrupt; it is left untouched.</exception>
    public BaselineCheckResult Write(BaselineCheckPlan plan) => Finish(plan, write: true);

    private BaselineCheckResult Finish(BaselineCheckPlan plan, bool write)
    {
        ArgumentNullException.ThrowIfNull(plan);
        if (plan.Refused is { } refused)
            return refused;
        (string baselinePath, MachineFingerprint machine, IReadOnlyList<CounterVerdict> verdicts, IReadOnlyList<BaselineEntry> entries,
            string? folderProblem) = plan;
        var lines = verdicts.Select(v => v.Text).ToList();

        if (IsUpdateMode)
            return FinishUpdate(plan, write, lines);

        string receivedPath = BaselineLocator.GetReceivedPath(baselinePath);
        if (verdicts.All(IsPassing))
        {
            // Clean-up of an earlier run's pending entry: a folder that refuses it leaves a stale received file, nothing more.
            if (write)
            {
                _ = BaselineFileWriter.TryWrite(
                    () => ReceivedFile.RemoveEntries(
                        baselinePath, receivedPath, [.. entries.Select(static e => e.Machine.Id)], _options.LockTimeout),
                    "remove the pending entry of",
                    receivedPath);
            }

            return new BaselineCheckResult(BaselineOutcome.Pass, verdicts, baselinePath, null, string.Join('\n', lines));
        }

        string? failure = folderProblem
            ?? (!write ? null : BaselineFileWriter.TryWrite(
                () => ReceivedFile.Write(baselinePath, receivedPath, entries, _options.LockTimeout),
                "write the received file",
                receivedPath));
        return Conclude(verdicts, baselinePath, failure is null ? receivedPath : null, failure);
    }

    // Update mode: the user asked for the baseline to be written; not writing it is a failure, with the reason and the fix.
    private BaselineCheckResult FinishUpdate(BaselineCheckPlan plan, bool write, List<string> lines)
    {
        (string baselinePath, MachineFingerprint machine, IReadOnlyList<CounterVerdict> verdicts, IReadOnlyList<BaselineEntry> entries,
            string? folderProblem) = plan;
        string? added = null;
        string? updateFailure = folderProblem ?? (!write ? null : IsAddingProcessLevels
            ? BaselineFileWriter.TryWrite(() => added = AddProcessLevels(baselinePath, entries), "update the baseline", baselinePath)
            : BaselineFileWriter.TryWrite(() => UpdateAll(baselinePath, entries), "update the baseline", baselinePath));
        if (write)
        {
            // What was read before the update is no longer the file.
            _read = null;
        }

        if (updateFailure is not null)
        {
            lines.Add(updateFailure);
            return new BaselineCheckResult(BaselineOutcome.Fail, verdicts, baselinePath, null, string.Join('\n', lines), updateFailure);
        }

        string? note = !write ? null : added is not null
            ? $"Updated {baselinePath}, the entry of {machine.Id}: {added} "
                + $"({BaselineStoreOptions.UpdateVariable}={AddValue} or AddProcessLevels is on)."
            : $"Updated {baselinePath} with the {(entries.Count == 1 ? "entry" : "entries")} of "
                + $"{string.Join(" and ", entries.Select(static e => e.Machine.Id))} "
                + $"({BaselineStoreOptions.UpdateVariable} or UpdateBaselines is on).";
        if (note is not null)
            lines.Add(note);
        return new BaselineCheckResult(BaselineOutcome.Updated, verdicts, baselinePath, null, string.Join('\n', lines))
        {
            UpdateNote = note,
        };
    }

    /// <summary>
    /// The outcome and message of <paramref name="check"/> with its verdicts replaced, e.g. a regression that a second
    /// measurement did not confirm marked <see cref="CounterVerdictStatus.Unconfirmed"/>. Writes nothing: what is written is
    /// the plan that produced <paramref name="check"/> (<see cref="Write"/>).
    /// </summary>
    /// <param name="check">A result of <see cref="Check"/>, <see cref="Preview"/> or <see cref="Write"/>.</param>
    /// <param name="verdicts">The verdicts to judge instead.</param>
    /// <returns>The re-judged result: a missing baseline in CI still fails when the policy says so.</returns>
    internal BaselineCheckResult Rejudge(BaselineCheckResult check, IReadOnlyList<CounterVerdict> verdicts)
        => check.Outcome == BaselineOutcome.Updated
            ? check with { Verdicts = verdicts }
            : Conclude(verdicts, check.BaselinePath, check.ReceivedPath, check.WriteFailure);

    // One line per verdict, except that counters not compared for the same reason share one ("tsc, allocated-bytes, ...:
    // no baseline file"): a first run listed the ten counters of the default set on ten lines saying the same thing. Counters
    // that passed at 0 on both sides (most runtime counters of most bodies) share one line too: six "0 → 0, z = 0.3: pass"
    // lines hid the one that moved. Each verdict stays whole in the result file.
    private static List<string> Lines(IReadOnlyList<CounterVerdict> verdicts)
    {
        List<string> lines =
        [
            .. verdicts
                .Where(static v => !ZeroOnBothSides(v))
                .Select(static (v, i) => (Verdict: v, Key: v.Status is CounterVerdictStatus.NoBaseline or CounterVerdictStatus.NotComparable
                    && v.Reason is { } reason ? "\0" + reason : i.ToString(CultureInfo.InvariantCulture)))
                .GroupBy(static x => x.Key, StringComparer.Ordinal)
                .Select(static g => g.Key[0] == '\0'
                    ? $"{string.Join(", ", g.Select(static x => x.Verdict.Counter))}: {g.First().Verdict.Reason}"
                    : g.First().Verdict.Text),
        ];
        string[] zeros = [.. verdicts.Where(ZeroOnBothSides).Select(static v => v.Counter)];
        if (zeros.Length > 0)
            lines.Add($"{string.Join(", ", zeros)}: 0 → 0 per operation: pass");
        return lines;
    }

    private static bool ZeroOnBothSides(CounterVerdict verdict) =>
        verdict is { Status: CounterVerdictStatus.Pass, Reason: null, BaselineValue: 0, CurrentValue: 0 };

    private BaselineCheckResult Conclude(
        IReadOnlyList<CounterVerdict> verdicts, string baselinePath, string? receivedPath, string? writeFailure)
    {
        List<string> lines = Lines(verdicts);
        if (verdicts.All(IsPassing))
            return new BaselineCheckResult(BaselineOutcome.Pass, verdicts, baselinePath, null, string.Join('\n', lines));

        string? ci = CIVariable;
        bool missing = verdicts.Any(v => v.Status is CounterVerdictStatus.NoBaseline or CounterVerdictStatus.NotComparable);
        BaselineOutcome outcome =
            verdicts.Any(v => v.IsRegression) || (missing && ci is not null && _options.MissingBaselineInCI == MissingBaselinePolicy.Fail)
                ? BaselineOutcome.Fail
                : BaselineOutcome.Notice;
        if (missing)
        {
            string inCI = _options.MissingBaselineInCI == MissingBaselinePolicy.Fail ? "fail" : "pass with this notice";
            lines.Add(ci is null
                ? "Missing baselines pass locally."
                : $"CI build ({ci}): missing baselines {inCI} (MissingBaselineInCI = {_options.MissingBaselineInCI}).");
        }

        // The received entry is this measurement: accepting it drops the levels the machine's entry recorded across processes,
        // which code with a speed per process needs (docs/VERDICTS.md, "Levels").
        string levels = verdicts.FirstOrDefault(static v => v.RecordedProcesses > 1) is { } leveled
            ? " " + BaselineFileMessages.AcceptingReplacesLevels(leveled.RecordedProcesses)
            : string.Empty;
        if (writeFailure is not null)
            lines.Add(writeFailure);
        else if (receivedPath is not null)
        {
            lines.Add($"Received: {receivedPath}. To accept, rename it to {Path.GetFileName(baselinePath)} "
                + $"or run with {BaselineStoreOptions.UpdateVariable}=1.{levels}");
        }

        // An improvement is news the reader acts on: one line that says so and how to make it the new baseline.
        if (outcome == BaselineOutcome.Notice && !missing && receivedPath is not null
            && verdicts.Any(v => v.Status == CounterVerdictStatus.Improved))
        {
            string improved = string.Join("; ", verdicts.Where(v => v.Status == CounterVerdictStatus.Improved).Select(v => v.Text));
            lines = [$"Improved: {improved}. Lock it in: rename {receivedPath} to {Path.GetFileName(baselinePath)}, "
                + $"or run with {BaselineStoreOptions.UpdateVariable}=1.{levels}"];
        }

        return new BaselineCheckResult(outcome, verdicts, baselinePath, receivedPath, string.Join('\n', lines), writeFailure);
    }

    /// <summary>
    /// Merges <paramref name="entry"/> into the baseline at <paramref name="baselinePath"/> (creating it), keeping the
    /// other machines' entries, and removes that machine's entry from the received file.
    /// </summary>
    /// <param name="baselinePath">The baseline path.</param>
    /// <param name="entry">The machine's entry.</param>
    /// <exception cref="BaselineFormatException">The baseline is corrupt; it is left untouched.</exception>
    public void Update(string baselinePath, BaselineEntry entry)
    {
        ArgumentNullException.ThrowIfNull(baselinePath);
        ArgumentNullException.ThrowIfNull(entry);
        baselinePath = Path.GetFullPath(baselinePath);
        using (BaselineFileLock.Acquire(baselinePath, _options.LockTimeout))
        {
            BaselineFile merged = (Read(baselinePath) ?? BaselineFile.Empty).WithEntry(entry);
            BaselineFileWriter.WriteAtomically(baselinePath, merged.ToJson());
            ReceivedFile.RemoveEntryLocked(merged, BaselineLocator.GetReceivedPath(baselinePath), entry.Machine.Id);
        }
    }

    // Each entry merged (a measurement with simulated counters is two: the host's and the simulated machine's).
    private void UpdateAll(string baselinePath, IReadOnlyList<BaselineEntry> entries)
    {
        foreach (BaselineEntry entry in entries)
            Update(baselinePath, entry);
    }

    // The host's entry extended by the measurement's level; a simulated machine's has no levels: merged.
    private string AddProcessLevels(string baselinePath, IReadOnlyList<BaselineEntry> entries)
    {
        string? added = null;
        foreach (BaselineEntry entry in entries)
        {
            if (entry.Machine.IsSimulated)
                Update(baselinePath, entry);
            else
                added = AddProcessLevel(baselinePath, entry);
        }

        return added ?? "its simulated counters merged";
    }

    // Extends this machine's entry by the measurement's level (TimeSpread.Extend) under the baseline's lock, and says what
    // happened; the file is rewritten only when the entry changed.
    private string AddProcessLevel(string baselinePath, BaselineEntry entry)
    {
        using (BaselineFileLock.Acquire(baselinePath, _options.LockTimeout))
        {
            BaselineFile file = Read(baselinePath) ?? BaselineFile.Empty;
            BaselineEntry? existing = file.Find(entry.Machine.Id);
            (BaselineEntry written, string outcome) = TimeSpread.Extend(existing, entry, _options.VerdictPolicy);
            if (!ReferenceEquals(written, existing))
            {
                file = file.WithEntry(written);
                BaselineFileWriter.WriteAtomically(baselinePath, file.ToJson());
            }

            // Whatever was written, this machine's pending received entry (a failure of a process at another level) is
            // stale now: accepting it later would replace the levels with that one run.
            ReceivedFile.RemoveEntryLocked(file, BaselineLocator.GetReceivedPath(baselinePath), entry.Machine.Id);
            return outcome;
        }
    }

    private static bool IsTrue(string? value) =>
        value is not null && (value.Trim() == "1" || value.Trim().Equals("true", StringComparison.OrdinalIgnoreCase));
}
