using System.Text;

namespace Picollo.Benchmarks;

/// <summary>
/// Owns bench/RESULTS.md: each command rewrites only its own section, delimited by
/// <c>&lt;!-- name:begin --&gt;</c> and <c>&lt;!-- name:end --&gt;</c>, so the sections of other
/// benchmarks survive.
/// </summary>
internal static class ResultsWriter
{
    private const string Header =
        "# Picollo benchmark results\n\n" +
        "Each section between `<!-- name:begin -->` and `<!-- name:end -->` markers is written by one command of\n" +
        "`bench/Picollo.Benchmarks` and rewritten only by it; text outside the markers is kept as is.\n";

    /// <summary>bench/RESULTS.md of the repository the benchmark binary was built from.</summary>
    public static string DefaultPath()
    {
        // bin/Release/net10.0 sits under bench/Picollo.Benchmarks: walk up to the solution.
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Picollo.sln")))
                return Path.Combine(directory.FullName, "bench", "RESULTS.md");
        }

        return Path.Combine(Environment.CurrentDirectory, "RESULTS.md");
    }

    public static void WriteSection(string path, string name, string content)
    {
        string begin = $"<!-- {name}:begin -->";
        string end = $"<!-- {name}:end -->";
        string section = $"{begin}\n{content.TrimEnd('\n')}\n{end}";

        string existing = File.Exists(path) ? File.ReadAllText(path).ReplaceLineEndings("\n") : Header;
        int start = existing.IndexOf(begin, StringComparison.Ordinal);
        int stop = start < 0 ? -1 : existing.IndexOf(end, start, StringComparison.Ordinal);

        var text = new StringBuilder();
        if (start >= 0 && stop >= 0)
        {
            text.Append(existing, 0, start).Append(section).Append(existing, stop + end.Length, existing.Length - stop - end.Length);
        }
        else
        {
            text.Append(existing.TrimEnd('\n')).Append("\n\n").Append(section).Append('\n');
        }

        File.WriteAllText(path, text.ToString());
    }
}
