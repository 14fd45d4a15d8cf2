using System.Text.Json;
using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Tests.Measurement;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary>A comparison's report (issue 25): the paired table in the output, and a JSON file with both sides and the paired statistics.</summary>
public sealed class PerfComparisonReportsTests
{
    [Fact]
    public void TheReport_CarriesBothSides_AndThePairedStatistics()
    {
        string folder = Directory.CreateTempSubdirectory("picollo-comparison-").FullName;
        try
        {
            using RecordingHost host = RecordingHost.Install();
            PerfComparison c = PairedStatisticsTests.Comparison(new SyntheticPairs(1_000, 0.05, seed: 21), 24, 32);

            string? path = c.WriteReport("ParserPerf", getEnvironmentVariable: v => v == "PICOLLO_RESULTS_DIR" ? folder : null, testMethod: "FastBeatsNaive");

            path.ShouldBe(Path.Combine(folder, "ParserPerf.FastBeatsNaive.comparison.json"));
            host.Attachments.ShouldContain((path!, "Picollo comparison (JSON)"));
            string output = host.Output.ShouldHaveSingleItem();
            output.ShouldStartWith("#### ParserPerf.FastBeatsNaive\n\ncandidate vs reference: 1,000 pairs");
            output.ShouldContain("| tsc ");
            output.ShouldEndWith($"Report: {path}\n");

            using JsonDocument json = JsonDocument.Parse(File.ReadAllText(path!));
            JsonElement root = json.RootElement;
            root.GetProperty("pairs").GetInt32().ShouldBe(1_000);
            JsonElement tsc = root.GetProperty("paired")[0];
            tsc.GetProperty("name").GetString().ShouldBe("tsc");
            tsc.GetProperty("ratio").GetDouble().ShouldBe(c.Tsc.Ratio);
            tsc.GetProperty("low").GetDouble().ShouldBeLessThan(1.05);
            tsc.GetProperty("high").GetDouble().ShouldBeGreaterThan(1.05);
            tsc.GetProperty("change").GetString().ShouldBe("Increased");
            JsonElement bytes = root.GetProperty("paired")[1];
            (bytes.GetProperty("referenceMean").GetDouble(), bytes.GetProperty("candidateMean").GetDouble()).ShouldBe((24.0, 32.0));
            root.GetProperty("reference").GetProperty("counters")[0].GetProperty("samples").GetInt32().ShouldBe(1_000);
            root.GetProperty("candidate").GetProperty("test").GetString().ShouldBe("ParserPerf.FastBeatsNaive [candidate]");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
