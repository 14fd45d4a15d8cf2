using System.Diagnostics;
using Picollo.Cli.Ab;
using Picollo.Measurement.Engine;
using Spectre.Console;

namespace Picollo.Cli.Bisect;

/// <summary>
/// One <c>picollo bisect</c> run once its range is read and its good and bad commits are checked out: the first measurement
/// (bad against good, <c>picollo ab</c>'s builds and pairs), then the steps, then the answer.
/// </summary>
/// <param name="console">Standard output: the answer.</param>
/// <param name="errors">Standard error: the progress.</param>
/// <param name="request">The request.</param>
/// <param name="range">The commits searched.</param>
/// <param name="workspace">The good commit as its base, the bad one as its head; each step's commit is added to it.</param>
/// <param name="artifacts">The run's build outputs.</param>
internal sealed class BisectSession(
    IAnsiConsole console, IAnsiConsole errors, BisectCommand.Request request, BisectRange range, AbWorkspace workspace, string artifacts)
{
    // A step's worktree and build outputs: one folder, checked out again for each step, so the build's restore and the
    // projects the step did not change are reused.
    private const string StepSide = "step";

    private readonly AbOptions _options = request.Options;
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    /// <summary>Measures, searches and writes the answer.</summary>
    /// <param name="cancellation">Ctrl+C.</param>
    /// <returns>0 with the first bad commit; 2 when it could not decide.</returns>
    /// <exception cref="AbException">The good or bad commit does not build, or has no perf test the filter selects.</exception>
    public int Run(CancellationToken cancellation)
    {
        (List<AbTestAssembly> good, List<AbTestAssembly> bad) = Build(cancellation);

        Say($"Measuring bad {range.Bad.Short} against good {range.Good.Short}…");
        long start = Stopwatch.GetTimestamp();
        IReadOnlyList<AbTestResult> ends = Pairs(good, bad, _options, cancellation);
        TimeSpan wall = Stopwatch.GetElapsedTime(start);
        IReadOnlyList<BisectChange> changes = BisectJudge.Changes(ends, _options);
        if (changes.Count == 0)
        {
            console.Profile.Out.Writer.Write(Report(workspace.Head, ends, wall).ToMarkdown());
            return BisectCommand.Fail(errors, BisectMessages.NothingToBisect(
                $"--bad {request.Bad}", $"--good {request.Good}", request.Test, _options.Threshold));
        }

        BisectChange change = changes[0];
        Say(BisectMessages.Hunting(change, _options.MaxPairs));
        if (changes.Count > 1)
            Say(BisectMessages.AlsoChanged(changes.Skip(1)));

        AbTestAssembly goodAssembly = good.First(a => a.ProjectRelativePath == change.Project);
        goodAssembly = goodAssembly with { Tests = [.. goodAssembly.Tests.Where(t => t.FullName == change.Test.FullName)] };
        return Search(change, goodAssembly, ([.. ends.Where(t => t.Test.FullName == change.Test.FullName)], wall), cancellation);
    }

    // Each project at good and bad, built at once; its perf tests the filter selects. None at all is an error, said
    // before anything is measured.
    private (List<AbTestAssembly> Good, List<AbTestAssembly> Bad) Build(CancellationToken cancellation)
    {
        IReadOnlyList<string> projects = AbDiscovery.FindProjects(workspace.Head.Root, request.Project);
        var good = new List<AbTestAssembly>();
        var bad = new List<AbTestAssembly>();
        foreach (string project in projects)
        {
            cancellation.ThrowIfCancellationRequested();
            bool atGood = File.Exists(Path.Combine(workspace.Base.Root, project));
            Say($"Building {project} at bad{(atGood ? " and good" : string.Empty)}…");
            (string badPath, string? goodPath) =
                AbCommand.BuildPaired(workspace.Head, atGood ? workspace.Base : null, project, artifacts, cancellation);
            bad.Add(AbDiscovery.FindTests(project, badPath, request.Test));
            if (goodPath is not null)
                good.Add(AbDiscovery.FindTests(project, goodPath, request.Test));
        }

        if (bad.Sum(static a => a.Tests.Count) == 0)
            throw new AbException(AbMessages.NoPerfTestMatchesFilter(projects, request.Test));
        return (good, bad);
    }

    // The binary search: each step's commit built and measured against good until no commit is left between the last good
    // and the first bad one, a step stays undecided, or the time budget is spent.
    private int Search(
        BisectChange change, AbTestAssembly good, (IReadOnlyList<AbTestResult> Results, TimeSpan Wall) bad, CancellationToken cancellation)
    {
        var search = new BisectSearch(range.Commits.Count);
        (IReadOnlyList<AbTestResult> Results, TimeSpan Wall) firstBad = bad;
        int steps = 0, skipped = 0;
        while (search.Next() is int index)
        {
            BisectCommit commit = range.Commits[index];
            TimeSpan left = _options.TimeBudget - _clock.Elapsed;
            if (left <= TimeSpan.Zero)
            {
                return Undecided(
                    BisectMessages.BudgetSpent(_options.TimeBudget, Commit(search.LastGood), Commit(search.FirstBad), Left(search)));
            }


            long start = Stopwatch.GetTimestamp();
            (BisectStep step, IReadOnlyList<AbTestResult> results, TimeSpan wall) = Measure(change, good, commit, left, cancellation);
            steps++;
            if (step.Verdict == BisectVerdict.Undecided)
            {
                Say(BisectMessages.StepLine(steps, search.StepsLeft, commit, step, Stopwatch.GetElapsedTime(start)));
                int pairs = results.Count > 0 ? results[0].ProcessPairs : 0;
                return Undecided(BisectMessages.Undecided(commit, pairs, Commit(search.LastGood), Commit(search.FirstBad), Left(search)));
            }

            search.Record(index, step.Verdict);
            if (step.Verdict == BisectVerdict.Bad)
                firstBad = (results, wall);
            skipped += step.Verdict == BisectVerdict.Skipped ? 1 : 0;
            Say(BisectMessages.StepLine(steps, search.StepsLeft, commit, step, Stopwatch.GetElapsedTime(start)));
        }

        Say(BisectMessages.Took(steps, skipped, _clock.Elapsed));
        if (!search.IsFound)
            return Undecided(BisectMessages.Ambiguous([.. search.Candidates.Select(i => range.Commits[i])]));

        BisectCommit first = range.Commits[search.FirstBad];
        var revision = new AbRevision("bad", first.Subject, first.Sha, workspace.Head.Root);
        console.Profile.Out.Writer.WriteLine(BisectMessages.FirstBadCommit(first));
        console.Profile.Out.Writer.WriteLine();
        console.Profile.Out.Writer.Write(Report(revision, firstBad.Results, firstBad.Wall).ToMarkdown());
        return ExitCodes.Success;
    }

    // One step: the commit checked out and built (its worktree removed once built; the outputs stay), its hunted test run
    // against good's in lock-step, and judged. A commit that does not build, or lacks the test, is skipped.
    private (BisectStep Step, IReadOnlyList<AbTestResult> Results, TimeSpan Wall) Measure(
        BisectChange change, AbTestAssembly good, BisectCommit commit, TimeSpan left, CancellationToken cancellation)
    {
        AbRevision revision = workspace.Add(StepSide, commit.Short, commit.Sha);
        string assembly;
        try
        {
            assembly = AbBuild.Build(revision, change.Project, artifacts, TextWriter.Null, cancellation);
        }
        catch (AbException e)
        {
            return (new BisectStep(BisectVerdict.Skipped, BisectMessages.DoesNotBuild(FirstError(e.Message))), [], TimeSpan.Zero);
        }
        finally
        {
            workspace.Release(revision);
        }

        AbTestAssembly built = AbDiscovery.FindTests(change.Project, assembly, null);
        AbTest? test = built.Tests.FirstOrDefault(t => t.FullName == change.Test.FullName);
        if (test is null)
            return (new BisectStep(BisectVerdict.Skipped, BisectMessages.NotMeasured(change, [])), [], TimeSpan.Zero);

        // An exact or simulated counter repeats: one pair says whether the step has the change.
        AbOptions options = change.Exact
            ? _options with { MinPairs = 1, MaxPairs = 1, TimeBudget = left }
            : _options with { TimeBudget = left };
        long start = Stopwatch.GetTimestamp();
        IReadOnlyList<AbTestResult> results = Pairs([good], [built with { Tests = [test] }], options, cancellation);
        return (BisectJudge.Step(change, results, _options), results, Stopwatch.GetElapsedTime(start));
    }

    // The pairs of a measurement, under the machine's measurement lock: other perf tests on this machine (another job's)
    // wait while the pairs measure, and the workers inherit the lock. Only the pairs: a step's checkout and build measure
    // nothing, and holding the lock through them kept every other measurement waiting for minutes.
    private IReadOnlyList<AbTestResult> Pairs(
        List<AbTestAssembly> good, List<AbTestAssembly> bad, AbOptions options, CancellationToken cancellation)
    {
        using MeasurementLock? machine = MeasurementLock.Acquire(MeasurementLock.DefaultTimeout, cancellation);
        return AbRunner.Run(good, bad, options, p => Say("  " + p.Line), cancellation);
    }

    // Standard error's writer, not the console's WriteLine: a line is not wrapped at the terminal's width (a build's error
    // line runs long), as picollo ab writes its messages.
    private void Say(string line) => errors.Profile.Out.Writer.WriteLine(line);

    private int Undecided(string message)
    {
        console.Profile.Out.Writer.WriteLine(message);
        return ExitCodes.Error;
    }

    private BisectCommit Commit(int index) => index < 0 ? range.Good : range.Commits[index];

    private static int Left(BisectSearch search) => search.FirstBad - search.LastGood;

    // A build failure's first quoted error line ("  src/Lib/Work.cs(9,21): error CS0103: …"), else its first line.
    private static string FirstError(string message)
    {
        string[] lines = message.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return lines.Length > 1 ? lines[1] : lines.FirstOrDefault() ?? message;
    }

    // picollo ab's table of the commit against good: the pairs and the time they took, as ab's headline says them.
    private AbReport Report(AbRevision bad, IReadOnlyList<AbTestResult> results, TimeSpan wall) =>
        new(workspace.Base, bad, results, _options, wall, []) { Tool = "picollo bisect" };
}
