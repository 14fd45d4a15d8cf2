using Picollo.Cli.Ab;

namespace Picollo.Cli.History;

/// <summary>
/// The commit, parent and branch of the git repository a run is added from, when <c>--commit</c> and <c>--branch</c> do
/// not say them: <c>picollo history add</c> runs in the CI job's checkout, whose HEAD is what was measured.
/// </summary>
/// <param name="Commit">HEAD's commit, or <see langword="null"/> outside a repository.</param>
/// <param name="Parent">HEAD's first parent, or <see langword="null"/> for a root commit or a shallow clone without it.</param>
/// <param name="Branch">The branch checked out, or <see langword="null"/> when HEAD is detached.</param>
/// <param name="NotARepository">Why no commit could be read (git's words), or <see langword="null"/> when one was.</param>
internal sealed record HistoryGit(string? Commit, string? Parent, string? Branch, string? NotARepository)
{
    // Reading HEAD answers in milliseconds; the bound is for a git that waits on a lock.
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    /// <summary>Reads HEAD of the repository around <paramref name="directory"/> with the git <c>picollo ab</c> runs.</summary>
    public static HistoryGit Read(string directory)
    {
        try
        {
            (int exit, string output, string error) = AbGit.Run(directory, s_timeout, "rev-parse", "--verify", "HEAD^{commit}");
            if (exit != 0)
                return new HistoryGit(null, null, null, FirstLine(error.Length > 0 ? error : output));
            string? parent = Line(AbGit.Run(directory, s_timeout, "rev-parse", "--verify", "--quiet", "HEAD^1^{commit}"));
            string? branch = Line(AbGit.Run(directory, s_timeout, "symbolic-ref", "--quiet", "--short", "HEAD"));
            return new HistoryGit(FirstLine(output), parent, branch, null);
        }
        catch (AbException e)
        {
            return new HistoryGit(null, null, null, e.Message);
        }
    }

    // What git printed when it succeeded, else null.
    private static string? Line((int ExitCode, string Output, string Error) git) =>
        git.ExitCode == 0 && FirstLine(git.Output) is { Length: > 0 } line ? line : null;

    private static string FirstLine(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() ?? "";
}
