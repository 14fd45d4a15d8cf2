using System.Globalization;
using System.Text;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Picollo.Measurement;

namespace Picollo.Baselines.Judging;

/// <summary>
/// The protocol between a judgement that wants a body measured in a fresh process and that process (docs/VERDICTS.md,
/// "Levels"): the parent starts the test assembly on the one test with these environment variables; in the child the
/// judgement of that baseline measures instead of judging and writes each measurement beside <see cref="OutputVariable"/>,
/// and every other baseline is left alone. The files are baseline files of one entry, preceded by one line with the other
/// processes' load, so the parent reads them with the baseline codec and its errors.
/// </summary>
internal static class FreshProcessWorker
{
    /// <summary>The full path of the baseline whose body the child measures.</summary>
    public const string BaselineVariable = "PICOLLO_WORKER_BASELINE";

    /// <summary>The path prefix of the child's output files: <c>{prefix}.{i}.json</c>, one per measurement.</summary>
    public const string OutputVariable = "PICOLLO_WORKER_OUTPUT";

    /// <summary>How many measurements the child takes.</summary>
    public const string MeasurementsVariable = "PICOLLO_WORKER_MEASUREMENTS";

    /// <summary>Whether this process is a worker: the variables name a baseline.</summary>
    /// <param name="getEnvironmentVariable">The environment.</param>
    /// <returns><see langword="true"/> in a worker.</returns>
    public static bool IsWorker(Func<string, string?> getEnvironmentVariable) =>
        !string.IsNullOrEmpty(getEnvironmentVariable(BaselineVariable)) && !string.IsNullOrEmpty(getEnvironmentVariable(OutputVariable));

    /// <summary>Whether this worker was started for <paramref name="baselinePath"/>.</summary>
    /// <param name="baselinePath">A baseline's full path.</param>
    /// <param name="getEnvironmentVariable">The environment.</param>
    /// <returns><see langword="true"/> when the worker measures that baseline.</returns>
    public static bool IsFor(string baselinePath, Func<string, string?> getEnvironmentVariable) =>
        getEnvironmentVariable(BaselineVariable) is { Length: > 0 } wanted
        && string.Equals(Path.GetFullPath(wanted), Path.GetFullPath(baselinePath), StringComparison.Ordinal);

    /// <summary>
    /// In a worker, the worker's side of a judgement: when <paramref name="baselinePath"/> is the one asked for, measures
    /// the body as often as asked (the first measurement included) and writes each; any other baseline measures nothing more.
    /// </summary>
    /// <param name="judged">The measurement of the body, ready to be measured again.</param>
    /// <param name="baselinePath">The baseline this judgement is for.</param>
    /// <param name="getEnvironmentVariable">The environment.</param>
    /// <returns>What the worker did, for the child's own output.</returns>
    public static string Measure(PerfResult judged, string baselinePath, Func<string, string?> getEnvironmentVariable)
    {
        ArgumentNullException.ThrowIfNull(judged);
        if (!IsFor(baselinePath, getEnvironmentVariable))
        {
            return $"Not judged: this process measures {getEnvironmentVariable(BaselineVariable)} for another process's recording, "
                + $"not {baselinePath}.";
        }

        string prefix = getEnvironmentVariable(OutputVariable)!;
        string? measurements = getEnvironmentVariable(MeasurementsVariable);
        int count = int.TryParse(measurements, NumberStyles.Integer, CultureInfo.InvariantCulture, out int n)
            && n is >= 1 and <= 16 ? n : 1;
        PerfResult result = judged;
        int written = 0;
        for (int i = 0; i < count; i++)
        {
            if (i > 0)
                result = result.Remeasure();
            // A measurement of code that was not final is no level of the body: tier-0 code runs several times slower, and
            // one such process would widen the recorded spread, or confirm a regression, by that much (issue 24).
            if (!result.Run.RanFinalCode)
                continue;
            BaselineRecord record = BaselineRecord.FromResult(result);
            string text = string.Create(CultureInfo.InvariantCulture, $"{record.OtherProcessesCores:R}\n")
                + new BaselineFile([new BaselineEntry(MachineFingerprint.Current, record)]).ToJson();

            // Written whole and renamed, so the parent never reads half a file of a process it had to kill.
            string path = string.Create(CultureInfo.InvariantCulture, $"{prefix}.{written++}.json");
            File.WriteAllText(path + ".tmp", text, Encoding.UTF8);
            File.Move(path + ".tmp", path, overwrite: true);
        }

        // Why this process has no level, for the parent's notice: it measured, but never the final code.
        if (written == 0)
            File.WriteAllText(NotFinalPath(prefix), string.Join(" ", result.Run.Notes), Encoding.UTF8);

        return string.Create(CultureInfo.InvariantCulture,
            $"Measured {count} time(s) for another process's recording of {baselinePath}; {written} ran the body's final code.");
    }

    /// <summary>
    /// The parent's side: why a worker that wrote no measurement has none because none ran the body's final code (the last
    /// one's notes), or <see langword="null"/>.
    /// </summary>
    /// <param name="prefix">The output prefix given to the worker.</param>
    /// <returns>The notes, or <see langword="null"/> when the worker wrote no such file.</returns>
    public static string? ReadNotFinal(string prefix) =>
        File.Exists(NotFinalPath(prefix)) ? File.ReadAllText(NotFinalPath(prefix), Encoding.UTF8) : null;

    private static string NotFinalPath(string prefix) => prefix + ".not-final.txt";

    /// <summary>The parent's side: the measurements a worker wrote under <paramref name="prefix"/>, in order.</summary>
    /// <param name="prefix">The output prefix given to the worker.</param>
    /// <returns>The records, each with the other processes' load it measured beside.</returns>
    /// <exception cref="BaselineFormatException">A file is not what a worker writes.</exception>
    public static IReadOnlyList<BaselineRecord> Read(string prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        var records = new List<BaselineRecord>();
        for (int i = 0; ; i++)
        {
            string path = string.Create(CultureInfo.InvariantCulture, $"{prefix}.{i}.json");
            if (!File.Exists(path))
                return records;
            string text = File.ReadAllText(path, Encoding.UTF8);
            int newline = text.IndexOf('\n', StringComparison.Ordinal);
            double others = newline > 0
                && double.TryParse(text.AsSpan(0, newline), NumberStyles.Float, CultureInfo.InvariantCulture, out double cores)
                    ? cores
                    : double.NaN;
            BaselineFile file = BaselineJson.Parse(newline >= 0 ? text[(newline + 1)..] : text, path);
            if (file.Entries.Count != 1)
            {
                throw new BaselineFormatException(
                    $"Invalid worker output {path}: it holds {file.Entries.Count} entries, a worker writes one.",
                    path,
                    "$.entries",
                    null,
                    null,
                    null);
            }
            records.Add(file.Entries[0].Record with { OtherProcessesCores = others });
        }
    }
}
