using System.Buffers.Binary;
using System.Diagnostics;
using Picollo.Assertions;
using Picollo.Measurement;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// <c>picollo report</c>'s page opened in a real headless browser (Debian's chromium, which .ci/run installs), offline:
/// the browser's DOM holds every test and its plot, and its screenshot is a rendered page (issue 14).
/// </summary>
public sealed class BrowserTests(PackageFeed feed)
{
    private static readonly string[] s_browsers = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

    [Fact]
    public async Task ReportPage_RendersInHeadlessChromium_WithItsPlots()
    {
        string chromium = s_browsers.FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("No chromium: this test opens picollo's HTML report in a headless browser. Install it: sudo apt-get install chromium (.ci/run does).");
        string results = Path.Combine(feed.Root, "browser-results");
        Directory.CreateDirectory(results);
        Func<string, string?> environment = name => name == "PICOLLO_RESULTS_DIR" ? results : null;
        Perf.Measure(PerfOptions.Default with { Counters = ["tsc", "allocated-bytes", "cycles"], Samples = 200 }, static () => new byte[32]).WriteReport("Browser", getEnvironmentVariable: environment, testMethod: "Allocate");
        Perf.Measure(PerfOptions.Default with { Counters = ["tsc"], Samples = 200 }, static () => 42).WriteReport("Browser", getEnvironmentVariable: environment, testMethod: "Constant");
        await feed.InstallToolAsync();
        string page = Path.Combine(feed.Root, "report.html");
        (await Run(Path.Combine(feed.ToolPath, "picollo"), "report", results, "--html", page)).ShouldContain("2 test(s)");

        // No network: the page must need none.
        string[] flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--proxy-server=127.0.0.1:9", "--window-size=1200,1600"];
        string dom = await Run(chromium, [.. flags, "--dump-dom", "file://" + page]);
        dom.ShouldContain("Picollo results: 2 test(s)");
        dom.ShouldContain("Browser.Allocate");
        dom.ShouldContain("Browser.Constant");
        (dom.Split("<svg").Length - 1).ShouldBe(2, "both plots are in the rendered page");

        string screenshot = Path.Combine(feed.Root, "report.png");
        await Run(chromium, [.. flags, "--screenshot=" + screenshot, "file://" + page]);
        byte[] png = await File.ReadAllBytesAsync(screenshot, TestContext.Current.CancellationToken);
        png.AsSpan(1, 3).ToArray().ShouldBe("PNG"u8.ToArray());
        BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(16, 4)).ShouldBe(1200);
        // A blank page at this size came to 8.9 KB; this report page to about 300 KB (chromium 2026-11, measured once).
        png.Length.ShouldBeGreaterThan(20_000, "a blank page compresses to a few kilobytes; a page of tables and plots does not");
        TestContext.Current.AddAttachment("report.png", png, "image/png");
    }

    private static async Task<string> Run(string file, params string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        using Process process = Process.Start(start)!;
        Task<string> error = process.StandardError.ReadToEndAsync();
        string output = await process.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(90));
        await process.WaitForExitAsync(timeout.Token);
        return process.ExitCode == 0 ? output : throw new InvalidOperationException($"{file} {string.Join(' ', arguments)} exited with {process.ExitCode}:\n{output}\n{await error}");
    }
}
