using System.Reflection;

namespace Picollo.Reporting;

/// <summary>
/// Where a test project's reports go when neither the caller nor <c>PICOLLO_RESULTS_DIR</c> says: the
/// <c>TestResults/picollo</c> folder of the test project, beside the <c>TestResults</c> folder where <c>dotnet test</c>
/// puts its own results. A test host runs in the build output (<c>bin/Release/net10.0</c>), where nobody looks, so the
/// adapter packages write the project's folder into the test assembly at build time
/// (<c>build/Picollo.Testing.targets</c>: <c>[assembly: AssemblyMetadata("Picollo.ProjectDirectory", "$(MSBuildProjectDirectory)")]</c>).
/// </summary>
internal static class PerfResultsFolder
{
    /// <summary>The key of the assembly metadata that names the test project's folder.</summary>
    public const string ProjectDirectoryKey = "Picollo.ProjectDirectory";

    /// <summary>
    /// The <c>TestResults/picollo</c> folder of the project <paramref name="assembly"/> was built from, or
    /// <see langword="null"/> when it does not say.
    /// </summary>
    /// <param name="assembly">A test assembly.</param>
    public static string? Of(Assembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        if (assembly.IsDynamic)
            return null;
        string? project = assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .FirstOrDefault(static a => a.Key == ProjectDirectoryKey)?.Value;
        return string.IsNullOrWhiteSpace(project) ? null : Path.Combine(project, "TestResults", "picollo");
    }

    /// <summary>
    /// The folder of the one loaded assembly that names its project (a test host loads one test assembly), for a report
    /// written outside a perf test (a plain test calling <c>ShouldNotRegress</c>); <see langword="null"/> when none or
    /// several do.
    /// </summary>
    public static string? OfLoadedTestAssembly()
    {
        string[] folders = [.. AppDomain.CurrentDomain.GetAssemblies().Select(Of).OfType<string>().Distinct(StringComparer.Ordinal)];
        return folders.Length == 1 ? folders[0] : null;
    }
}
