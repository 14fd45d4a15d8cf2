namespace Picollo.Packaging.Tests;

/// <summary>
/// The Release projects of <see cref="TemplateTests"/>, one per template with <see cref="TemplateProjects.MoreChecks"/>
/// added, created and built in the background as soon as the feed is ready (<see cref="PackageFeed.InitializeAsync"/>):
/// the template runs come last, alone (<see cref="TemplateRunsGroup"/>), and their builds run beside the other packaging
/// tests instead of before the runs.
/// </summary>
internal static class TemplateBuilds
{
    // The templates and their frameworks.
    private static readonly (string Template, string Framework)[] s_templates = [("picollo-nunit", "NUnit"), ("picollo-xunit", "Xunit")];

    private static readonly Lock s_gate = new();
    private static Dictionary<string, Task<(string Project, DotNet.Run Build)>>? s_builds;

    /// <summary>Starts both builds, once; later calls do nothing.</summary>
    public static void Start(PackageFeed feed)
    {
        lock (s_gate)
        {
            // Outside any test's context: a build outlives the code that started it and must not write to a test's output.
            using (ExecutionContext.SuppressFlow())
                s_builds ??= s_templates.ToDictionary(static t => t.Template, t => Task.Run(() => BuildAsync(feed, t.Template, t.Framework)));
        }
    }

    /// <summary>The project of <paramref name="template"/> and its build, once built (started here if it was not yet).</summary>
    public static Task<(string Project, DotNet.Run Build)> Of(PackageFeed feed, string template)
    {
        Start(feed);
        lock (s_gate)
            return s_builds![template];
    }

    /// <summary>
    /// Completes when every build started has ended, however it ended: the feed's folder is deleted only after, also in a
    /// run whose filter left the template tests out.
    /// </summary>
    public static Task WhenEnded()
    {
        lock (s_gate)
            return s_builds is null ? Task.CompletedTask : Task.WhenAll(s_builds.Values).ContinueWith(static _ => { }, TaskScheduler.Default);
    }

    // A project from the template with MoreChecks.cs added, built in Release.
    private static async Task<(string Project, DotNet.Run Build)> BuildAsync(PackageFeed feed, string template, string framework)
    {
        string project = await feed.CreateProjectAsync(template, "Acme.PerfTests");
        await File.WriteAllTextAsync(Path.Combine(project, "MoreChecks.cs"), TemplateProjects.MoreChecks(framework, "Acme.PerfTests"), CancellationToken.None);
        return (project, await feed.BuildAsync(project, "Release"));
    }
}
