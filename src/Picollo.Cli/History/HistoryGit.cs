using System.ComponentModel;
using System.Diagnostics;
using System.Text;

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
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    /// <summary>Reads HEAD of the repository around <paramref name="directory"/>.</summary>
    public static HistoryGit Read(string directory)
    {
        (int exit, string output, string error) = Git(directory, "rev-parse", "--verify", "HEAD^{commit}");
        if (exit != 0)
            return new HistoryGit(null, null, null, error.Length > 0 ? error : output);
        string? parent = Git(directory, "rev-parse", "--verify", "--quiet", "HEAD^1^{commit}") is (0, { Length: > 0 } p, _) ? p : null;
        string? branch = Git(directory, "symbolic-ref", "--quiet", "--short", "HEAD") is (0, { Length: > 0 } b, _) ? b : null;
        return new HistoryGit(output, parent, branch, null);
    }

    // git's first line of output and error, trimmed; a git that does not start reads as "not a repository" with its reason.
    private static (int ExitCode, string Output, string Error) Git(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo("git")
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);

        // git's messages in English, and no credential prompt a CI job could not answer.
        start.Environment["LC_ALL"] = "C";
        start.Environment["GIT_TERMINAL_PROMPT"] = "0";
        try
        {
            using Process git = Process.Start(start)!;
            Task<string> error = git.StandardError.ReadToEndAsync();
            string output = git.StandardOutput.ReadToEnd();
            if (!git.WaitForExit(s_timeout))
            {
                git.Kill(entireProcessTree: true);
                return (-1, "", "git did not answer in 30 s");
            }

            return (git.ExitCode, FirstLine(output), FirstLine(error.Result));
        }
        catch (Win32Exception e)
        {
            return (-1, "", $"git could not be started: {e.Message}");
        }
    }

    private static string FirstLine(string text) =>
        text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).FirstOrDefault() ?? "";
}
