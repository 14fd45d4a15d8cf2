using System.Diagnostics;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>The picollo tool installed from the local feed, as a user installs it, then run (issue 14).</summary>
public sealed class ToolTests(PackageFeed feed)
{
    [Fact]
    public async Task Installed_PicolloDoctor_DescribesThisMachine()
    {
        await feed.InstallToolAsync();

        var start = new ProcessStartInfo(Path.Combine(feed.ToolPath, "picollo")) { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add("doctor");
        using Process tool = Process.Start(start)!;
        Task<string> error = tool.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        string output = await tool.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        await tool.WaitForExitAsync(TestContext.Current.CancellationToken);

        tool.ExitCode.ShouldBeOneOf([0, 2], output + await error);
        output.ShouldContain("Baseline key ");
        output.ShouldContain("perf_event_paranoid");
        output.ShouldContain(tool.ExitCode == 0 ? "Hardware counters are usable here" : "Hardware counters are not usable here");
    }

    [Fact]
    public async Task Installed_PicolloHelp_NamesTheCommandPicollo()
    {
        await feed.InstallToolAsync();

        // The installed command runs Picollo.Cli.dll; System.CommandLine's root command would name itself after it (issue 27).
        var start = new ProcessStartInfo(Path.Combine(feed.ToolPath, "picollo")) { RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add("--help");
        using Process tool = Process.Start(start)!;
        Task<string> error = tool.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        string output = await tool.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        await tool.WaitForExitAsync(TestContext.Current.CancellationToken);

        tool.ExitCode.ShouldBe(0, output + await error);
        output.ShouldContain("\n  picollo [command] [options]\n");
        output.ShouldNotContain("Picollo.Cli");
    }
}
