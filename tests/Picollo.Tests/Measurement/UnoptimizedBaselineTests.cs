using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;
using Picollo.Tests.UnoptimizedBodies;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// A real measurement of unoptimized code (a body in an assembly built with Optimize=false) is neither compared with a
/// baseline nor recorded into one, in any mode: the verdict is a notice that says why and how to run optimized code.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class UnoptimizedBaselineTests
{
    private static readonly PerfOptions s_quick = new() { Counters = ["allocated-bytes", "tsc"], Samples = 50, TimeBudget = TimeSpan.FromMilliseconds(300) };

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void UnoptimizedMeasurement_IsNotComparedNorRecorded_AndSaysHowToRunOptimizedCode(bool updateMode)
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        string source = temp.Combine("ParserPerf.cs");
        string baseline = temp.Combine("ParserPerf.Parse.perf.json");

        // An optimized baseline the unoptimized run would fail against: a tenth of the ticks, none of the bytes.
        PerfResult optimized = SyntheticResults.Result(
            SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(0UL, 100)),
            SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Repeat(1_000UL, 100)));
        optimized.ShouldNotRegress(options: Options(temp, update: true), callerFilePath: source, testMethod: "Parse");
        string committed = File.ReadAllText(baseline);
        host.Notices.Clear();

        PerfResult debug = Perf.Measure(s_quick, 2_000, Bodies.ChainLambda);
        debug.Run.IsOptimized.ShouldBeFalse();

        debug.ShouldNotRegress(options: Options(temp, updateMode), callerFilePath: source, testMethod: "Parse").ShouldBeSameAs(debug);

        string notice = host.Notices.ShouldHaveSingleItem().Message;
        notice.ShouldStartWith("Not compared with the baseline and not recorded: The measured body (a lambda in Bodies) is in Picollo.Tests.UnoptimizedBodies.dll");
        notice.ShouldContain("built without optimizations");
        notice.ShouldContain("(Release configuration with <Optimize>false</Optimize>)");
        notice.ShouldEndWith("Remove <Optimize>false</Optimize> from its project.");
        File.ReadAllText(baseline).ShouldBe(committed);
        File.Exists(temp.Combine("ParserPerf.Parse.received.perf.json")).ShouldBeFalse();
        host.Output[^1].ShouldStartWith("#### ParserPerf.Parse: not judged");
    }

    private static BaselineStoreOptions Options(TempDirectory temp, bool update) =>
        new() { UpdateBaselines = update, GetEnvironmentVariable = TestEnvironment.Local(temp) };
}
