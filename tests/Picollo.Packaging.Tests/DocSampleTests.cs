using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace Picollo.Packaging.Tests;

/// <summary>
/// Every C# block of the repository's markdown compiled as a reader pastes it (issue 27, "Docs that compile"): the NUnit
/// blocks in a project made by <c>dotnet new picollo-nunit</c>, the others in one made by <c>picollo-xunit</c>, against
/// the packed packages, each block a file of its own (<see cref="DocSnippetSource"/> says how fragments are wrapped), one
/// build per project. A failure names each block by file and line, with the compiler's errors at the markdown's lines.
/// </summary>
public sealed partial class DocSampleTests(PackageFeed feed)
{
    // The markdown a user reads: the front page, the guides, the packages' and the templates' pages.
    private static readonly string[] s_patterns = ["README.md", "docs/*.md", "src/*/README.md", "templates/README.md", "samples/*/README.md"];

    // A block left out must say why; this many at most, so the docs keep compiling as shown.
    private const int MostNotCompiled = 2;

    [Fact]
    public async Task EveryCSharpBlockOfTheDocs_CompilesInATemplatedProject()
    {
        List<DocSnippet> snippets = [.. MarkdownFiles(feed.RepositoryRoot).SelectMany(file => DocSnippet.Read(feed.RepositoryRoot, file))];
        snippets.Count(static s => s.IsNUnit).ShouldBeGreaterThan(0, "the NUnit page has C# blocks: the extraction is broken");
        List<DocSnippet> notCompiled = [.. snippets.Where(static s => s.NotCompiledBecause is not null)];
        notCompiled.Count.ShouldBeLessThanOrEqualTo(MostNotCompiled,
            "blocks marked '<!-- snippet: not compiled -->': " + string.Join("; ", notCompiled.Select(static s => $"{s.Location} ({s.NotCompiledBecause})")) +
            ". Make the block compile as shown, or declare what it takes from the text around it with '<!-- snippet: given Type name -->'.");
        foreach (DocSnippet skipped in notCompiled)
            TestContext.Current.TestOutputHelper?.WriteLine($"Not compiled: {skipped.Location}: {skipped.NotCompiledBecause}");

        var failures = new StringBuilder();
        foreach (IGrouping<bool, DocSnippet> framework in snippets.Where(static s => s.NotCompiledBecause is null).GroupBy(static s => s.IsNUnit))
        {
            List<DocSnippet> blocks = [.. framework];
            failures.Append(await BuildAsync(framework.Key ? "picollo-nunit" : "picollo-xunit", blocks, snippets));
            TestContext.Current.TestOutputHelper?.WriteLine($"{(framework.Key ? "picollo-nunit" : "picollo-xunit")}: {blocks.Count} blocks in one project.");
        }

        if (failures.Length > 0)
            throw new ShouldAssertException("C# blocks of the docs that do not compile in a project made by their template (each block is a file; '<!-- snippet: given Type name -->' before a fragment declares what it takes from the text around it):\n" + failures);
    }

    // Creates the project, writes one file per block, builds, and returns the failures, block by block ("" when it built).
    private async Task<string> BuildAsync(string template, List<DocSnippet> blocks, List<DocSnippet> snippets)
    {
        string project = await feed.CreateProjectAsync(template, "Docs.Samples");
        File.Copy(Path.Combine(AppContext.BaseDirectory, "DocSamples", "ExampleCode.cs"), Path.Combine(project, "ExampleCode.cs"));
        foreach (DocSnippet block in blocks)
        {
            string name = Identifier().Replace($"{block.File}_L{block.Line}", "_");
            string[] pageUsings = [.. snippets.TakeWhile(s => s != block).Where(s => s.File == block.File && s.IsNUnit == block.IsNUnit && s.NotCompiledBecause is null).SelectMany(DocSnippetSource.Usings).Distinct()];
            string source = DocSnippetSource.Generate(block, Path.Combine(feed.RepositoryRoot, block.File), "DocSamples." + name, pageUsings);
            await File.WriteAllTextAsync(Path.Combine(project, name + ".cs"), source, TestContext.Current.CancellationToken);
        }

        DotNet.Run run = await feed.BuildAsync(project, "Release");
        List<Diagnostic> diagnostics = [.. run.Output.Split('\n').Select(Diagnostic.Parse).OfType<Diagnostic>().Distinct()];
        var failures = new StringBuilder();
        foreach (DocSnippet block in blocks)
        {
            string path = Path.Combine(feed.RepositoryRoot, block.File);
            int lines = block.Code.Split('\n').Length;
            List<Diagnostic> own = [.. diagnostics.Where(d => d.File == path && d.Line >= block.Line && d.Line < block.Line + lines)];
            if (own.Count == 0)
                continue;
            failures.Append(CultureInfo.InvariantCulture, $"{block.Location}:\n");
            foreach (Diagnostic d in own)
                failures.Append(CultureInfo.InvariantCulture, $"  {block.File}:{d.Line}:{d.Column}: {d.Severity} {d.Code}: {d.Message}\n");
        }

        // A diagnostic outside every block (the wrapping, the example code) is this test's own fault: show it all.
        if (run.ExitCode != 0 && failures.Length == 0)
            failures.Append(CultureInfo.InvariantCulture, $"'{run.Command}' in {project} failed outside the docs' blocks:\n{run.Output}");
        return failures.ToString();
    }

    private static IEnumerable<string> MarkdownFiles(string root) =>
        Directory.EnumerateFiles(root, "*.md", SearchOption.AllDirectories)
            .Select(file => Path.GetRelativePath(root, file).Replace('\\', '/'))
            .Where(static file => s_patterns.Any(pattern => Glob(pattern).IsMatch(file)))
            .Order(StringComparer.Ordinal);

    // "docs/*.md" -> ^docs/[^/]+\.md$
    private static Regex Glob(string pattern) =>
        new("^" + Regex.Escape(pattern).Replace(@"\*", "[^/]+", StringComparison.Ordinal) + "$", RegexOptions.CultureInvariant);

    [GeneratedRegex(@"[^A-Za-z0-9_]")]
    private static partial Regex Identifier();

    // One compiler diagnostic as MSBuild prints it: "path(line,col): error CS0246: message [project]".
    private sealed partial record Diagnostic(string File, int Line, int Column, string Severity, string Code, string Message)
    {
        public static Diagnostic? Parse(string line)
        {
            Match m = Pattern().Match(line.TrimEnd('\r'));
            return m.Success
                ? new Diagnostic(m.Groups["file"].Value.Trim(), int.Parse(m.Groups["line"].Value, CultureInfo.InvariantCulture), int.Parse(m.Groups["col"].Value, CultureInfo.InvariantCulture),
                    m.Groups["sev"].Value, m.Groups["code"].Value, m.Groups["msg"].Value)
                : null;
        }

        [GeneratedRegex(@"^(?<file>[^(]+)\((?<line>\d+),(?<col>\d+)\): (?<sev>error|warning) (?<code>\w+): (?<msg>.*?)(?: \[[^\]]+\])?$")]
        private static partial Regex Pattern();
    }
}
