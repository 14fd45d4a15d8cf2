using System.Diagnostics;
using System.Globalization;
using Picollo.Measurement.Engine;
using Spectre.Console;

namespace Picollo.Cli.Ab;

/// <summary>
/// <c>picollo ab</c> (docs/CI.md, docs/VERDICTS.md "Base against head"): builds the base and the head, finds their perf
/// tests, runs each test of both builds in pairs over several fresh process pairs and judges head against base. Exit
/// code 1 on a regression (or a test failing on the head), 0 otherwise, 2 when it could not run.
/// </summary>
internal static class AbCommand
{
    /// <summary>
    /// Exit code: it could not run (not a repository, an unknown ref, a build error, no perf tests); picollo's
    /// <see cref="ExitCodes.Error"/>.
    /// </summary>
    public const int CouldNotRun = ExitCodes.Error;

    /// <summary>What the command line asked for.</summary>
    /// <param name="Base">The base ref.</param>
    /// <param name="Head">The head ref, or <see langword="null"/> for the working tree.</param>
    /// <param name="Project">One project, or <see langword="null"/> for every perf-test project.</param>
    /// <param name="Filter">A test filter, as dotnet test's.</param>
    /// <param name="Format">markdown, json or html.</param>
    /// <param name="Output">A file to write the report to, or <see langword="null"/> for the console.</param>
    /// <param name="Options">Threshold, confidence, pairs, budgets.</param>
    internal sealed record Request(
        string Base, string? Head, string? Project, string? Filter, string Format, string? Output, AbOptions Options);

    /// <summary>Runs the command.</summary>
    /// <param name="console">Where the report goes (standard output), and nothing else.</param>
    /// <param name="errors">Where the progress, the reason it could not run and warnings go (standard error).</param>
    /// <param name="request">The request.</param>
    /// <returns>The exit code.</returns>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(errors);
        ArgumentNullException.ThrowIfNull(request);
        if (request.Format is not ("markdown" or "json" or "html"))
            return Fail(errors, AbMessages.UnknownFormat(request.Format));

        // Checked before minutes of building and measuring, which a report that cannot be written would throw away.
        if (request.Output is { } output && Path.GetDirectoryName(Path.GetFullPath(output)) is { } folder && !Directory.Exists(folder))
            return Fail(errors, $"--output {output}: the folder {folder} does not exist. Create it, or name a file in an existing folder.");

        // The progress (the revisions, the builds, a line per pair or the live table) goes to standard error with the other
        // messages for the person watching; standard output holds the report alone, so `picollo ab > ab.md` is the report.
        IAnsiConsole progress = errors;

        using var cancellation = new CancellationTokenSource();
        string temp = Directory.CreateTempSubdirectory("picollo-ab-run-").FullName;
        AbWorkspace? workspace = null;
        ConsoleCancelEventHandler onCancel = CancelOnFirstCtrlC(cancellation);
        Console.CancelKeyPress += onCancel;
        try
        {
            workspace = AbWorkspace.Open(Directory.GetCurrentDirectory(), request.Base, request.Head, Path.Combine(temp, "worktrees"));
            progress.WriteLine($"picollo ab: head {Describe(workspace.Head)} against base {Describe(workspace.Base)}");
            foreach (string note in workspace.Notes)
                progress.WriteLine(note);

            IReadOnlyList<string> projects = AbDiscovery.FindProjects(workspace.Head.Root, request.Project);
            var notes = new List<string>(workspace.Notes);
            if (workspace.SameSources)
                notes.Add(AbMessages.SameSources());
            (List<AbTestAssembly> headAssemblies, List<AbTestAssembly> baseAssemblies) =
                BuildBoth(progress, workspace, projects, request.Filter, Path.Combine(temp, "artifacts"), notes, cancellation.Token);

            SayTests(progress, request, projects, headAssemblies, baseAssemblies);

            // Other perf tests on this machine (another job's) wait while the pairs measure; the workers inherit the lock.
            using MeasurementLock? machine = MeasurementLock.Acquire(MeasurementLock.DefaultTimeout, cancellation.Token);
            long start = Stopwatch.GetTimestamp();
            IReadOnlyList<AbTestResult> results = Measure(progress, baseAssemblies, headAssemblies, request.Options, cancellation.Token);
            var report = new AbReport(workspace.Base, workspace.Head, results, request.Options, Stopwatch.GetElapsedTime(start), notes);
            Write(console, progress, request, report);
            return report.HasRegression ? ExitCodes.Regression : ExitCodes.Success;
        }
        catch (AbException e)
        {
            return Fail(errors, e.Message);
        }
        catch (OperationCanceledException)
        {
            return Fail(errors, "Cancelled: the workers were stopped and the base's worktree removed; nothing was judged.");
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
            workspace?.Dispose();
            DeleteTemporary(temp);
        }
    }

    /// <summary>
    /// The first Ctrl+C stops the workers and removes the worktrees before the process ends; a second one ends it at once.
    /// </summary>
    /// <param name="cancellation">Cancelled by the first Ctrl+C.</param>
    /// <returns>The handler, for <see cref="Console.CancelKeyPress"/>.</returns>
    internal static ConsoleCancelEventHandler CancelOnFirstCtrlC(CancellationTokenSource cancellation) => (_, e) =>
    {
        if (cancellation.IsCancellationRequested)
            return;
        e.Cancel = true;
        cancellation.Cancel();
    };

    // How many perf tests each build has and how they run; none at all is an error, said before anything is measured.
    private static void SayTests(
        IAnsiConsole progress,
        Request request,
        IReadOnlyList<string> projects,
        List<AbTestAssembly> headAssemblies,
        List<AbTestAssembly> baseAssemblies)
    {
        int tests = headAssemblies.Sum(static a => a.Tests.Count) + baseAssemblies.Sum(static a => a.Tests.Count);
        if (tests == 0)
        {
            throw new AbException(request.Filter is null
                ? AbMessages.NoPerfTests(projects)
                : AbMessages.NoPerfTestMatchesFilter(projects, request.Filter));
        }

        int head = headAssemblies.Sum(static a => a.Tests.Count), @base = baseAssemblies.Sum(static a => a.Tests.Count);
        progress.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{head} perf test(s) at the head, {@base} at the base; each runs in process pairs, "
            + $"{request.Options.MinPairs} to {request.Options.MaxPairs}."));
    }

    // Each project built at the head and, where it exists there, at the base, and its perf tests found; a project new at the
    // head is a note. The two builds of a project run at once: a small project's build keeps little more than one core
    // busy (restore, evaluation, one compilation after another), so on a runner with two cores or more the pair ends sooner
    // than one build after the other (the ab tests' run whose base does not build, one run each: 12.3 s one after the other,
    // 8.5 s at once).
    private static (List<AbTestAssembly> Head, List<AbTestAssembly> Base) BuildBoth(
        IAnsiConsole progress,
        AbWorkspace workspace,
        IReadOnlyList<string> projects,
        string? filter,
        string artifacts,
        List<string> notes,
        CancellationToken cancellation)
    {
        var headAssemblies = new List<AbTestAssembly>();
        var baseAssemblies = new List<AbTestAssembly>();
        foreach (string project in projects)
        {
            cancellation.ThrowIfCancellationRequested();
            if (workspace.SameSources)
            {
                // Same files, same build: the SDK's builds are deterministic, so a second one would only repeat the first.
                progress.WriteLine($"Building {project} once: the base and the head have the same sources…");
                string path = AbBuild.Build(workspace.Head, project, artifacts, TextWriter.Null, cancellation);
                headAssemblies.Add(AbDiscovery.FindTests(project, path, filter));
                baseAssemblies.Add(AbDiscovery.FindTests(project, path, filter));
                continue;
            }

            bool atBase = File.Exists(Path.Combine(workspace.Base.Root, project));
            progress.WriteLine($"Building {project} at the head…");
            if (atBase)
                progress.WriteLine($"Building {project} at the base…");
            else
                notes.Add($"{project} does not exist at the base: its tests are new.");

            (string headPath, string? basePath) =
                BuildPaired(workspace.Head, atBase ? workspace.Base : null, project, artifacts, cancellation);
            headAssemblies.Add(AbDiscovery.FindTests(project, headPath, filter));
            if (basePath is not null)
                baseAssemblies.Add(AbDiscovery.FindTests(project, basePath, filter));
        }

        return (headAssemblies, baseAssemblies);
    }

    /// <summary>
    /// Builds <paramref name="project"/> at the head and, when given, at the base at the same time (picollo bisect's good and
    /// bad too). Both builds end before either's failure is thrown: the caller removes the worktrees next, which must not pull
    /// a folder from under a build that still runs. The head's failure is said first, as when the head was built first.
    /// </summary>
    /// <param name="headRevision">The head.</param>
    /// <param name="baseRevision">The base; <see langword="null"/> when the project is new at the head.</param>
    /// <param name="project">The project, relative to the revisions' roots.</param>
    /// <param name="artifacts">The run's artifacts folder.</param>
    /// <param name="cancellation">Ctrl+C.</param>
    /// <returns>The built assemblies' paths.</returns>
    internal static (string Head, string? Base) BuildPaired(
        AbRevision headRevision, AbRevision? baseRevision, string project, string artifacts, CancellationToken cancellation)
    {
        bool atBase = baseRevision is not null;
        Task<string> head = Start(headRevision);
        Task<string>? @base = baseRevision is null ? null : Start(baseRevision);
        try
        {
            Task.WaitAll(@base is null ? [head] : [head, @base], CancellationToken.None);
        }
        catch (AggregateException)
        {
            // Each task's own exception is rethrown below, in the order the sides are said.
        }

        return (head.GetAwaiter().GetResult(), @base?.GetAwaiter().GetResult());

        // Not cancelled by the token before it starts: a build that never started has nothing to wait for, but the token
        // still stops the build's process once it runs.
        Task<string> Start(AbRevision revision) =>
            Task.Run(
                () => AbBuild.Build(revision, project, artifacts, TextWriter.Null, cancellation, sideBySide: atBase),
                CancellationToken.None);
    }

    /// <summary>Deletes the run's temporary folder (build outputs, worktrees already removed); never throws.</summary>
    /// <param name="temp">The folder.</param>
    internal static void DeleteTemporary(string temp)
    {
        try
        {
            Directory.Delete(temp, recursive: true);
        }
        catch (IOException)
        {
            // Build outputs left in the temporary folder, nothing more.
        }
        catch (UnauthorizedAccessException)
        {
            // As above.
        }
    }

    // On a terminal a live table (a row per test, redrawn after each pair); in a log (CI, a redirected console) a line per pair.
    private static IReadOnlyList<AbTestResult> Measure(
        IAnsiConsole console,
        List<AbTestAssembly> baseAssemblies,
        List<AbTestAssembly> headAssemblies,
        AbOptions options,
        CancellationToken cancellation)
    {
        int tests = headAssemblies.Sum(static a => a.Tests.Count);
        if (!console.Profile.Capabilities.Interactive)
            return AbRunner.Run(baseAssemblies, headAssemblies, options, progress => console.WriteLine(progress.Line), cancellation);

        IReadOnlyList<AbTestResult> results = [];
        string? endedEarly = null;
        console.Live(AbProgressView.Starting(tests)).AutoClear(false).Start(live =>
            results = AbRunner.Run(baseAssemblies, headAssemblies, options, progress =>
            {
                live.UpdateTarget(AbProgressView.Render(progress));
                live.Refresh();
                if (progress.EndsEarly)
                    endedEarly = progress.Line;
            }, cancellation));
        if (endedEarly is not null)
            console.WriteLine(endedEarly);
        return results;
    }

    // The report on standard output (also when it went to --output as markdown, for the log); what was written where, and a
    // step summary that could not be written, on standard error.
    private static void Write(IAnsiConsole console, IAnsiConsole errors, Request request, AbReport report)
    {
        string markdown = report.ToMarkdown();
        string text = request.Format switch
        {
            "json" => report.ToJson(),
            "html" => report.ToHtml(),
            _ => markdown,
        };
        if (request.Output is { } output)
        {
            File.WriteAllText(output, text);
            errors.WriteLine($"Wrote {Path.GetFullPath(output)}.");
        }

        if (request.Output is null || request.Format == "markdown")
            console.Profile.Out.Writer.Write(request.Output is null ? text : markdown);

        // On GitHub Actions the markdown goes to the job's summary page too.
        if (Environment.GetEnvironmentVariable("GITHUB_STEP_SUMMARY") is { Length: > 0 } summary)
        {
            try
            {
                File.AppendAllText(summary, markdown + Environment.NewLine);
            }
            catch (IOException e)
            {
                errors.Profile.Out.Writer.WriteLine(AbMessages.StepSummaryNotWritten(summary, e.Message));
            }
        }
    }

    private static string Describe(AbRevision revision) => revision.Ref == "working tree"
        ? $"the working tree (on {revision.Commit[..Math.Min(10, revision.Commit.Length)]})"
        : $"{revision.Ref} ({revision.Commit[..Math.Min(10, revision.Commit.Length)]})";

    private static int Fail(IAnsiConsole console, string message)
    {
        console.Profile.Out.Writer.WriteLine("picollo ab: " + message);
        return CouldNotRun;
    }
}
