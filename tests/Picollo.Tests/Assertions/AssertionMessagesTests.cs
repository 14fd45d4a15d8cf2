using System.Text;
using Picollo.Assertions;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Assertions;

public sealed class AssertionMessagesTests
{
    private const string Results = "/home/ci/repo/tests/Parser.Tests/TestResults/picollo";

    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "SpeedUpOutOfRange", AssertionMessages.SpeedUpOutOfRange("c.Tsc", 0));
        Add(text, "CohensDOutOfRange", AssertionMessages.CohensDOutOfRange("c.Tsc", -0.5));
        Add(text, "MaxChangeOutOfRange", AssertionMessages.MaxChangeOutOfRange("c.Tsc", -0.05));
        Add(text, "ConfidenceOutOfRange", AssertionMessages.ConfidenceOutOfRange("c.Tsc", 0.3));
        Add(text, "FasterByClaim: the interval only", AssertionMessages.FasterByClaim(1.5, "candidate", "reference", 1 / 1.5, 0.99, null));
        Add(text, "FasterByClaim: with a Cohen's d_z gate", AssertionMessages.FasterByClaim(1.5, "Span", "Array", 1 / 1.5, 0.95, 0.8));
        Add(text, "NotSlowerClaim", AssertionMessages.NotSlowerClaim(0.05, "candidate", "reference", 0.99));
        Add(text, "SpeedUpBelowCohensD", AssertionMessages.SpeedUpBelowCohensD(AssertionMessages.Speed(0.5), -11.44, 50));
        Add(text, "Speed: faster", AssertionMessages.Speed(0.8));
        Add(text, "Speed: slower", AssertionMessages.Speed(1.31));
        Add(text, "Speed: the same", AssertionMessages.Speed(1.002));
        Add(text, "NotAnExactCounter: a time counter", AssertionMessages.NotAnExactCounter(
            "c.Tsc.ShouldNotIncrease()", "tsc", isTimeLike: true, "c.Tsc"));
        Add(text, "NotAnExactCounter: an occasional counter", AssertionMessages.NotAnExactCounter(
            "c[\"gen0-collections\"].ShouldNotIncrease()", "gen0-collections", isTimeLike: false, "c[\"gen0-collections\"]"));
        Add(text, "NoPairedInterval", AssertionMessages.NoPairedInterval("c[\"page-faults\"].ShouldNotBeSlower(maxChange: 0.05)", "page-faults"));
        Add(text, "Increased", AssertionMessages.Increased("c.AllocatedBytes", "bytes", 24, "reference", 48, "candidate"));
        Add(text, "PairedPass", AssertionMessages.PairedPass(
            "c.Tsc.ShouldBeFasterBy(1.5)", AssertionMessages.Speed(0.5), "tsc", 0.5, 0.499, 0.501, 0.997, -11.44));
        var equal = new PairedEvidence("tsc", 1.0, 0.999, 1.002, 0.997, 0.03, 1.0, 1_000, 1);
        Add(text, "PairedFailure", AssertionMessages.PairedFailure(
            "c.Tsc",
            "be faster by at least",
            AssertionMessages.FasterByClaim(1.5, "candidate", "reference", 1 / 1.5, 0.99, null),
            "it was " + AssertionMessages.Speed(1.0),
            equal));
        var close = new PairedEvidence("tsc", 1.04, 1.01, 1.07, 0.99, 0.4, 1.03, 3_000, 3);
        Add(text, "PairedUndecided", AssertionMessages.PairedUndecided(
            "c.Tsc",
            "not be slower than the reference by more than",
            AssertionMessages.NotSlowerClaim(0.05, "candidate", "reference", 0.99),
            1.05,
            2_000,
            close));
        Add(text, "ComparisonResultNotWritten", AssertionMessages.ComparisonResultNotWritten(
            Results, $"Access to the path '{Results}' is denied.", "PICOLLO_RESULTS_DIR"));
        Add(text, "ReportFilesNotWritten", AssertionMessages.ReportFilesNotWritten(
            Results, "No space left on device : '" + Results + "/ParserPerf.ParseSmall.result.json'", "PICOLLO_RESULTS_DIR"));
        Add(text, "StepSummaryNotWritten", AssertionMessages.StepSummaryNotWritten(
            "/home/runner/work/_temp/_runner_file_commands/step_summary_1", "GITHUB_STEP_SUMMARY", "Read-only file system"));
        Add(text, "NotCountedOnThisMachine", AssertionMessages.NotCountedOnThisMachine(
            [(["cycles", "instructions", "branch-misses", "cache-misses"], "no hardware PMU"), (["context-switches"], "user-only mode")]));

        Approvals.Verify(text.ToString(), "AssertionMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
