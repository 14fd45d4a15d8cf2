using System.Text;

namespace Picollo.Baselines.Storage;

/// <summary>
/// Finds where a test's baseline lives: <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].perf.json</c> in the directory of the
/// test's source file, from its <c>[CallerFilePath]</c>.
/// </summary>
/// <remarks>
/// Deterministic CI builds (<c>ContinuousIntegrationBuild=true</c>) map source paths to <c>/_/…</c> (<c>/_1/…</c> for
/// further source roots), which exist nowhere on disk. Such a path is mapped back by trying, in order:
/// <list type="number">
/// <item>the root given by <c>PICOLLO_BASELINE_ROOT</c> (or the constructor), joined with the path after <c>/_/</c>;</item>
/// <item>each ancestor of the test assembly's directory (<see cref="AppContext.BaseDirectory"/>, i.e. <c>bin/…</c>
/// inside the repository), joined with the same relative path, where the source file exists.</item>
/// </list>
/// When nothing matches, the error lists every directory tried.
/// </remarks>
internal sealed class BaselineLocator
{
    /// <summary>The environment variable naming the directory that <c>/_/</c> stands for (usually the repository root).</summary>
    public const string BaselineRootVariable = "PICOLLO_BASELINE_ROOT";

    /// <summary>The extension of committed baselines.</summary>
    public const string BaselineExtension = ".perf.json";

    /// <summary>The extension of results offered for acceptance.</summary>
    public const string ReceivedExtension = ".received.perf.json";

    private readonly string? _baselineRoot;
    private readonly string _baseDirectory;

    /// <summary>Creates a locator.</summary>
    /// <param name="baselineRoot">The directory <c>/_/</c> maps to; else <c>PICOLLO_BASELINE_ROOT</c> from
    /// <paramref name="getEnvironmentVariable"/>.</param>
    /// <param name="baseDirectory">Where the upward search starts; <see cref="AppContext.BaseDirectory"/> when
    /// <see langword="null"/>.</param>
    /// <param name="getEnvironmentVariable">Reads a variable; the process environment when <see langword="null"/>.</param>
    public BaselineLocator(string? baselineRoot = null, string? baseDirectory = null, Func<string, string?>? getEnvironmentVariable = null)
    {
        getEnvironmentVariable ??= Environment.GetEnvironmentVariable;
        _baselineRoot = string.IsNullOrWhiteSpace(baselineRoot) ? getEnvironmentVariable(BaselineRootVariable) : baselineRoot;
        _baseDirectory = baseDirectory ?? AppContext.BaseDirectory;
    }

    /// <summary>The baseline path of a test.</summary>
    /// <param name="callerFilePath">The test's source file, from <c>[CallerFilePath]</c>.</param>
    /// <param name="testClass">The test class's name (without namespace).</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case (e.g. its arguments), or <see langword="null"/>; characters unsafe in
    /// file names become <c>_</c>.</param>
    /// <returns>The full path of the <c>.perf.json</c> file (which may not exist yet).</returns>
    /// <exception cref="DirectoryNotFoundException">The source directory cannot be found; the message lists what was tried.</exception>
    public string GetBaselinePath(string callerFilePath, string testClass, string testMethod, string? caseName = null) =>
        Path.Combine(ResolveSourceDirectory(callerFilePath), GetFileName(testClass, testMethod, caseName));

    /// <summary>The directory of the caller's source file, mapping a deterministic-build path back (see the remarks of the type).</summary>
    /// <param name="callerFilePath">The path from <c>[CallerFilePath]</c>.</param>
    /// <returns>An existing directory.</returns>
    /// <exception cref="DirectoryNotFoundException">Nothing matched; the message names every candidate and the remedy.</exception>
    public string ResolveSourceDirectory(string callerFilePath)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(callerFilePath);
        string? directory = Path.GetDirectoryName(callerFilePath);
        if (!string.IsNullOrEmpty(directory) && Directory.Exists(directory))
            return Path.GetFullPath(directory);

        var tried = new List<string> { callerFilePath };
        if (TryGetMappedRelativePath(callerFilePath, out string? relative))
        {
            if (!string.IsNullOrWhiteSpace(_baselineRoot))
            {
                string candidate = Path.GetFullPath(Path.Combine(_baselineRoot, relative));
                string? candidateDirectory = Path.GetDirectoryName(candidate);
                if (candidateDirectory is not null && Directory.Exists(candidateDirectory))
                    return candidateDirectory;

                tried.Add($"{candidate} ({BaselineRootVariable})");
            }

            for (DirectoryInfo? ancestor = new(_baseDirectory); ancestor is not null; ancestor = ancestor.Parent)
            {
                // The source file itself must exist: a directory of the same name elsewhere would be a guess.
                string candidate = Path.Combine(ancestor.FullName, relative);
                if (File.Exists(candidate))
                    return Path.GetDirectoryName(candidate)!;

                tried.Add(candidate);
            }
        }

        throw new DirectoryNotFoundException(BaselineFileMessages.SourceFolderNotFound(callerFilePath, tried));
    }

    /// <summary>The file name <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].perf.json</c>.</summary>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <returns>The file name.</returns>
    public static string GetFileName(string testClass, string testMethod, string? caseName = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(testClass);
        ArgumentException.ThrowIfNullOrWhiteSpace(testMethod);
        string stem = $"{Sanitize(testClass)}.{Sanitize(testMethod)}";
        return (string.IsNullOrEmpty(caseName) ? stem : $"{stem}.{Sanitize(caseName)}") + BaselineExtension;
    }

    /// <summary>The received path beside a baseline: <c>X.perf.json</c> → <c>X.received.perf.json</c>.</summary>
    /// <param name="baselinePath">The baseline path.</param>
    /// <returns>The received path.</returns>
    public static string GetReceivedPath(string baselinePath)
    {
        ArgumentNullException.ThrowIfNull(baselinePath);
        return baselinePath.EndsWith(BaselineExtension, StringComparison.Ordinal)
            ? string.Concat(baselinePath.AsSpan(0, baselinePath.Length - BaselineExtension.Length), ReceivedExtension)
            : baselinePath + ReceivedExtension;
    }

    // "/_/src/X.cs" → "src/X.cs", also "/_1/…" and Windows separators after the mapped prefix.
    private static bool TryGetMappedRelativePath(string path, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? relative)
    {
        relative = null;
        string normalized = path.Replace('\\', '/');
        if (!normalized.StartsWith("/_", StringComparison.Ordinal))
            return false;

        int slash = normalized.IndexOf('/', 2);
        if (slash < 0 || normalized.AsSpan(2, slash - 2).ContainsAnyExceptInRange('0', '9'))
            return false;

        relative = normalized[(slash + 1)..].Replace('/', Path.DirectorySeparatorChar);
        return relative.Length > 0;
    }

    // Letters, digits and ._-+ stay; everything else (spaces, quotes, slashes, commas of theory arguments) becomes '_'.
    private static string Sanitize(string part)
    {
        var builder = new StringBuilder(part.Length);
        foreach (char c in part)
            builder.Append(char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_' or '+' ? c : '_');

        return builder.ToString();
    }
}
