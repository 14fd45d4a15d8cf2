using System.Text.Json;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

[assembly: AssemblyFixture(typeof(Picollo.Packaging.Tests.PackageFeed))]

namespace Picollo.Packaging.Tests;

/// <summary>
/// The repository packed into a local folder feed, the template pack installed into a private template hive, and a
/// NuGet setup that takes Picollo's packages from that feed only: the state of a user's machine after
/// <c>dotnet new install Picollo.Templates</c>, built once for every test of the assembly.
/// </summary>
public sealed partial class PackageFeed : IAsyncLifetime
{
    private readonly Lock _toolGate = new();
    private Task? _toolInstall;

    /// <summary>The projects packed: the three libraries, the template pack and the tool.</summary>
    public static readonly string[] PackedProjects =
    [
        "src/Picollo/Picollo.csproj",
        "src/Picollo.Testing.Xunit/Picollo.Testing.Xunit.csproj",
        "src/Picollo.Testing.NUnit/Picollo.Testing.NUnit.csproj",
        "templates/Picollo.Templates.csproj",
        "src/Picollo.Cli/Picollo.Cli.csproj",
    ];

    /// <summary>The repository this test was built from.</summary>
    public string RepositoryRoot { get; } = FindRepositoryRoot();

    /// <summary>A fresh folder outside the repository for everything a run creates.</summary>
    public string Root { get; } = Path.Combine(Path.GetTempPath(), "picollo-packaging-" + Guid.NewGuid().ToString("N")[..10]);

    /// <summary>The local feed the packages were packed into.</summary>
    public string Feed => Path.Combine(Root, "feed");

    /// <summary>The version the packages were packed at (one for all: Directory.Build.props).</summary>
    public string Version { get; private set; } = "";

    /// <summary>
    /// The environment every dotnet command on a user's project runs with: a NuGet package folder of its own (so no package of
    /// an earlier pack at the same version is taken from the machine's cache) and the folder's nuget.config; and a memory of
    /// the machine's reference speeds of its own, as on a fresh CI runner. With the developer's <c>~/.cache/picollo</c>,
    /// which benchmarks fill with the machine's fastest moments, every recording of a busy test run measured again up to six
    /// times, 1.5 s apart, to wait for such a moment (the xunit template's Release test: 83 s instead of 43 s), and the runs
    /// wrote into the developer's memory.
    /// </summary>
    public IReadOnlyDictionary<string, string> Environment => new Dictionary<string, string>
    {
        ["NUGET_PACKAGES"] = Path.Combine(Root, "packages"),
        ["PICOLLO_CACHE_DIR"] = Path.Combine(Root, "picollo-cache"),
    };

    /// <summary>
    /// The environment of a dotnet command that builds the repository itself (the pack, a clone's pack): the machine's NuGet
    /// package folder, the one <c>dotnet build Picollo.sln</c> restored into. With <see cref="Environment"/>'s folder the
    /// restore rewrote the projects' <c>obj/project.assets.json</c> and the pack rebuilt all five projects (51 s instead of
    /// 5 s), in the repository's own build output, under any test of the solution still running from it.
    /// </summary>
    public static IReadOnlyDictionary<string, string> RepositoryEnvironment { get; } = new Dictionary<string, string>();

    private string Hive => Path.Combine(Root, "template-hive");

    /// <summary>Where <see cref="InstallToolAsync"/> installs the tool.</summary>
    public string ToolPath => Path.Combine(Root, "tools");

    /// <summary>
    /// Installs the picollo tool from the local feed into <see cref="ToolPath"/>, as <c>dotnet tool install</c> does for a
    /// user; once, whichever test asks first.
    /// </summary>
    public Task InstallToolAsync()
    {
        lock (_toolGate)
            return _toolInstall ??= Install();

        async Task Install() =>
            (await DotNet.RunAsync(Root, Environment, TimeSpan.FromMinutes(3), "tool", "install", "Picollo.Tool", "--version", Version, "--tool-path", ToolPath, "--configfile", Path.Combine(Root, "nuget.config"))).ShouldSucceed();
    }

    /// <inheritdoc/>
    public async ValueTask InitializeAsync()
    {
        Directory.CreateDirectory(Feed);

        // Picollo's packages come from the local feed only (package source mapping); the test frameworks from nuget.org.
        await File.WriteAllTextAsync(Path.Combine(Root, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="picollo-local" value="{Feed}" />
                <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
              </packageSources>
              <packageSourceMapping>
                <packageSource key="picollo-local"><package pattern="Picollo" /><package pattern="Picollo.*" /></packageSource>
                <packageSource key="nuget.org"><package pattern="*" /></packageSource>
              </packageSourceMapping>
            </configuration>
            """);

        // One dotnet pack over a solution filter of the packed projects, not one per project: one restore and one build graph
        // instead of five (each project packs to the same feed as it would alone).
        string filter = Path.Combine(Root, "packed.slnf");
        await File.WriteAllTextAsync(filter, JsonSerializer.Serialize(new
        {
            solution = new { path = Path.Combine(RepositoryRoot, "Picollo.sln"), projects = PackedProjects },
        }));
        (await DotNet.RunAsync(RepositoryRoot, RepositoryEnvironment, TimeSpan.FromMinutes(6), "pack", filter, "-c", "Release", "-p:PackageOutputPath=" + Feed, "-nologo")).ShouldSucceed();
        Directory.GetFiles(Feed, "*.nupkg").Length.ShouldBe(PackedProjects.Length, $"one package per project of {filter} in {Feed}");

        string templates = Directory.GetFiles(Feed, "Picollo.Templates.*.nupkg").Single();
        Version = VersionOf().Match(Path.GetFileName(templates)).Groups[1].Value;
        (await DotNet.RunAsync(Root, Environment, TimeSpan.FromMinutes(2), "new", "install", templates, "--debug:custom-hive", Hive)).ShouldSucceed();
        TemplateBuilds.Start(this);
    }

    /// <summary>Creates a project from a template under <see cref="Root"/>, as <c>dotnet new</c> does for a user.</summary>
    /// <returns>The project's folder.</returns>
    public async Task<string> CreateProjectAsync(string template, string name)
    {
        string folder = Path.Combine(Root, template, name);
        await NewAsync(Root, template, "-n", name, "-o", folder);
        return folder;
    }

    /// <summary>Runs an item template in <paramref name="folder"/> (created if missing), as <c>dotnet new</c> does at a repository's root.</summary>
    /// <param name="template">The template's short name.</param>
    /// <param name="folder">Where its files go.</param>
    /// <param name="arguments">The template's options.</param>
    /// <returns>What it printed.</returns>
    public async Task<DotNet.Run> NewItemAsync(string template, string folder, params string[] arguments)
    {
        Directory.CreateDirectory(folder);
        return await NewAsync(folder, template, arguments);
    }

    // dotnet new from the hive the packed templates were installed into, in directory.
    private async Task<DotNet.Run> NewAsync(string directory, string template, params string[] arguments) =>
        (await DotNet.RunAsync(directory, Environment, TimeSpan.FromMinutes(2), ["new", template, .. arguments, "--debug:custom-hive", Hive])).ShouldSucceed();

    /// <summary><c>dotnet build</c> on a project in <paramref name="configuration"/>, with <see cref="Environment"/>.</summary>
    /// <param name="project">The project's folder.</param>
    /// <param name="configuration">Release or Debug.</param>
    /// <returns>What it printed; it may have failed.</returns>
    public Task<DotNet.Run> BuildAsync(string project, string configuration) =>
        DotNet.RunAsync(project, Environment, TimeSpan.FromMinutes(5), "build", "-c", configuration, "-nologo");

    /// <summary>
    /// <c>dotnet test</c> on a project in <paramref name="configuration"/>, with the console logger at detailed verbosity
    /// (the report on screen) and a TRX file of the results.
    /// </summary>
    /// <param name="project">The project's folder.</param>
    /// <param name="configuration">Release or Debug.</param>
    /// <param name="environment">Variables beyond <see cref="Environment"/> (update mode, CI), or <see langword="null"/>.</param>
    /// <param name="arguments">More arguments (a filter, <c>--no-build</c>).</param>
    /// <returns>What it printed and the TRX results.</returns>
    public Task<(DotNet.Run Run, IReadOnlyList<TrxResult> Results)> TestAsync(string project, string configuration, IReadOnlyDictionary<string, string>? environment = null, params string[] arguments) =>
        TestAsync(project, configuration, ["--logger", "console;verbosity=detailed"], environment, arguments);

    /// <summary>
    /// As <see cref="TestAsync(string, string, IReadOnlyDictionary{string, string}?, string[])"/>, at the console's default
    /// (minimal) verbosity, as a user's plain <c>dotnet test</c> prints; each test's own output is in the results' Output.
    /// </summary>
    public Task<(DotNet.Run Run, IReadOnlyList<TrxResult> Results)> TestAtDefaultVerbosityAsync(string project, string configuration, IReadOnlyDictionary<string, string>? environment = null, params string[] arguments) =>
        TestAsync(project, configuration, [], environment, arguments);

    private async Task<(DotNet.Run Run, IReadOnlyList<TrxResult> Results)> TestAsync(string project, string configuration, string[] console, IReadOnlyDictionary<string, string>? environment, string[] arguments)
    {
        string results = Path.Combine(project, "TestResults-" + configuration);
        var variables = new Dictionary<string, string>(Environment);
        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
            variables[name] = value;
        DotNet.Run run = await DotNet.RunAsync(project, variables, TimeSpan.FromMinutes(5),
            ["test", "-c", configuration, .. console, "--logger", "trx;LogFileName=results.trx", "--results-directory", results, .. arguments]);
        string trx = Path.Combine(results, "results.trx");
        if (!File.Exists(trx))
            throw new InvalidOperationException($"'{run.Command}' wrote no {trx} (exit code {run.ExitCode}):\n{run.Output}");
        return (run, TrxResult.Read(trx));
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        await TemplateBuilds.WhenEnded();
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (IOException)
        {
            // A folder under /tmp left behind is not worth failing a run for.
        }
    }

    private static string FindRepositoryRoot()
    {
        for (DirectoryInfo? dir = new(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Picollo.sln")))
                return dir.FullName;
        }

        throw new InvalidOperationException($"No Picollo.sln above {AppContext.BaseDirectory}: these tests run from the repository's build output.");
    }

    [GeneratedRegex(@"^Picollo\.Templates\.(.+)\.nupkg$")]
    private static partial Regex VersionOf();
}
