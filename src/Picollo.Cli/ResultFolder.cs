using System.Text.Json;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Metrics;
using Picollo.Reporting.Serialization;

namespace Picollo.Cli;

/// <summary>
/// One run's results: every <c>*.result.json</c> a perf test wrote (<c>TestResults/picollo</c>, or
/// <c>PICOLLO_RESULTS_DIR</c>), each counter rebuilt as a baseline holds it (the histogram of per-sample totals and the
/// exact per-operation statistics), so two runs compare with the baselines' own rules.
/// </summary>
internal sealed class ResultFolder
{
    private ResultFolder(
        string folder,
        IReadOnlyDictionary<string, PerfReportModel> reports,
        IReadOnlyDictionary<string, BaselineRecord> tests,
        IReadOnlyDictionary<string, string> plots,
        IReadOnlyList<UnreadableResult> unreadable)
    {
        Folder = folder;
        Reports = reports;
        Tests = tests;
        Plots = plots;
        Unreadable = unreadable;
    }

    /// <summary>The folder, as a full path.</summary>
    public string Folder { get; }

    /// <summary>Each test's result file as written, by the test's name, in name order.</summary>
    public IReadOnlyDictionary<string, PerfReportModel> Reports { get; }

    /// <summary>Each test's percentile plot (the SVG written beside its result file), when there is one.</summary>
    public IReadOnlyDictionary<string, string> Plots { get; }

    /// <summary>Each test's counters by the test's name.</summary>
    public IReadOnlyDictionary<string, BaselineRecord> Tests { get; }

    /// <summary>The files that could not be read, each with the reason and the position; they are skipped.</summary>
    public IReadOnlyList<UnreadableResult> Unreadable { get; }

    /// <summary>Reads every result file under <paramref name="folder"/>.</summary>
    /// <exception cref="DirectoryNotFoundException">The folder does not exist.</exception>
    public static ResultFolder Read(string folder)
    {
        folder = Path.GetFullPath(folder);
        if (!Directory.Exists(folder))
            throw new DirectoryNotFoundException(CliMessages.NoResultsFolder(folder));

        var reports = new SortedDictionary<string, PerfReportModel>(StringComparer.Ordinal);
        var tests = new SortedDictionary<string, BaselineRecord>(StringComparer.Ordinal);
        var plots = new Dictionary<string, string>(StringComparer.Ordinal);
        var unreadable = new List<UnreadableResult>();
        foreach (string file in Directory.EnumerateFiles(folder, "*.result.json", SearchOption.AllDirectories)
            .Order(StringComparer.Ordinal))
        {
            try
            {
                PerfReportModel model = JsonSerializer.Deserialize(File.ReadAllBytes(file), PerfReportJsonContext.Default.PerfReportModel)
                    ?? throw new JsonException("The file holds null.");
                if (MissingPart(model) is { } missing)
                {
                    unreadable.Add(new UnreadableResult(file, $"not a Picollo result file: it has no {missing}"));
                    continue;
                }

                tests[model.Test] = Record(model);
                reports[model.Test] = model;
                string svg = file[..^".result.json".Length] + ".svg";
                if (File.Exists(svg))
                    plots[model.Test] = File.ReadAllText(svg);
            }
            catch (JsonException e)
            {
                unreadable.Add(new UnreadableResult(file, $"not a Picollo result file: {e.Message}"));
            }
            catch (HdrHistogramFormatException e)
            {
                unreadable.Add(new UnreadableResult(file, $"a counter's histogram is not valid: {e.Message}"));
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                unreadable.Add(new UnreadableResult(file, $"could not be read: {e.Message}"));
            }
            catch (Exception e) when (e is ArgumentException or FormatException or InvalidOperationException or OverflowException)
            {
                // A file that parses as JSON but holds values no result has (a negative count, a histogram of the wrong
                // shape): named and skipped like any unreadable file, never a crash of the whole comparison.
                unreadable.Add(new UnreadableResult(file, $"not a Picollo result file: {e.Message}"));
            }
        }

        return new ResultFolder(folder, reports, tests, plots, unreadable);
    }

    // The parts a comparison reads that JSON may leave out: any JSON object deserializes, so a file of another tool named
    // *.result.json arrives with them null. The first one missing, by its JSON name; null when the file has them all.
    private static string? MissingPart(PerfReportModel model)
    {
        if (string.IsNullOrWhiteSpace(model.Test))
            return "\"test\" (the test's name)";
        if (model.Verdict is null)
            return "\"verdict\"";
        if (model.Notes is null)
            return "\"notes\"";
        if (model.Counters is null)
            return "\"counters\"";
        for (int i = 0; i < model.Counters.Count; i++)
        {
            if (model.Counters[i] is not { Name: not null, Unit: not null })
                return $"counter name or unit in \"counters\"[{i}]";
        }

        return null;
    }

    private static BaselineRecord Record(PerfReportModel model)
    {
        var counters = new List<BaselineCounter>();
        foreach (CounterReportModel counter in model.Counters)
        {
            if (!counter.Available || counter.Histogram is not { } histogram)
                continue;
            HdrHistogram samples = HdrHistogram.FromJson(histogram.GetRawText());
            counters.Add(new BaselineCounter(
                counter.Name, counter.Unit, counter.Kind, samples, counter.OperationsPerSample, PerOperation(counter, samples)));
        }

        return new BaselineRecord(counters, new Dictionary<string, string>(), model.TimestampUtc);
    }

    // The exact statistics the file holds, as a measurement hands them to a baseline: a histogram's bucket read 12,464
    // allocated bytes per operation as 12,462.08, and an exact verdict compares these numbers (issue 27). A file written
    // before P10 and P25 were stored takes those two from the histogram, and its precision is the histogram's.
    private static PerOperationSummary PerOperation(CounterReportModel counter, HdrHistogram samples)
    {
        PerOperationSummary buckets = PerOperationSummary.FromHistogram(samples, counter.OperationsPerSample);
        if (counter.PerOperation is not { } exact)
            return buckets;
        return new PerOperationSummary(
            buckets.Samples, exact.P0, exact.P10 ?? buckets.P10, exact.P25 ?? buckets.P25, exact.P50, exact.P90, exact.P99, exact.P100,
            exact.Mean,
            exact.P10 is null || exact.P25 is null ? buckets.Precision : 0);
    }
}
