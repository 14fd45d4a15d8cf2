using Picollo.Tests.Cli.Ab;
using Picollo.Tests.Cli.Bisect;
using Picollo.Tests.Testing;
using Xunit;
using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(Picollo.Tests.Support.LongCollectionsFirst))]

namespace Picollo.Tests.Support;

/// <summary>
/// Starts the longest parallel collection first (<see cref="AbPipelineGroup"/>, about two minutes), then the other runs of
/// the tool (<see cref="AbShortRunsGroup"/>, then <see cref="BisectPipelineGroup"/>, about a minute and a half), then the
/// simulated counters' adapter tests (<see cref="SimulationAdapterGroup"/>, about two minutes), and keeps xunit's own order
/// for the rest. xunit starts parallel collections in the orderer's order, as many at once as it has threads (two on a
/// 2-core machine), and runs the collections that disable parallelization after them all: the longest one started last
/// would leave the other thread idle while it ran. The last four hold the machine-wide measurement lock for most of their
/// time; the simulated counters' come after the tool's runs, whose builds (before they take the lock) overlap them.
/// </summary>
public sealed class LongCollectionsFirst : ITestCollectionOrderer
{
    /// <inheritdoc/>
    public IReadOnlyCollection<TTestCollection> OrderTestCollections<TTestCollection>(IReadOnlyCollection<TTestCollection> testCollections)
        where TTestCollection : ITestCollection =>
        [.. DefaultTestCollectionOrderer.Instance.OrderTestCollections(testCollections)
            .OrderBy(static c => c.TestCollectionDisplayName switch
            {
                AbPipelineGroup.Name => 0,
                AbShortRunsGroup.Name => 1,
                BisectPipelineGroup.Name => 2,
                SimulationAdapterGroup.Name => 3,
                _ => 4,
            })];
}
