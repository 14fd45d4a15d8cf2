using System.Text.Json;
using Picollo.Measurement;
using Picollo.Reporting.Serialization;

namespace Picollo.Reporting;

/// <summary>What a paired comparison leaves behind: its markdown for the test output and its JSON result file.</summary>
internal sealed class PerfComparisonReport
{
    /// <param name="testName">The test as people know it.</param>
    /// <param name="comparison">The comparison.</param>
    public PerfComparisonReport(string testName, PerfComparison comparison)
    {
        TestName = testName;
        Comparison = comparison;
    }

    /// <summary>The test's name.</summary>
    public string TestName { get; }

    /// <summary>The comparison.</summary>
    public PerfComparison Comparison { get; }

    /// <summary>The test name as a heading, then <see cref="PerfComparison.ToMarkdown"/>.</summary>
    public string ToMarkdown() => $"#### {TestName}\n\n{Comparison.ToMarkdown()}";

    /// <summary>
    /// The comparison as JSON: per counter the paired statistics (ratio, interval, coverage, Cohen's d_z, floor ratio,
    /// means, change), then each side's full result in the shape of a measurement's result file.
    /// </summary>
    /// <returns>Indented JSON with "\n" line ends.</returns>
    public string ToJson()
    {
        PerfComparison c = Comparison;
        var paired = c.Counters.Select(static p => new PairedCounterModel(
            p.Name, p.Unit, p.IsAvailable, p.IsExact, p.IsTimeLike, p.Ratio, p.Low, p.High, p.Confidence, p.CohensDz, p.FloorRatio,
            p.ReferenceMean, p.CandidateMean, p.Change.ToString())).ToList();
        var model = new PerfComparisonModel(
            TestName,
            c.ReferenceName,
            c.CandidateName,
            c.Reference.TimestampUtc,
            c.Pairs,
            c.Measurements,
            c.WallTime.TotalMilliseconds,
            paired,
            new PerfReport($"{TestName} [{c.ReferenceName}]", c.Reference).ToModel(),
            new PerfReport($"{TestName} [{c.CandidateName}]", c.Candidate).ToModel());
        return JsonSerializer.Serialize(model, PerfReportJsonContext.Default.PerfComparisonModel);
    }
}
