using Picollo.Tests.Cli.Ab;
using Picollo.Tests.Cli.Bisect;
using Picollo.Tests.Testing;
using Shouldly;
using Xunit;
using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Tests.Support;

/// <summary>
/// The assembly's collection order: the <c>picollo ab</c> pipeline first, its short runs, <c>picollo bisect</c>, the simulated
/// counters' adapter tests, then xunit's order for the rest.
/// </summary>
public sealed class LongCollectionsFirstTests
{
    [Fact]
    public void TheAbPipeline_IsStartedFirst_AndTheOthersKeepXunitsOrder()
    {
        Collection[] collections = [.. Enumerable.Range(0, 12).Select(static i => new Collection($"Test collection for C{i}"))];
        Collection ab = new(AbPipelineGroup.Name);
        Collection[] all = [.. collections[..5], ab, .. collections[5..]];

        Collection[] ordered = [.. new LongCollectionsFirst().OrderTestCollections(all)];

        ordered[0].ShouldBeSameAs(ab);
        ordered[1..].ShouldBe(DefaultTestCollectionOrderer.Instance.OrderTestCollections(collections));
    }

    [Fact]
    public void TheLongRuns_AreStartedInTheirOrder_BeforeTheOthers()
    {
        Collection[] collections = [.. Enumerable.Range(0, 8).Select(static i => new Collection($"Test collection for C{i}"))];
        Collection[] longRuns =
            [new(AbPipelineGroup.Name), new(AbShortRunsGroup.Name), new(BisectPipelineGroup.Name), new(SimulationAdapterGroup.Name)];
        Collection[] all = [longRuns[3], .. collections[..3], longRuns[2], longRuns[0], .. collections[3..], longRuns[1]];

        Collection[] ordered = [.. new LongCollectionsFirst().OrderTestCollections(all)];

        ordered[..4].ShouldBe(longRuns);
        ordered[4..].ShouldBe(DefaultTestCollectionOrderer.Instance.OrderTestCollections(collections));
    }

    [Fact]
    public void TheAssembly_UsesIt()
    {
        var attribute = (TestCollectionOrdererAttribute?)Attribute.GetCustomAttribute(typeof(LongCollectionsFirst).Assembly, typeof(TestCollectionOrdererAttribute));

        attribute.ShouldNotBeNull();
        attribute.OrdererType.ShouldBe(typeof(LongCollectionsFirst));
    }

    // Only the names matter to the orderers: xunit's own orders by the unique ID's hash.
    private sealed class Collection(string name) : ITestCollection
    {
        public ITestAssembly TestAssembly => throw new NotSupportedException("not read by the orderers");

        public string? TestCollectionClassName => null;

        public string TestCollectionDisplayName => name;

        public IReadOnlyDictionary<string, IReadOnlyCollection<string>> Traits { get; } = new Dictionary<string, IReadOnlyCollection<string>>();

        public string UniqueID => "id:" + name;
    }
}
