using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using Picollo.Testing;

namespace Picollo.Cli.Ab;

/// <summary>
/// Builds one revision's perf-test project in Release, with every output (bin and obj, of the project and of the
/// projects it references) under the run's artifacts folder: building the head in the working tree writes nothing there.
/// </summary>
internal static partial class AbBuild
{
    // Evaluating a project (no build) takes about a second; a minute only bounds a hung SDK.
    private static readonly TimeSpan s_query = TimeSpan.FromMinutes(1);

    // How many of the build's error lines a failure quotes: the first ones, where the cause usually is.
    private const int QuotedErrors = 10;

    /// <summary>
    /// Builds <c>&lt;<paramref name="revision"/>.Root&gt;/<paramref name="projectRelativePath"/></c> with
    /// <c>dotnet build -c Release --artifacts-path &lt;<paramref name="artifactsRoot"/>&gt;/&lt;side&gt;</c> and returns the
    /// built assembly's full path.
    /// </summary>
    /// <param name="revision">The revision whose sources are built.</param>
    /// <param name="projectRelativePath">The perf-test project, relative to the revision's root.</param>
    /// <param name="artifactsRoot">The run's artifacts folder; the side's outputs go to its <c>base</c> or <c>head</c> subfolder.</param>
    /// <param name="log">Receives the build's progress lines as they come (<see cref="TextWriter.Null"/> for none).</param>
    /// <param name="cancellation">Stops the build (its whole process tree).</param>
    /// <param name="sideBySide">Whether the other side's build runs at the same time: each then takes half the cores.</param>
    /// <returns>The assembly's full path; its <c>.runtimeconfig.json</c> is beside it.</returns>
    /// <exception cref="AbException">The project is missing, does not build, or is not a test program.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="cancellation"/> was cancelled.</exception>
    public static string Build(
        AbRevision revision,
        string projectRelativePath,
        string artifactsRoot,
        TextWriter log,
        CancellationToken cancellation,
        bool sideBySide = false)
    {
        ArgumentNullException.ThrowIfNull(revision);
        ArgumentNullException.ThrowIfNull(log);
        string project = Path.GetFullPath(Path.Combine(revision.Root, projectRelativePath));
        if (!File.Exists(project))
        {
            throw new AbException(AbMessages.ProjectMissing(Describe(revision), projectRelativePath, isBase: revision.Side == "base"));
        }

        // Every output of the build, obj included (restore's assets, the intermediate assemblies), goes under this folder:
        // the SDK's artifacts layout moves bin and obj of every project the build touches.
        string artifacts = Path.GetFullPath(Path.Combine(artifactsRoot, revision.Side));
        string[] properties = ["-p:Configuration=Release", "-p:ArtifactsPath=" + artifacts];

        // -tl:off: plain lines, one per event, which the log and the error scan read; the terminal logger redraws in place.
        // Two builds at once take half the cores each: on a 2-core runner one build node each, which also spares each
        // build waiting for a node process of its own to start (where node reuse is off, as on this repository's VMs: an
        // up-to-date build of a test project and its library took 3.8 s with one node, 5.0 s with two).
        int nodes = sideBySide ? Math.Max(1, Environment.ProcessorCount / 2) : Environment.ProcessorCount;
        string[] build =
            ["build", project, "-nologo", "-tl:off", "-v:minimal", "-maxCpuCount:" + nodes.ToString(CultureInfo.InvariantCulture)];
        var (exitCode, lines) = Dotnet(revision.Root, [.. build, .. properties], log, null, cancellation);
        if (exitCode != 0)
            throw new AbException(BuildFailure(revision, projectRelativePath, lines));

        // dotnet build with -getProperty evaluates without building unless -t:Build is added, and then prints nothing but the
        // value; so the build above runs with its progress lines and errors, and the path is asked for afterwards with the
        // same global properties, which decide it.
        string[] getProperties = ["msbuild", project, "-nologo", "-getProperty:TargetPath", "-getProperty:TargetFrameworks", .. properties];
        var (queryCode, query) = Dotnet(revision.Root, getProperties, TextWriter.Null, s_query, cancellation);
        string assembly = queryCode == 0
            ? TargetPath(query, out string frameworks)
            : throw new AbException(
                AbMessages.AssemblyPathUnknown(Describe(revision), projectRelativePath, string.Join(' ', query.Take(5))));
        if (assembly.Length == 0)
        {
            throw new AbException(frameworks.Length > 0
                ? AbMessages.SeveralTargetFrameworks(projectRelativePath, frameworks)
                : AbMessages.NoTargetPath(projectRelativePath));
        }

        if (!File.Exists(assembly))
            throw new AbException(AbMessages.AssemblyNotAtTargetPath(Describe(revision), projectRelativePath, assembly));
        if (!File.Exists(Path.ChangeExtension(assembly, ".runtimeconfig.json")))
            throw new AbException(AbMessages.NotATestProgram(projectRelativePath, Path.GetFileName(assembly)));

        return assembly;
    }

    // "base (origin/main, merge-base 1a2b3c4)", "head (working tree, 1a2b3c4)", "head (feature, 1a2b3c4)".
    private static string Describe(AbRevision revision) => revision.Side == "base"
        ? $"base ({revision.Ref}, merge-base {revision.ShortCommit})"
        : $"{revision.Side} ({revision.Ref}, {revision.ShortCommit})";

    private static string BuildFailure(AbRevision revision, string projectRelativePath, IReadOnlyList<string> lines)
    {
        // MSBuild repeats each error in its summary: the first occurrences, in order, with paths shown from the revision's root.
        string root = Path.TrimEndingDirectorySeparator(revision.Root) + Path.DirectorySeparatorChar;
        string[] errors = [.. lines
            .Where(static l => ErrorLine().IsMatch(l))
            .Select(l => l.Trim().Replace(root, "", StringComparison.Ordinal))
            .Distinct(StringComparer.Ordinal)
            .Take(QuotedErrors)];
        string quoted = errors.Length > 0
            ? string.Join('\n', errors.Select(static e => "  " + e))
            : "  (no error line in the build's output; its last lines:) "
                + string.Join(" | ", lines.TakeLast(5).Select(static l => l.Trim()));
        // The option that chose the revision is named after its side: --base, --head (picollo bisect: --good, --bad).
        string fix = revision.Ref == "working tree" ? "Fix the build." : $"Fix the build or pick another --{revision.Side}.";
        return $"The {Describe(revision)} does not build: {projectRelativePath}:\n{quoted}\n{fix}";
    }

    private static string TargetPath(IReadOnlyList<string> output, out string frameworks)
    {
        // Two properties asked for: MSBuild answers with one JSON object, {"Properties": {"TargetPath": "...", ...}}.
        string json = string.Join('\n', output);
        int start = json.IndexOf('{', StringComparison.Ordinal);
        try
        {
            using JsonDocument document = JsonDocument.Parse(start < 0 ? json : json[start..]);
            JsonElement values = document.RootElement.GetProperty("Properties");
            frameworks = values.TryGetProperty("TargetFrameworks", out JsonElement f) ? f.GetString() ?? "" : "";
            return values.TryGetProperty("TargetPath", out JsonElement p) ? p.GetString() ?? "" : "";
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            throw new AbException($"dotnet msbuild -getProperty printed what is not its JSON answer ({e.Message}): {json}");
        }
    }

    private static (int ExitCode, IReadOnlyList<string> Lines) Dotnet(
        string directory, string[] arguments, TextWriter log, TimeSpan? timeout, CancellationToken cancellation)
    {
        var start = new ProcessStartInfo(DotnetHost.Path)
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);

        // Set for the processes an SDK command starts (picollo run by a build step, a test host): they would pin the
        // child's MSBuild to the parent's SDK instead of the one the repository's global.json chooses.
        string[] pinning = ["MSBuildExtensionsPath", "MSBUILD_EXE_PATH", "MSBuildSDKsPath", "MSBuildLoadMicrosoftTargetsReadOnly"];
        foreach (string variable in pinning)
            start.Environment.Remove(variable);
        start.Environment["DOTNET_NOLOGO"] = "1";
        start.Environment["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1";

        var lines = new List<string>();
        using var closed = new CountdownEvent(2);
        using var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) => Receive(e.Data, lines, log, closed);
        process.ErrorDataReceived += (_, e) => Receive(e.Data, lines, log, closed);
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            throw new AbException(AbMessages.DotnetNotStarted(DotnetHost.Path, e.Message));
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        bool exited;
        using (cancellation.Register(() => Kill(process)))
            exited = process.WaitForExit(timeout ?? Timeout.InfiniteTimeSpan);
        if (!exited)
            Kill(process);

        // Bounded: a build node or the compiler server the build started can hold the pipes open after dotnet exited.
        _ = closed.Wait(TimeSpan.FromSeconds(5), CancellationToken.None);
        cancellation.ThrowIfCancellationRequested();
        if (!exited)
        {
            string command = string.Join(' ', arguments.Take(2));
            throw new AbException(
                $"dotnet {command} did not finish within {timeout!.Value.TotalSeconds:0} s in {directory} and was stopped.");
        }

        lock (lines)
            return (process.ExitCode, [.. lines]);
    }

    // A line of the build's output, or, at the end of one of its two streams (null), one count of the streams closed.
    private static void Receive(string? line, List<string> lines, TextWriter log, CountdownEvent closed)
    {
        if (line is null)
        {
            if (!closed.IsSet)
                closed.Signal();
            return;
        }

        lock (lines)
        {
            lines.Add(line);
            log.WriteLine(line);
        }
    }

    private static void Kill(Process process)
    {
        try
        {
            process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited already.
        }
    }

    // MSBuild's canonical error format ("file(1,2): error CS0103: ...", "MSBUILD : error MSB1009: ...", "error NU1101: ...");
    // lower-case "error" as a word, so the summary's "1 Error(s)" is not one.
    [GeneratedRegex(@"(^|[\s:])error(\s+[A-Za-z]+[0-9]+)?\s*:", RegexOptions.CultureInvariant)]
    private static partial Regex ErrorLine();
}
