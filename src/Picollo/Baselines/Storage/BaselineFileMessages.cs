using System.Globalization;

namespace Picollo.Baselines.Storage;

/// <summary>
/// The messages about baseline files themselves: a file that cannot be read (its format, with the JSON location
/// and the fix), a folder that cannot be found, locked or written, and what accepting a received file drops.
/// <c>BaselineStore</c>, <see cref="BaselineFileLock"/>, <see cref="BaselineLocator"/> and the JSON codec decide;
/// this class words it. Each kind is shown in <c>Approved/BaselineFileMessages.approved.md</c>.
/// </summary>
internal static class BaselineFileMessages
{
    private const string Advice =
        "Fix the file (e.g. resolve a merge conflict) or delete it and record it again with PICOLLO_UPDATE_BASELINES=1; "
        + "Picollo does not overwrite it while it is unreadable.";

    /// <summary>A baseline file that is not a valid baseline: where, what is wrong, and the fix.</summary>
    /// <param name="filePath">The file, or <see langword="null"/> when parsed from text.</param>
    /// <param name="where">The JSON location, e.g. <c>$.entries['…'].counters['tsc']</c> or <c>line 3, byte 7</c>.</param>
    /// <param name="problem">What is wrong there, as a sentence.</param>
    public static string InvalidFile(string? filePath, string where, string problem) =>
        $"Invalid baseline file {filePath ?? "(text)"} at {where}: {problem} {Advice}";

    /// <summary>The problem of a required field that is missing, with an example of it.</summary>
    /// <param name="field">The field's name.</param>
    /// <param name="example">An example value, as JSON.</param>
    public static string MissingField(string field, string example) =>
        $"the required field '{field}' is missing or null; e.g. \"{field}\": {example}.";

    /// <summary>The problem of a baseline written in a format version this Picollo does not read.</summary>
    /// <param name="version">The file's version.</param>
    /// <param name="current">The version this Picollo writes (it reads 1 too).</param>
    public static string UnsupportedFormatVersion(int version, int current) => string.Create(CultureInfo.InvariantCulture,
        $"format version {version} is not supported by this Picollo (it reads versions 1 and {current}); update Picollo, "
        + $"or record the baseline again.");

    /// <summary>The problem of an entry whose key is not the id its machine fields give.</summary>
    /// <param name="machineId">The id the machine fields give.</param>
    public static string EntryKeyMismatch(string machineId) =>
        $"the key does not match the machine fields, which give the id '{machineId}': the entry was edited by hand or copied "
        + "from another file. Restore the key or the fields.";

    /// <summary>A baseline folder that could not be written: what, where, why, and the fix.</summary>
    /// <param name="action">What was attempted, e.g. <c>write the received file</c>.</param>
    /// <param name="path">The file.</param>
    /// <param name="reason">Why it failed, e.g. <c>the folder /src/tests is not writable for this user</c>.</param>
    public static string CouldNotWrite(string action, string path, string reason) =>
        $"Could not {action} {path}: {reason}. Nothing was written. Make the folder writable, or set "
        + $"{BaselineLocator.BaselineRootVariable} to the repository root when the tests run from a copy of the sources "
        + "(a container, a CI image).";

    /// <summary>A received file stands for one measurement: accepting it drops the levels the machine's entry recorded.</summary>
    /// <param name="processes">The processes the machine's entry was recorded across.</param>
    public static string AcceptingReplacesLevels(int processes) =>
        $"Accepting it replaces this machine's entry, recorded across {processes} processes, with this measurement's; record it "
        + $"again with {BaselineStoreOptions.UpdateVariable}=1 to measure the levels of other processes too.";

    /// <summary>Another test or process held a baseline folder's lock for longer than the timeout.</summary>
    /// <param name="folder">The folder.</param>
    /// <param name="seconds">The timeout, in seconds.</param>
    /// <param name="baselineFile">The baseline being written, by file name, or <see langword="null"/> when not known.</param>
    public static string LockHeldTooLong(string folder, double seconds, string? baselineFile)
    {
        string writing = baselineFile is null ? "" : $" (writing '{baselineFile}')";
        return string.Create(CultureInfo.InvariantCulture,
            $"Another test or process held the lock of the baseline folder '{folder}' for more than {seconds:0.#} s{writing}: "
            + $"a test may be hanging while it writes its baseline.");
    }

    /// <summary>
    /// A test's source folder, where its baseline lives, was found nowhere (a deterministic build run outside the repository).
    /// </summary>
    /// <param name="callerFilePath">The test's source file, as compiled in.</param>
    /// <param name="tried">The folders tried.</param>
    public static string SourceFolderNotFound(string callerFilePath, IReadOnlyList<string> tried) =>
        $"Cannot find the directory of the test source '{callerFilePath}', where its perf baseline lives. "
        + $"Tried: {string.Join(", ", tried)}. "
        + "Deterministic builds (ContinuousIntegrationBuild=true) replace source paths with /_/: set "
        + $"{BaselineLocator.BaselineRootVariable} to the directory /_/ stands for (the repository root), "
        + "run the tests from the build output inside the repository, or set "
        + "<ContinuousIntegrationBuild>false</ContinuousIntegrationBuild> in the test project.";
}
