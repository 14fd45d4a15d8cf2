using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Picollo.Tests.Cli;

/// <summary>Runs the real picollo tool (src/Picollo.Cli's build output, same configuration as this test) as a process.</summary>
internal static class PicolloTool
{
    /// <summary>The exit code and what the tool printed on each stream.</summary>
    /// <param name="ExitCode">The exit code.</param>
    /// <param name="StandardOutput">Standard output alone: the report a script redirects to a file.</param>
    /// <param name="StandardError">Standard error alone: errors and warnings.</param>
    public sealed record Run(int ExitCode, string StandardOutput, string StandardError)
    {
        /// <summary>Both streams, standard output first, for assertions that do not care which stream a line is on.</summary>
        public string Output => StandardOutput + StandardError;
    }

    /// <summary>Runs <c>picollo <paramref name="arguments"/></c> in <paramref name="directory"/>, feeding <paramref name="input"/> to its standard input.</summary>
    public static Run Invoke(string directory, string? input, params string[] arguments) =>
        Invoke(directory, input, TimeSpan.FromSeconds(60), new Dictionary<string, string?>(), arguments);

    /// <summary>
    /// Runs <c>picollo <paramref name="arguments"/></c> in <paramref name="directory"/> for at most <paramref name="timeout"/>
    /// (a command that builds and measures takes minutes), with <paramref name="environment"/> set in its environment (a
    /// <see langword="null"/> value removes the variable).
    /// </summary>
    public static Run Invoke(string directory, string? input, TimeSpan timeout, IReadOnlyDictionary<string, string?> environment, params string[] arguments)
    {
        ArgumentNullException.ThrowIfNull(environment);
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = directory,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.ArgumentList.Add(ToolPath());
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        foreach ((string name, string? value) in environment)
        {
            if (value is null)
                start.Environment.Remove(name);
            else
                start.Environment[name] = value;
        }

        using Process tool = Process.Start(start)!;
        if (input is not null)
            tool.StandardInput.Write(input);
        tool.StandardInput.Close();

        // Both streams read in the background, so the wait below bounds a tool that hangs with its output open.
        Task<string> error = tool.StandardError.ReadToEndAsync();
        Task<string> output = tool.StandardOutput.ReadToEndAsync();
        if (!tool.WaitForExit(timeout))
        {
            tool.Kill(entireProcessTree: true);
            tool.WaitForExit();
            throw new TimeoutException($"picollo {string.Join(' ', arguments)} did not finish in {timeout.TotalSeconds:0} s:\n{output.Result}{error.Result}");
        }

        return new Run(tool.ExitCode, output.Result, error.Result);
    }

    private static string ToolPath([CallerFilePath] string here = "")
    {
        // bin/<Configuration>/<tfm>/ of this test assembly names the configuration the tool was built in.
        string configuration = new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)).Parent!.Name;
        string path = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", "..", "src", "Picollo.Cli", "bin", configuration, "net10.0", "Picollo.Cli.dll"));
        return File.Exists(path) ? path : throw new FileNotFoundException($"The picollo tool is not built at {path}: build Picollo.sln in {configuration}.", path);
    }
}
