using System.Runtime.CompilerServices;
using Picollo.Measurement;
using Picollo.Tests.UnoptimizedBodies;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// Unoptimized code is never measured as if it were real: a body in an assembly built without optimizations, and a body
/// the JIT compiled with MinOpts, are both reported unoptimized with the reason. Each test measures a body of its own, so
/// the JIT events of its first compilation reach the warmup.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class UnoptimizedCodeTests
{
    // WarmupTests' long budget: a warmup that sees the evidence ends without waiting for the cap.
    private static readonly PerfOptions s_patient = WarmupTests.Patient;

    [Fact]
    public void BodyInAnAssemblyBuiltWithoutOptimizations_IsUnoptimized_AndTheRunSaysWhy()
    {
        PerfResult result = Perf.Measure(s_patient, 100, Bodies.ChainLambda);

        result.Run.IsOptimized.ShouldBeFalse();
        string reason = result.Run.UnoptimizedReason.ShouldNotBeNull();
        reason.ShouldStartWith("The measured body (a lambda in Bodies) is in", customMessage: "a lambda is named by the class that wrote it, not as Bodies.<.cctor>b__3_0");
        reason.ShouldContain(" is in Picollo.Tests.UnoptimizedBodies.dll, built without optimizations (");
        reason.ShouldContain("its numbers are not what Release code does.");
        result.Run.Notes[0].ShouldBe(reason);

        // The JIT agrees: the assembly's DebuggableAttribute made it compile the lambda with MinOpts.
        result.Run.WarmupEnd.ShouldBe(WarmupEnd.CodeUnoptimized, string.Join(" ", result.Run.Notes));
    }

    [Fact]
    public void BodyInAnAssemblyBuiltWithoutOptimizations_MeasuredAgain_IsStillUnoptimized()
    {
        Func<int, long> body = Bodies.Xorshift;
        PerfResult first = Perf.Measure(s_patient, 100, body);
        first.Run.WarmupEnd.ShouldBe(WarmupEnd.CodeUnoptimized, string.Join(" ", first.Run.Notes));

        // No JIT event this time (the method is compiled): the assembly and the warmup's memory of its tier still tell.
        PerfResult again = Perf.Measure(s_patient, 100, body);

        again.Run.IsOptimized.ShouldBeFalse();
        again.Run.UnoptimizedReason.ShouldNotBeNull().ShouldStartWith("The measured body Bodies.Xorshift is in Picollo.Tests.UnoptimizedBodies.dll");
        again.Run.WarmupEnd.ShouldBe(WarmupEnd.CodeUnoptimized, string.Join(" ", again.Run.Notes));
    }

    [Fact]
    public void NoOptimizationBodyInAnOptimizedAssembly_IsCaughtByItsJitTier()
    {
        PerfResult result = Perf.Measure(s_patient, 100, NotOptimized);

        result.Run.WarmupEnd.ShouldBe(WarmupEnd.CodeUnoptimized, string.Join(" ", result.Run.Notes));
        result.Run.IsOptimized.ShouldBeFalse();
        result.Run.UnoptimizedReason.ShouldBe(
            "The measured body UnoptimizedCodeTests.NotOptimized ran code the JIT compiled without optimizations (MinOpts) because it is " +
            "marked [MethodImpl(MethodImplOptions.NoOptimization)]: its numbers are not what optimized code does. Remove that flag to measure optimized code.");
        result.Run.Notes.ShouldContain(result.Run.UnoptimizedReason);
        result.Run.CodeMayHaveChanged.ShouldBeFalse("MinOpts code is final: later compilations elsewhere cannot replace it");
    }

    [Fact]
    public void OrdinaryBody_IsOptimized()
    {
        PerfResult result = Perf.Measure(s_patient, 100, static n => MeasuredBodies.Chain(n) + 4);

        result.Run.WarmupEnd.ShouldBe(WarmupEnd.CodeOptimized, string.Join(" ", result.Run.Notes));
        result.Run.IsOptimized.ShouldBeTrue(result.Run.UnoptimizedReason);
        result.Run.UnoptimizedReason.ShouldBeNull();
        result.Run.Notes.ShouldNotContain(n => n.Contains("without optimizations", StringComparison.Ordinal));
    }

    [MethodImpl(MethodImplOptions.NoOptimization | MethodImplOptions.NoInlining)]
    private static long NotOptimized(int n) => MeasuredBodies.Chain(n) + 5;
}
