using System.Diagnostics;
using System.IO.Compression;
using System.Xml.Linq;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// The repository metadata comes from the git remote (the SDK's SourceLink): a clone with a remote packs its URL and
/// commit, and the browsable form of it is the project page; the feed's packages, packed from wherever the tests run, pack with or without one.
/// </summary>
public sealed class RepositoryMetadataTests(PackageFeed feed)
{
    [Fact]
    public async Task AClonesRemote_IsThePackagesRepositoryAndProjectUrl_WithTheCommit()
    {
        // A copy of the working tree (tracked and new files, not ignored ones) committed into a fresh repository with a
        // remote: the files as they are now, not as last committed.
        string clone = Path.Combine(feed.Root, "clone");
        string[] files = Git(feed.RepositoryRoot, "ls-files", "--cached", "--others", "--exclude-standard", "-z").Split('\0', StringSplitOptions.RemoveEmptyEntries);
        foreach (string file in files.Where(f => File.Exists(Path.Combine(feed.RepositoryRoot, f))))
        {
            string target = Path.Combine(clone, file);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(Path.Combine(feed.RepositoryRoot, file), target);
        }

        Git(clone, "init", "--quiet");
        Git(clone, "add", "-A");
        Git(clone, "-c", "user.name=Picollo tests", "-c", "user.email=tests@picollo.invalid", "commit", "--quiet", "-m", "working tree");
        Git(clone, "remote", "add", "origin", "https://github.com/picollo-dev/picollo.git");
        string commit = Git(clone, "rev-parse", "HEAD").Trim();
        string output = Path.Combine(feed.Root, "clone-feed");

        // The templates package: every packable project takes its metadata from the same place (Directory.Build.props and
        // .targets with the SDK's SourceLink), and this one packs in seconds. Picollo's own package built the native helper,
        // the knob generator and the library from nothing in the clone: 49 s of the packaging tests' 2 minutes.
        (await DotNet.RunAsync(clone, PackageFeed.RepositoryEnvironment, TimeSpan.FromMinutes(4), "pack", "templates/Picollo.Templates.csproj", "-c", "Release", "-o", output, "-nologo")).ShouldSucceed();

        XElement metadata = Metadata(Directory.GetFiles(output, "Picollo.Templates.*.nupkg").Single());
        XElement repository = metadata.Elements().Single(static e => e.Name.LocalName == "repository");
        ((string?)repository.Attribute("type")).ShouldBe("git");
        ((string?)repository.Attribute("url")).ShouldBe("https://github.com/picollo-dev/picollo.git");
        ((string?)repository.Attribute("commit")).ShouldBe(commit);
        metadata.Elements().Single(static e => e.Name.LocalName == "projectUrl").Value.ShouldBe("https://github.com/picollo-dev/picollo");
    }

    private static XElement Metadata(string package)
    {
        using ZipArchive zip = ZipFile.OpenRead(package);
        using Stream stream = zip.Entries.Single(static e => e.FullName.EndsWith(".nuspec", StringComparison.Ordinal)).Open();
        return XDocument.Load(stream).Root!.Elements().Single(static e => e.Name.LocalName == "metadata");
    }

    private static string Git(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        using Process git = Process.Start(start)!;
        string output = git.StandardOutput.ReadToEnd();
        string error = git.StandardError.ReadToEnd();
        git.WaitForExit();
        return git.ExitCode == 0 ? output : throw new InvalidOperationException($"git {string.Join(' ', arguments)} exited with {git.ExitCode}: {error}");
    }
}
