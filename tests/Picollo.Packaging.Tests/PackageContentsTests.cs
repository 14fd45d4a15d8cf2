using System.IO.Compression;
using System.Runtime.InteropServices;
using System.Xml.Linq;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>What the packed packages hold: the metadata a package page shows, the dependencies, the files that set a test project up.</summary>
public sealed class PackageContentsTests(PackageFeed feed)
{
    [Fact]
    public void EveryPackage_HasOneVersion_ALicense_AReadme_AndTags()
    {
        string[] packages = Directory.GetFiles(feed.Feed, "*.nupkg");
        packages.Select(p => Path.GetFileName(p).Replace($".{feed.Version}.nupkg", "", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .ShouldBe(["Picollo", "Picollo.Templates", "Picollo.Testing.NUnit", "Picollo.Testing.Xunit", "Picollo.Tool"]);
        feed.Version.ShouldStartWith("0.", customMessage: "pre-1.0 while the API settles");

        foreach (string package in packages)
        {
            XElement metadata = Nuspec(package);
            string id = Value(metadata, "id");
            Value(metadata, "version").ShouldBe(feed.Version, id);
            Value(metadata, "license").ShouldBe("MIT", id);
            Value(metadata, "readme").ShouldBe("README.md", id);
            Value(metadata, "tags").ShouldContain("performance", Case.Sensitive, id);
            Value(metadata, "description").Length.ShouldBeGreaterThan(80, id);
            Entries(package).ShouldContain("README.md", id);
        }
    }

    [Fact]
    public void Adapters_DependOnPicolloAndTheirFramework_AtTheTestedRanges()
    {
        Dependencies("Picollo.Testing.Xunit").ShouldBe(new Dictionary<string, string>
        {
            ["Picollo"] = feed.Version,
            ["xunit.v3.extensibility.core"] = "[3.2.2, 4.0.0)",
        }, ignoreOrder: true);
        Dependencies("Picollo.Testing.NUnit").ShouldBe(new Dictionary<string, string>
        {
            ["Picollo"] = feed.Version,
            ["NUnit"] = "[4.4.0, 5.0.0)",
        }, ignoreOrder: true);
        Dependencies("Picollo").ShouldBeEmpty();
    }

    [Fact]
    public void Adapters_CarryTheProjectSetup_AsBuildTransitiveFiles()
    {
        foreach (string id in new[] { "Picollo.Testing.Xunit", "Picollo.Testing.NUnit" })
        {
            IReadOnlyList<string> entries = Entries(Package(id));
            entries.ShouldContain($"buildTransitive/{id}.props");
            entries.ShouldContain($"buildTransitive/{id}.targets");
            entries.ShouldContain("buildTransitive/Picollo.Testing.props");
            entries.ShouldContain("buildTransitive/Picollo.Testing.targets");
        }
    }

    [Fact]
    public void Picollo_CarriesTheNativeHelper_ForLinuxX64()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux() && RuntimeInformation.OSArchitecture == Architecture.X64,
            "the native helper is built with gcc on Linux x64 only; elsewhere the package has none and reports the counters that need it unavailable");
        Entries(Package("Picollo")).ShouldContain("runtimes/linux-x64/native/libpicollo_native.so");
        Entries(Package("Picollo")).ShouldContain("lib/net10.0/Picollo.dll");
        Entries(Package("Picollo")).ShouldContain("lib/net10.0/Picollo.xml");
    }

    [Fact]
    public void Templates_HoldBothProjectsAndTheWorkflow_WithThePackedVersion_AndTheBaselineFileLines()
    {
        IReadOnlyList<string> entries = Entries(Package("Picollo.Templates"));
        foreach (string template in new[] { "picollo-xunit", "picollo-nunit" })
        {
            entries.ShouldContain($"content/{template}/.template.config/template.json");
            entries.ShouldContain($"content/{template}/.gitignore");
            entries.ShouldContain($"content/{template}/.gitattributes");
            entries.ShouldContain($"content/{template}/ChecksumPerf.cs");
            string project = Read(Package("Picollo.Templates"), $"content/{template}/PicolloPerfTests.csproj");
            project.ShouldContain($"Version=\"{feed.Version}\"");
            project.ShouldNotContain("PICOLLO_VERSION");
            Read(Package("Picollo.Templates"), $"content/{template}/.gitignore").ShouldContain("*.received.perf.json");
            Read(Package("Picollo.Templates"), $"content/{template}/.gitattributes").ShouldContain("*.perf.json text eol=lf");
        }

        entries.ShouldContain("content/picollo-workflow/.template.config/template.json");
        entries.ShouldContain("content/picollo-workflow/.github/workflows/perf-tests.yml");
    }

    private string Package(string id) => Path.Combine(feed.Feed, $"{id}.{feed.Version}.nupkg");

    private Dictionary<string, string> Dependencies(string id) =>
        Nuspec(Package(id)).Descendants().Where(static e => e.Name.LocalName == "dependency")
            .ToDictionary(static d => (string)d.Attribute("id")!, static d => (string)d.Attribute("version")!);

    private static XElement Nuspec(string package)
    {
        using ZipArchive zip = ZipFile.OpenRead(package);
        ZipArchiveEntry nuspec = zip.Entries.Single(static e => e.FullName.EndsWith(".nuspec", StringComparison.Ordinal) && !e.FullName.Contains('/', StringComparison.Ordinal));
        using Stream stream = nuspec.Open();
        return XDocument.Load(stream).Root!.Elements().Single(static e => e.Name.LocalName == "metadata");
    }

    private static string Value(XElement metadata, string name) =>
        metadata.Elements().SingleOrDefault(e => e.Name.LocalName == name)?.Value ?? throw new ShouldAssertException($"The nuspec has no <{name}>.");

    private static List<string> Entries(string package)
    {
        using ZipArchive zip = ZipFile.OpenRead(package);
        return [.. zip.Entries.Select(static e => e.FullName)];
    }

    private static string Read(string package, string entry)
    {
        using ZipArchive zip = ZipFile.OpenRead(package);
        using var reader = new StreamReader(zip.GetEntry(entry)!.Open());
        return reader.ReadToEnd();
    }
}
