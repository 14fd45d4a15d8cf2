using System.Runtime.CompilerServices;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Docs;

/// <summary>
/// The A/B idea has one vocabulary (docs/ARCHITECTURE.md, "Vocabulary: A/B"): compare for what the user asks, paired for
/// how the two sides are measured, ab for the command's own code. The old name of the pairing stays out of the code and
/// out of the docs that describe it.
/// </summary>
public sealed class VocabularyTests
{
    private static readonly string[] s_docs = ["README.md", "docs/ARCHITECTURE.md", "docs/TESTING.md", "docs/VERDICTS.md"];

    private static readonly string[] s_code = ["src", "tests"];

    [Fact]
    public void NoCode_UsesTheOldNameOfThePairing()
    {
        string root = RepositoryRoot();
        string[] hits = [.. s_code
            .SelectMany(f => Directory.EnumerateFiles(Path.Combine(root, f), "*.cs", SearchOption.AllDirectories))
            .Where(static f => !f.Contains("/bin/", StringComparison.Ordinal) && !f.Contains("/obj/", StringComparison.Ordinal))
            .Where(f => File.ReadAllText(f).Contains("SideBy" + "Side", StringComparison.Ordinal))
            .Select(f => Path.GetRelativePath(root, f))];

        hits.ShouldBeEmpty("the two sides of an A/B are measured in pairs: Paired* (docs/ARCHITECTURE.md, \"Vocabulary: A/B\")");
    }

    [Fact]
    public void TheDocs_SayInPairs()
    {
        string root = RepositoryRoot();
        var hits = new List<string>();
        foreach (string doc in s_docs)
        {
            string[] lines = File.ReadAllLines(Path.Combine(root, doc));
            for (int i = 0; i < lines.Length; i++)
            {
                if (lines[i].Contains("side by side", StringComparison.OrdinalIgnoreCase)
                    || lines[i].Contains("side-by-side", StringComparison.OrdinalIgnoreCase))
                    hits.Add($"{doc}:{i + 1}: {lines[i].Trim()}");
            }
        }

        hits.ShouldBeEmpty("say in pairs, paired or compared (docs/ARCHITECTURE.md, \"Vocabulary: A/B\")");
    }

    private static string RepositoryRoot([CallerFilePath] string here = "") =>
        Path.GetFullPath(Path.Combine(Path.GetDirectoryName(here)!, "..", "..", ".."));
}
