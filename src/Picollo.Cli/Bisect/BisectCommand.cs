using Picollo.Cli.Ab;
using Spectre.Console;

namespace Picollo.Cli.Bisect;

/// <summary>
/// <c>picollo bisect</c> (docs/VERDICTS.md, "Which commit: picollo bisect"): measures the bad commit against the
/// good one as <c>picollo ab</c> does, takes the change it shows, and binary-searches the commits between them for the first
/// that shows it, each step built in a worktree of its own and measured in lock-step against the good build. Exit code 0
/// with the first bad commit, 2 when it could not decide (or could not run). The user's working tree, index, HEAD and
/// branches are never touched: every checkout is a detached worktree in a temporary folder, removed at the end, on an
/// error and on Ctrl+C.
/// </summary>
internal static class BisectCommand
{
    /// <summary>Minutes the whole search may take by default, builds included (<c>--time-budget</c>).</summary>
    internal const double DefaultTimeBudgetMinutes = 60;

    /// <summary>What the command line asked for.</summary>
    /// <param name="Good">The good ref: a commit before the change.</param>
    /// <param name="Bad">The bad ref: a commit that has it.</param>
    /// <param name="Test">Which tests, as <c>dotnet test --filter</c> (or a bare text: <c>FullyQualifiedName~text</c>).</param>
    /// <param name="Project">One perf-test project, or <see langword="null"/> for every one.</param>
    /// <param name="Options">
    /// Threshold, confidence and pairs as <c>picollo ab</c>'s; <see cref="AbOptions.TimeBudget"/> bounds the whole search
    /// (builds included), not one step.
    /// </param>
    internal sealed record Request(string Good, string Bad, string Test, string? Project, AbOptions Options);

    /// <summary>Runs the command.</summary>
    /// <param name="console">Where the answer goes (standard output): the first bad commit and its table, or why not.</param>
    /// <param name="errors">Where the progress and the reason it could not run go (standard error).</param>
    /// <param name="request">The request.</param>
    /// <returns>0 with the first bad commit; 2 otherwise.</returns>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, Request request)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(errors);
        ArgumentNullException.ThrowIfNull(request);

        using var cancellation = new CancellationTokenSource();
        string temp = Directory.CreateTempSubdirectory("picollo-bisect-").FullName;
        AbWorkspace? workspace = null;
        ConsoleCancelEventHandler onCancel = AbCommand.CancelOnFirstCtrlC(cancellation);
        Console.CancelKeyPress += onCancel;
        try
        {
            // Every ref and the range are checked before the first checkout: a bad input leaves nothing behind.
            BisectRange range = BisectRange.Read(Directory.GetCurrentDirectory(), request.Good, request.Bad);
            errors.Profile.Out.Writer.WriteLine(BisectMessages.Range(
                Name(request.Good, range.Good), Name(request.Bad, range.Bad), range.Commits.Count,
                new BisectSearch(range.Commits.Count).StepsLeft));
            workspace = AbWorkspace.Open(range.Root, request.Good, request.Bad, Path.Combine(temp, "worktrees"), ("good", "bad"));
            var session = new BisectSession(console, errors, request, range, workspace, Path.Combine(temp, "artifacts"));
            return session.Run(cancellation.Token);
        }
        catch (AbException e)
        {
            return Fail(errors, e.Message);
        }
        catch (OperationCanceledException)
        {
            return Fail(errors, BisectMessages.Cancelled());
        }
        finally
        {
            Console.CancelKeyPress -= onCancel;
            workspace?.Dispose();
            AbCommand.DeleteTemporary(temp);
        }
    }

    /// <summary>Writes an error line, prefixed with the command's name, to standard error.</summary>
    /// <param name="errors">Standard error.</param>
    /// <param name="message">The reason.</param>
    /// <returns><see cref="ExitCodes.Error"/>.</returns>
    internal static int Fail(IAnsiConsole errors, string message)
    {
        errors.Profile.Out.Writer.WriteLine(BisectMessages.Prefix + message);
        return ExitCodes.Error;
    }

    // "v1.4.0 (1a2b3c4d5e)", or the short sha alone when that is what the user gave.
    private static string Name(string reference, BisectCommit commit) =>
        commit.Sha.StartsWith(reference, StringComparison.OrdinalIgnoreCase) ? commit.Short : $"{reference} ({commit.Short})";
}
