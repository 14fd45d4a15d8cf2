using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Docs;

/// <summary>
/// What a user reads never points at this repository's issue tracker: the README and docs/, the packages' READMEs, every
/// file a template writes, the XML documentation that ships in the packages (IntelliSense shows it), the code the knob
/// generator writes into a user's build, and every message the approved-message files hold. Maintainers' notes
/// (bench/RESULTS.md, <c>//</c> comments in src/) may cite issues.
/// </summary>
public sealed partial class NoTrackerReferencesTests
{
    [Fact]
    public void NothingAUserReads_NamesAnIssueNumber()
    {
        string root = RepositoryRoot();
        var hits = new List<string>();
        foreach (string file in UserFacingFiles(root))
        {
            string[] lines = File.ReadAllLines(file);
            bool source = file.EndsWith(".cs", StringComparison.Ordinal) && !file.Contains("/templates/", StringComparison.Ordinal);
            for (int i = 0; i < lines.Length; i++)
            {
                // In src/, only what leaves the repository: XML docs (///) and the generator's header, which it writes
                // into the user's build.
                if (source && !lines[i].TrimStart().StartsWith("///", StringComparison.Ordinal) && !lines[i].Contains("auto-generated", StringComparison.Ordinal))
                    continue;
                if (IssueNumber().IsMatch(lines[i]))
                    hits.Add($"{Path.GetRelativePath(root, file)}:{i + 1}: {lines[i].Trim()}");
            }
        }

        hits.ShouldBeEmpty("say what the reference was for in words or point into docs/; the tracker is ours, not the user's");
    }

    [Fact]
    public void TheScan_SeesTheFilesItClaims()
    {
        // A scan that found no file would pass for nothing.
        string[] files = [.. UserFacingFiles(RepositoryRoot()).Select(f => Path.GetRelativePath(RepositoryRoot(), f))];
        files.ShouldContain("README.md");
        files.ShouldContain("docs/VERDICTS.md");
        files.ShouldContain("templates/content/picollo-xunit/PicolloPerfTests.csproj");
        files.ShouldContain("src/Picollo.Generators/PerfKnobGenerator.cs");
        files.ShouldContain(f => f.StartsWith("tests/Picollo.Tests/Cli/Approved/", StringComparison.Ordinal));
        IssueNumber().IsMatch("as decided in issue 27").ShouldBeTrue();
        IssueNumber().IsMatch("(issues 25 and 26)").ShouldBeTrue();
        IssueNumber().IsMatch("an issue of yours: 3 tests").ShouldBeFalse();
    }

    private static IEnumerable<string> UserFacingFiles(string root)
    {
        string[] folders = ["docs", "templates/content", "src", "tests"];
        IEnumerable<string> files = folders.SelectMany(f => Directory.EnumerateFiles(Path.Combine(root, f), "*", SearchOption.AllDirectories))
            .Where(static f => !f.Contains("/bin/", StringComparison.Ordinal) && !f.Contains("/obj/", StringComparison.Ordinal))
            .Where(f => IsUserFacing(Path.GetRelativePath(root, f).Replace('\\', '/')));
        return files.Prepend(Path.Combine(root, "README.md"));
    }

    private static bool IsUserFacing(string path) =>
        path.StartsWith("docs/", StringComparison.Ordinal)
        || path.StartsWith("templates/content/", StringComparison.Ordinal)
        || (path.StartsWith("src/", StringComparison.Ordinal) && (path.EndsWith("/README.md", StringComparison.Ordinal) || path.EndsWith(".cs", StringComparison.Ordinal)))
        || (path.StartsWith("tests/", StringComparison.Ordinal) && path.Contains("/Approved/", StringComparison.Ordinal));

    private static string RepositoryRoot([CallerFilePath] string here = "") => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", ".."));

    [GeneratedRegex(@"\b[Ii]ssues? #?\d+")]
    private static partial Regex IssueNumber();
}
