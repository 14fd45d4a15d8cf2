namespace Picollo.Cli.Ab;

/// <summary>A built perf-test project and the perf tests its assembly declares.</summary>
/// <param name="ProjectRelativePath">The project file, relative to the revision's root, with <c>/</c> separators.</param>
/// <param name="AssemblyPath">The built assembly's full path.</param>
/// <param name="Framework">The test framework its perf tests use.</param>
/// <param name="Tests">Its perf tests, sorted by <see cref="AbTest.FullName"/>.</param>
internal sealed record AbTestAssembly(string ProjectRelativePath, string AssemblyPath, AbFramework Framework, IReadOnlyList<AbTest> Tests)
{
    /// <summary>Variables set in this build's workers besides the protocol's (the bench injects a change this way).</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();
}
