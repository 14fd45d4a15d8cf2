using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace Picollo.Packaging.Tests;

/// <summary>
/// Turns a <see cref="DocSnippet"/> into a C# file of a perf-test project, the way a reader would paste it (issue 27):
/// <list type="bullet">
/// <item>its <c>using</c> directives go first, in a namespace of its own (two docs may both show a <c>ParserPerf</c>);</item>
/// <item>type declarations are kept as they are;</item>
/// <item>members (an attribute, a modifier or a method signature at the start of a line) go into a class;</item>
/// <item>statements go into a method of that class, after the members, in their order.</item>
/// </list>
/// Each piece is preceded by a <c>#line</c> directive naming the markdown file and line, so the compiler reports an error
/// where the reader sees it.
/// </summary>
public static partial class DocSnippetSource
{
    private enum Kind { Type, Member, Statement }

    /// <summary>The <c>using</c> directives of a block, as written.</summary>
    /// <param name="snippet">The block.</param>
    public static IEnumerable<string> Usings(DocSnippet snippet)
    {
        ArgumentNullException.ThrowIfNull(snippet);
        return snippet.Code.Split('\n').Where(static line => UsingDirective().IsMatch(line)).Select(static line => WithoutComment(line).Trim());
    }

    /// <summary>The C# file for <paramref name="snippet"/>.</summary>
    /// <param name="snippet">The block.</param>
    /// <param name="markdownPath">The markdown file's full path, for the <c>#line</c> directives.</param>
    /// <param name="ns">The namespace the block is compiled in; the example code the docs measure is in its parent.</param>
    /// <param name="pageUsings">
    /// The <c>using</c> directives of the blocks above it on the same page: a reader reads a fragment in the context the
    /// page set up (docs/HISTOGRAMS.md shows <c>using Picollo.Metrics;</c> once, in its first block).
    /// </param>
    public static string Generate(DocSnippet snippet, string markdownPath, string ns, IReadOnlyCollection<string> pageUsings)
    {
        ArgumentNullException.ThrowIfNull(snippet);
        ArgumentNullException.ThrowIfNull(pageUsings);
        string[] lines = snippet.Code.Split('\n');
        string file = markdownPath.Replace("\\", "\\\\", StringComparison.Ordinal);
        var usings = new StringBuilder();
        var types = new StringBuilder();
        var members = new StringBuilder();
        var statements = new StringBuilder();

        int i = 0;
        while (i < lines.Length)
        {
            if (UsingDirective().IsMatch(lines[i]))
            {
                usings.Append(CultureInfo.InvariantCulture, $"#line {snippet.Line + i} \"{file}\"\n{lines[i]}\n");
                i++;
                continue;
            }

            // One top-level item: leading comments, blank lines and attributes, then lines until the braces close and the
            // line ends a statement or a body.
            int start = i;
            Kind? kind = null;
            int depth = 0;
            for (; i < lines.Length; i++)
            {
                string code = WithoutComment(lines[i]).Trim();
                if (kind is null && (code.Length == 0 || code.StartsWith('[')))
                    continue;
                kind ??= Classify(code);
                depth += code.Count(static c => c == '{') - code.Count(static c => c == '}');
                if (depth <= 0 && (code.EndsWith(';') || code.EndsWith('}')))
                {
                    i++;
                    break;
                }
            }

            StringBuilder target = kind switch { Kind.Type => types, Kind.Member => members, _ => statements };
            target.Append(CultureInfo.InvariantCulture, $"#line {snippet.Line + start} \"{file}\"\n");
            foreach (string line in lines[start..i])
                target.Append(kind == Kind.Type ? "" : "        ").Append(line).Append('\n');
        }

        var source = new StringBuilder();
        source.Append(CultureInfo.InvariantCulture, $"// {snippet.Location}, compiled by DocSampleTests (issue 27).\n");
        foreach (string inherited in pageUsings.Where(u => !snippet.Code.Contains(u, StringComparison.Ordinal)))
            source.Append(inherited).Append('\n');
        source.Append(usings).Append("#line default\n");
        source.Append(CultureInfo.InvariantCulture, $"namespace {ns};\n\n");
        source.Append(types).Append("#line default\n");
        if (members.Length > 0 || statements.Length > 0)
        {
            // Not sealed and not static: a member block may hold test methods, which xunit and NUnit instantiate.
            source.Append("\npublic class Snippet\n{\n");
            // The given names, at the marker's line (the line before the fence): an unknown type there is the marker's fault.
            if (snippet.Given.Count > 0)
                source.Append(CultureInfo.InvariantCulture, $"#line {snippet.Line - 2} \"{file}\"\n");
            foreach (string given in snippet.Given)
                source.Append(CultureInfo.InvariantCulture, $"    private {given} = default!;\n");
            source.Append(members).Append("#line default\n");
            if (statements.Length > 0)
                source.Append("    internal void Statements()\n    {\n").Append(statements).Append("#line default\n    }\n");
            source.Append("}\n");
        }

        return source.ToString();
    }

    private static Kind Classify(string code)
    {
        if (TypeDeclaration().IsMatch(code))
            return Kind.Type;
        if (MemberModifier().IsMatch(code))
            return Kind.Member;
        Match signature = MethodSignature().Match(code);
        return signature.Success && !StatementKeyword().IsMatch(code) && (!code.EndsWith(';') || code.Contains("=>", StringComparison.Ordinal))
            ? Kind.Member
            : Kind.Statement;
    }

    // The code of a line without its // comment (a // inside a string literal is not one).
    private static string WithoutComment(string line)
    {
        bool inString = false;
        for (int i = 0; i < line.Length; i++)
        {
            if (line[i] == '"' && (i == 0 || line[i - 1] != '\\'))
                inString = !inString;
            else if (!inString && line[i] == '/' && i + 1 < line.Length && line[i + 1] == '/')
                return line[..i];
        }

        return line;
    }

    [GeneratedRegex(@"^using\s+(static\s+)?[\w.]+(\s*=\s*[\w.<>, ]+)?;\s*(//.*)?$")]
    private static partial Regex UsingDirective();

    [GeneratedRegex(@"^((public|internal|private|protected|static|sealed|abstract|partial|readonly|file|unsafe|ref)\s+)*(class|struct|interface|enum|record)\b")]
    private static partial Regex TypeDeclaration();

    [GeneratedRegex(@"^(public|private|protected|internal|static|readonly|const|override|virtual|async|extern|unsafe|volatile|required)\b")]
    private static partial Regex MemberModifier();

    // "Document Handle(Request request)": a type, a name and a parameter list with nothing assigned before it.
    [GeneratedRegex(@"^[\w.<>\[\],? ]+?\s+\w+\s*\(")]
    private static partial Regex MethodSignature();

    [GeneratedRegex(@"^(return|using|foreach|for|while|if|switch|lock|fixed|var|await|throw|yield|new|else|do|try|checked|unchecked)\b")]
    private static partial Regex StatementKeyword();
}
