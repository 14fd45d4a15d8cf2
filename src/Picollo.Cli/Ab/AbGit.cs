using System.ComponentModel;
using System.Diagnostics;
using System.Text;

namespace Picollo.Cli.Ab;

/// <summary>
/// git as <c>picollo ab</c> and <c>picollo bisect</c> run it: a process per command, its output read whole, bounded in time.
/// </summary>
internal static class AbGit
{
    /// <summary>
    /// Runs git in <paramref name="directory"/>: its messages in English, no credential prompt, and none of the variables a git
    /// hook sets (<c>GIT_DIR</c> and its kin), which would point the command at the hook's repository.
    /// </summary>
    /// <param name="directory">The folder git runs in.</param>
    /// <param name="timeout">How long it may take before it is stopped (<see cref="AbException"/>).</param>
    /// <param name="arguments">git's arguments.</param>
    /// <returns>git's exit code, standard output and standard error.</returns>
    /// <exception cref="AbException">git could not be started, or did not finish in time.</exception>
    public static (int ExitCode, string Output, string Error) Run(string directory, TimeSpan timeout, params string[] arguments)
    {
        var start = new ProcessStartInfo("git")
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);

        // git's messages in English (this tool quotes them and recognises "not a git repository"), and never a credential
        // prompt that would wait for a user a CI job does not have.
        start.Environment["LC_ALL"] = "C";
        start.Environment["GIT_TERMINAL_PROMPT"] = "0";

        // Set when picollo runs from a git hook: a worktree command under them would act on the hook's index and tree.
        foreach (string variable in (string[])["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"])
            start.Environment.Remove(variable);

        using var process = new Process { StartInfo = start };
        try
        {
            process.Start();
        }
        catch (Win32Exception e)
        {
            throw new AbException(AbMessages.GitNotStarted(e.Message));
        }

        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(timeout))
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // It exited after all, between the wait and the kill.
            }

            throw new AbException(AbMessages.GitTimedOut(arguments, timeout, directory));
        }

        // Bounded: a process a hook started can hold the pipes open after git exited.
        _ = Task.WaitAll([output, error], TimeSpan.FromSeconds(5));
        return (process.ExitCode, output.IsCompletedSuccessfully ? output.Result : "", error.IsCompletedSuccessfully ? error.Result : "");
    }
}
