using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Storage;

namespace Picollo.Reporting;

/// <summary>
/// Writes a test's JSON result and SVG plot under a results folder: <c>PICOLLO_RESULTS_DIR</c>, else the test project's
/// <c>TestResults/picollo</c> (<see cref="PerfResultsFolder"/>), else <c>TestResults/picollo</c> under the current directory.
/// </summary>
internal sealed class PerfReportWriter
{
    /// <summary>The environment variable naming the results folder.</summary>
    public const string ResultsDirectoryVariable = "PICOLLO_RESULTS_DIR";

    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Creates a writer.</summary>
    /// <param name="resultsDirectory">The results folder; else <c>PICOLLO_RESULTS_DIR</c>, else
    /// <paramref name="projectResultsDirectory"/>.</param>
    /// <param name="getEnvironmentVariable">Reads a variable; the process environment when <see langword="null"/>. A
    /// seam for tests.</param>
    /// <param name="projectResultsDirectory">
    /// The running test's project folder's <c>TestResults/picollo</c> (<see cref="PerfResultsFolder.Of"/>); when
    /// <see langword="null"/>, the one loaded test assembly's, else <c>TestResults/picollo</c> under the current directory.
    /// </param>
    public PerfReportWriter(
        string? resultsDirectory = null, Func<string, string?>? getEnvironmentVariable = null, string? projectResultsDirectory = null)
    {
        getEnvironmentVariable ??= Environment.GetEnvironmentVariable;
        string? configured = string.IsNullOrWhiteSpace(resultsDirectory)
            ? getEnvironmentVariable(ResultsDirectoryVariable)
            : resultsDirectory;
        if (string.IsNullOrWhiteSpace(configured))
            configured = projectResultsDirectory ?? PerfResultsFolder.OfLoadedTestAssembly() ?? Path.Combine("TestResults", "picollo");
        ResultsDirectory = Path.GetFullPath(configured);
    }

    /// <summary>The full path of the results folder.</summary>
    public string ResultsDirectory { get; }

    /// <summary>
    /// Writes <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].result.json</c> and <c>….svg</c> (names sanitized like baselines'),
    /// replacing the files of an earlier run of the same test. Each file is written to a temporary file and renamed over
    /// the old one, so a reader (an artifact upload, a viewer) or a concurrent run of the same test never sees half a file.
    /// </summary>
    /// <param name="report">The report.</param>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <returns>The paths written.</returns>
    /// <exception cref="IOException">The folder or a file could not be written (e.g. a path component is a file, or the
    /// disk is full).</exception>
    /// <exception cref="UnauthorizedAccessException">The folder is not writable.</exception>
    public PerfReportFiles Write(PerfReport report, string testClass, string testMethod, string? caseName = null)
    {
        ArgumentNullException.ThrowIfNull(report);
        string fileName = BaselineLocator.GetFileName(testClass, testMethod, caseName);
        string stem = Path.Combine(ResultsDirectory, fileName[..^BaselineLocator.BaselineExtension.Length]);
        Directory.CreateDirectory(ResultsDirectory);
        var files = new PerfReportFiles(stem + ".result.json", stem + ".svg");
        string json = report.ToJson(), svg = report.ToSvg();

        // Both files are complete before either is renamed into place, so a reader (or a second process reporting the
        // same test) sees the pair of one run except within the two back-to-back renames; the partial temp files of a
        // failed write must not pile up in the results folder.
        string jsonTemp = TempPath(files.JsonPath), svgTemp = TempPath(files.SvgPath);
        try
        {
            File.WriteAllText(jsonTemp, json, s_utf8);
            File.WriteAllText(svgTemp, svg, s_utf8);
            File.Move(jsonTemp, files.JsonPath, overwrite: true);
            File.Move(svgTemp, files.SvgPath, overwrite: true);
        }
        finally
        {
            File.Delete(jsonTemp);
            File.Delete(svgTemp);
        }

        return files;
    }

    /// <summary>
    /// Writes a comparison's JSON result into <see cref="ResultsDirectory"/>, named after the test with
    /// <c>.comparison.json</c>.
    /// </summary>
    /// <param name="report">The comparison's report.</param>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <returns>The path written.</returns>
    /// <exception cref="IOException">The folder or the file could not be written.</exception>
    /// <exception cref="UnauthorizedAccessException">The folder is not writable.</exception>
    public string WriteComparison(PerfComparisonReport report, string testClass, string testMethod, string? caseName = null)
    {
        ArgumentNullException.ThrowIfNull(report);
        string fileName = BaselineLocator.GetFileName(testClass, testMethod, caseName);
        string path = Path.Combine(ResultsDirectory, fileName[..^BaselineLocator.BaselineExtension.Length] + ".comparison.json");
        Directory.CreateDirectory(ResultsDirectory);
        string temp = TempPath(path);
        try
        {
            File.WriteAllText(temp, report.ToJson(), s_utf8);
            File.Move(temp, path, overwrite: true);
        }
        finally
        {
            File.Delete(temp);
        }

        return path;
    }

    private static string TempPath(string path) => $"{path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
}
