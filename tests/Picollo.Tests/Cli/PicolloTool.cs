using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Picollo.Tests.Cli;

/// <summary>Runs the real picollo tool (src/Picollo.Cli's build output, same configuration as this test) as a process.</summary>
internal static class PicolloTool
{
    /// <summary>The exit code and everything the tool printed.</summary>
    public sealed record Run(int ExitCode, string Output);

    /// <summary>Runs <c>picollo <paramref name="arguments"/></c> in <paramref name="directory"/>, feeding <paramref name="input"/> to its standard input.</summary>
    public static Run Invoke(string directory, string? input, params string[] arguments)
    {
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
        using Process tool = Process.Start(start)!;
        if (input is not null)
            tool.StandardInput.Write(input);
        tool.StandardInput.Close();
        Task<string> error = tool.StandardError.ReadToEndAsync();
        string output = tool.StandardOutput.ReadToEnd();
        if (!tool.WaitForExit(60_000))
        {
            tool.Kill(entireProcessTree: true);
            throw new TimeoutException($"picollo {string.Join(' ', arguments)} did not finish in 60 s:\n{output}");
        }

        return new Run(tool.ExitCode, output + error.Result);
    }

    private static string ToolPath([CallerFilePath] string here = "")
    {
        // bin/<Configuration>/<tfm>/ of this test assembly names the configuration the tool was built in.
        string configuration = new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)).Parent!.Name;
        string path = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", "..", "src", "Picollo.Cli", "bin", configuration, "net10.0", "Picollo.Cli.dll"));
        return File.Exists(path) ? path : throw new FileNotFoundException($"The picollo tool is not built at {path}: build Picollo.sln in {configuration}.", path);
    }
}
