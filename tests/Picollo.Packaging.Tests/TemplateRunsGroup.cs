using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// The template tests' <c>dotnet test</c> runs, one project at a time (issue 24, "Suite under 5 minutes"). Each Release run
/// measures its perf tests, records them across fresh processes and confirms regressions there; two of them at once measured
/// beside each other, took the busy-machine paths (measure again, confirm in fresh processes) and waited for each other's
/// machine-wide measurement lock: the xunit template's Release test took 160 s beside the NUnit one (and with the developer's
/// machine memory, see <see cref="PackageFeed.Environment"/>), 43 s alone with a fresh one. The other packaging tests
/// (builds, a pack, the tool) still run beside them.
/// </summary>
[CollectionDefinition(Name)]
public sealed class TemplateRunsGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "template dotnet test runs";
}
