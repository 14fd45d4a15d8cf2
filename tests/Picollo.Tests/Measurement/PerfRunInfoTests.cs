using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

public sealed class PerfRunInfoTests
{
    [Theory]
    [InlineData(WarmupEnd.CodeOptimized, false)]
    [InlineData(WarmupEnd.CodeUnoptimized, false)]
    [InlineData(WarmupEnd.JitQuiet, true)]
    [InlineData(WarmupEnd.TimeCap, true)]
    public void CompilationsElsewhereDuringSampling_MayHaveChangedTheCode_OnlyWhenWarmupSawNoFinalCode(WarmupEnd warmupEnd, bool mayHaveChanged)
    {
        var run = new PerfRunInfo { WarmupEnd = warmupEnd, SamplingJitCompilations = 3 };

        run.CodeMayHaveChanged.ShouldBe(mayHaveChanged);
    }

    [Fact]
    public void UnoptimizedReason_MakesTheRunUnoptimized()
    {
        new PerfRunInfo().IsOptimized.ShouldBeTrue();
        new PerfRunInfo { UnoptimizedReason = "Debug build." }.IsOptimized.ShouldBeFalse();
    }
}
