using Xunit;
using Xunit.Sdk;
using Xunit.v3;

[assembly: TestCollectionOrderer(typeof(Picollo.Packaging.Tests.TemplateRunsFirst))]

namespace Picollo.Packaging.Tests;

/// <summary>
/// Starts <see cref="TemplateRunsGroup"/>, the longest collection (two Release <c>dotnet test</c> runs one after the other,
/// about two minutes), before the others and keeps xunit's own order for the rest: xunit starts parallel collections in the
/// orderer's order, two at a time on a 2-core machine, and the template runs left to xunit's order started at 45 s and
/// ended the assembly 133 s after everything else.
/// </summary>
public sealed class TemplateRunsFirst : ITestCollectionOrderer
{
    /// <inheritdoc/>
    public IReadOnlyCollection<TTestCollection> OrderTestCollections<TTestCollection>(IReadOnlyCollection<TTestCollection> testCollections)
        where TTestCollection : ITestCollection =>
        [.. DefaultTestCollectionOrderer.Instance.OrderTestCollections(testCollections)
            .OrderBy(static c => c.TestCollectionDisplayName == TemplateRunsGroup.Name ? 0 : 1)];
}
