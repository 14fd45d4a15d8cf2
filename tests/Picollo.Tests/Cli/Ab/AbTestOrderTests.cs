using Picollo.Cli.Ab;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// One process pair runs a round's tests of a project in turn: its records name a test by display name and key, and the
/// coordinator lets the side that waits at the earlier test go alone when the two sides wait at different tests.
/// </summary>
public sealed class AbTestOrderTests
{
    private static readonly AbTest s_count = new("TextKit.PerfTests.WordsPerf.Count", "TextKit.PerfTests.WordsPerf", "Count");
    private static readonly AbTest s_countBeats = new("TextKit.PerfTests.WordsPerf.CountBeatsSplit", "TextKit.PerfTests.WordsPerf", "CountBeatsSplit");
    private static readonly AbTest s_hash = new("TextKit.PerfTests.FnvPerf.Hash", "TextKit.PerfTests.FnvPerf", "Hash");
    private static readonly AbTestOrder s_order = new([s_hash, s_count, s_countBeats]);

    [Theory]
    [InlineData("WordsPerf.Count", "Count")]
    [InlineData("WordsPerf.CountBeatsSplit", "CountBeatsSplit")]
    [InlineData("FnvPerf.Hash(length: 64)", "Hash")]
    [InlineData("FnvPerf.Hash.256", "Hash")]
    public void TestOf_ADisplayName_IsItsMethod_NotAnotherWhoseNameItStartsWith(string display, string method) =>
        s_order.TestOf(display).ShouldNotBeNull().MethodName.ShouldBe(method);

    [Theory]
    [InlineData("WordsPerf.Counter")]
    [InlineData("OtherPerf.Count")]
    public void TestOf_ANameNoTestHas_IsNull(string display) => s_order.TestOf(display).ShouldBeNull();

    [Theory]
    [InlineData("FnvPerf.Hash(64)#0", "WordsPerf.Count#0", -1)]
    [InlineData("WordsPerf.CountBeatsSplit#0", "WordsPerf.Count#1", 1)]
    [InlineData("WordsPerf.Count#2", "WordsPerf.Count#1", 1)]
    [InlineData("FnvPerf.Hash(64)#0", "FnvPerf.Hash(256)#0", 0)]
    [InlineData("Unknown.Test#0", "WordsPerf.Count#0", 0)]
    public void Compare_IsByTestThenByMeasurement_AndZeroWhereTheOrderCannotTell(string a, string b, int sign) =>
        Math.Sign(s_order.Compare(a, b)).ShouldBe(sign);

    [Fact]
    public void Distinct_TwoClassesOfOneNameInTwoNamespaces_CannotShareAPair()
    {
        var other = new AbTest("Other.WordsPerf.Count", "Other.WordsPerf", "Count");

        AbTestOrder.Distinct([s_count, s_hash]).ShouldBeTrue();
        AbTestOrder.Distinct([s_count, other]).ShouldBeFalse();
    }
}
