using Picollo.Tests.Cli.Ab;
using Picollo.Tests.Cli.Bisect;
using Xunit;
using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(Picollo.Tests.Support.LongCollectionsFirst))]

namespace Picollo.Tests.Support;

/// <summary>
/// Starts the longest parallel collection first (<see cref="AbPipelineGroup"/>, about two minutes), then the other runs of
/// the tool (<see cref="AbShortRunsGroup"/>, then <see cref="BisectPipelineGroup"/>, about a minute), and keeps xunit's own
/// order for the rest. xunit starts parallel collections in the orderer's order, as many at once as it has threads (two on a
/// 2-core machine), and runs the collections that disable parallelization after them all: the longest one started last
/// would leave the other thread idle while it ran.
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
                _ => 3,
            })];
}
