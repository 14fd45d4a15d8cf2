using System.Reflection;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Tests.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// The Against knob's binding: both methods bound once to the test-class instance with the case's arguments, in every
/// shape a body-as-operation test can take (0 to 3 arguments, a value or not), named by their methods; a reference that
/// throws is named as the side that threw.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class OperationBinderTests
{
    private static readonly PerfOptions s_tiny = PerfOptions.Default with
    {
        Samples = 10,
        CalibrationSamples = 10,
        TimeBudget = TimeSpan.FromMilliseconds(30),
        WarmupTime = TimeSpan.Zero,
        Counters = ["tsc"],
    };

    [Theory]
    [InlineData(nameof(Shapes.Func0), nameof(Shapes.RefFunc0), new object[0])]
    [InlineData(nameof(Shapes.Func1), nameof(Shapes.RefFunc1), new object[] { 5 })]
    [InlineData(nameof(Shapes.Func2), nameof(Shapes.RefFunc2), new object[] { 5, "x" })]
    [InlineData(nameof(Shapes.Func3), nameof(Shapes.RefFunc3), new object[] { 5, "x", 2L })]
    [InlineData(nameof(Shapes.Action0), nameof(Shapes.RefAction0), new object[0])]
    [InlineData(nameof(Shapes.Action1), nameof(Shapes.RefAction1), new object[] { 5 })]
    [InlineData(nameof(Shapes.Action2), nameof(Shapes.RefAction2), new object[] { 5, "x" })]
    [InlineData(nameof(Shapes.Action3), nameof(Shapes.RefAction3), new object[] { 5, "x", 2L })]
    public void Compare_BindsBothMethodsInEveryShape_AndNamesThem(string candidate, string reference, object[] arguments)
    {
        var shapes = new Shapes();

        PerfComparison c = OperationBinder.Compare(s_tiny, Method(reference), Method(candidate), shapes, arguments);

        (c.ReferenceName, c.CandidateName).ShouldBe((reference, candidate));
        c.Reference.SampleCount.ShouldBe(c.Candidate.SampleCount);
        c.Pairs.ShouldBeGreaterThan(0);
        shapes.Calls.ShouldBeGreaterThan(2 * c.Pairs, "both sides ran, with the case's arguments");
    }

    [Fact]
    public void AReferenceThatThrows_IsNamedBySideAndMethod()
    {
        var e = Should.Throw<PerfBodyException>(() => OperationBinder.Compare(s_tiny, Method(nameof(Shapes.Throws)), Method(nameof(Shapes.Func0)), new Shapes(), []));

        e.Side.ShouldBe("reference");
        e.Message.ShouldStartWith("The reference Throws threw InvalidOperationException on its first call: no input.");
    }

    private static MethodInfo Method(string name) => typeof(Shapes).GetMethod(name, BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static)!;

    private sealed class Shapes
    {
        public long Calls { get; private set; }

        public static long Throws() => throw new InvalidOperationException("no input.");

        public long Func0() => ++Calls;

        public long RefFunc0() => ++Calls;

        public long Func1(int a) => Calls += a > 0 ? 1 : 0;

        public long RefFunc1(int a) => Calls += a > 0 ? 1 : 0;

        public long Func2(int a, string b) => Calls += a > 0 && b.Length == 1 ? 1 : 0;

        public long RefFunc2(int a, string b) => Calls += a > 0 && b.Length == 1 ? 1 : 0;

        public long Func3(int a, string b, long c) => Calls += a > 0 && b.Length == 1 && c == 2 ? 1 : 0;

        public long RefFunc3(int a, string b, long c) => Calls += a > 0 && b.Length == 1 && c == 2 ? 1 : 0;

        public void Action0() => Calls++;

        public void RefAction0() => Calls++;

        public void Action1(int a) => Calls += a > 0 ? 1 : 0;

        public void RefAction1(int a) => Calls += a > 0 ? 1 : 0;

        public void Action2(int a, string b) => Calls += a > 0 && b.Length == 1 ? 1 : 0;

        public void RefAction2(int a, string b) => Calls += a > 0 && b.Length == 1 ? 1 : 0;

        public void Action3(int a, string b, long c) => Calls += a > 0 && b.Length == 1 && c == 2 ? 1 : 0;

        public void RefAction3(int a, string b, long c) => Calls += a > 0 && b.Length == 1 && c == 2 ? 1 : 0;
    }
}
