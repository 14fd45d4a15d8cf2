using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// The template tests' <c>dotnet test</c> runs: one project at a time, after every other packaging test (issue 24, "Suite
/// under 5 minutes"). Each Release run measures its perf tests and records one across fresh processes. Two at once measured
/// beside each other and waited for each other's machine-wide measurement lock (the xunit template's Release test: 160 s
/// beside the NUnit one, 43 s alone). Beside the other packaging tests' builds, as they ran until this change, they took the
/// busy machine's paths ("other processes used 1.00 of 2 cores": measured again, more fresh processes left out): the xunit
/// template's two runs took 26 and 38 s there, 15 and 22 s alone. The projects themselves are built beside those tests
/// (<see cref="TemplateBuilds"/>).
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class TemplateRunsGroup
{
    /// <summary>The collection's name, for <c>[Collection]</c>.</summary>
    public const string Name = "template dotnet test runs";
}
