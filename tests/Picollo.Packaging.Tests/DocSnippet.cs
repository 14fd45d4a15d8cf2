using System.Text.RegularExpressions;

namespace Picollo.Packaging.Tests;

/// <summary>
/// One <c>```csharp</c> block of a markdown file, with the <c>&lt;!-- snippet: ... --&gt;</c> marker on the line before
/// its fence, if any (issue 27, "Docs that compile"):
/// <list type="bullet">
/// <item><c>&lt;!-- snippet: given PerfContext perf, string input --&gt;</c>: the names a fragment takes from the text
/// around it, declared as fields of the class the block is compiled in, so the rest of the block is still checked.</item>
/// <item><c>&lt;!-- snippet: not compiled: the reason --&gt;</c>: left out, with the reason; kept for the few blocks that
/// need what a perf-test project does not have.</item>
/// </list>
/// </summary>
/// <param name="File">The markdown file, relative to the repository's root, with forward slashes.</param>
/// <param name="Line">The 1-based line of the block's first line of code in that file.</param>
/// <param name="Code">The block's code, lines joined with <c>\n</c>.</param>
/// <param name="Given">The declarations of a <c>given</c> marker, e.g. <c>["PerfContext perf", "string input"]</c>.</param>
/// <param name="NotCompiledBecause">The reason of a <c>not compiled</c> marker, else <see langword="null"/>.</param>
public sealed partial record DocSnippet(string File, int Line, string Code, IReadOnlyList<string> Given, string? NotCompiledBecause)
{
    /// <summary>Where the block is, as an editor's link reads it: <c>docs/TESTING.md:40</c>.</summary>
    public string Location => $"{File}:{Line}";

    /// <summary>Whether the block is for NUnit (its attributes or namespace); the others compile in an xunit project.</summary>
    public bool IsNUnit => Code.Contains("PerfTest", StringComparison.Ordinal) || Code.Contains("NUnit", StringComparison.Ordinal);

    /// <summary>Every <c>```csharp</c> block of one markdown file.</summary>
    /// <param name="repositoryRoot">The repository's root.</param>
    /// <param name="relativePath">The markdown file, relative to <paramref name="repositoryRoot"/>.</param>
    public static IReadOnlyList<DocSnippet> Read(string repositoryRoot, string relativePath) =>
        Parse(relativePath.Replace('\\', '/'), System.IO.File.ReadAllLines(Path.Combine(repositoryRoot, relativePath)));

    /// <summary>Every <c>```csharp</c> block of markdown text.</summary>
    /// <param name="file">The name the blocks are reported under.</param>
    /// <param name="lines">The markdown's lines.</param>
    public static IReadOnlyList<DocSnippet> Parse(string file, IReadOnlyList<string> lines)
    {
        var snippets = new List<DocSnippet>();
        for (int i = 0; i < lines.Count; i++)
        {
            if (lines[i].Trim() is not ("```csharp" or "```cs" or "```c#"))
                continue;

            // A block in a list item is indented with its item: the code is the block without that indentation.
            int indent = lines[i].Length - lines[i].TrimStart().Length;
            int start = i + 1;
            int end = start;
            while (end < lines.Count && lines[end].Trim() != "```")
                end++;
            if (end == lines.Count)
                throw new InvalidOperationException($"{file}:{i + 1}: the ```csharp block is not closed: end it with a line of ``` (the docs-compile test reads every block).");

            Match marker = i > 0 ? Marker().Match(lines[i - 1]) : Match.Empty;
            string? given = marker.Success && marker.Groups["kind"].Value == "given" ? marker.Groups["text"].Value : null;
            string? notCompiled = marker.Success && marker.Groups["kind"].Value == "not compiled" ? marker.Groups["text"].Value.Trim() : null;
            if (i > 0 && lines[i - 1].Contains("<!-- snippet", StringComparison.Ordinal) && !marker.Success)
                throw new InvalidOperationException($"{file}:{i}: '{lines[i - 1].Trim()}' is not a snippet marker the docs-compile test knows: write <!-- snippet: given Type name, Type name --> or <!-- snippet: not compiled: the reason -->.");

            snippets.Add(new DocSnippet(file, start + 1, string.Join('\n', lines.Skip(start).Take(end - start).Select(line => line[Math.Min(indent, line.Length - line.TrimStart().Length)..])), SplitDeclarations(given), notCompiled));
            i = end;
        }

        return snippets;
    }

    // "Func<int, ulong> f, string s" -> ["Func<int, ulong> f", "string s"]: commas inside <...> belong to a type.
    private static string[] SplitDeclarations(string? given)
    {
        if (string.IsNullOrWhiteSpace(given))
            return [];
        var declarations = new List<string>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < given.Length; i++)
        {
            depth += given[i] switch { '<' or '(' => 1, '>' or ')' => -1, _ => 0 };
            if (given[i] == ',' && depth == 0)
            {
                declarations.Add(given[from..i].Trim());
                from = i + 1;
            }
        }

        declarations.Add(given[from..].Trim());
        return [.. declarations];
    }

    [GeneratedRegex(@"^\s*<!--\s*snippet:\s*(?<kind>given|not compiled)\s*:?\s*(?<text>.*?)\s*-->\s*$")]
    private static partial Regex Marker();
}
