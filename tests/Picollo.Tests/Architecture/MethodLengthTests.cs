using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// No method in src/ is longer than 60 lines unless a comment says why it must be (issue 28, "Long policy methods"): a
/// long policy method mixes reasons to change, so it is split into named stages, and what stays long (a table, a state
/// machine) says so where a reviewer reads it. The test parses every source file of every project with Roslyn and
/// measures the body of each method, constructor, operator, accessor and local function.
/// </summary>
public sealed class MethodLengthTests
{
    private const int MaxLines = 60;

    // The comment that lets a body be longer; what follows the colon is the reason, and it must not be empty.
    private const string Exemption = "// Longer than 60 lines:";

    [Fact]
    public void NoMethodInSource_IsLongerThan60LinesWithoutItsComment()
    {
        var offenders = new List<string>();
        foreach (string file in SourceTree.SourceFiles())
        {
            string relative = SourceTree.Relative(file);
            offenders.AddRange(LongMethods(File.ReadAllText(file), relative).Where(static m => !m.Exempt).Select(static m => m.ToString()));
        }

        offenders.ShouldBeEmpty(
            $"These bodies span more than {MaxLines} lines with no '{Exemption} <why>' comment above them or as their first line. "
            + "Split them into named stages with one reason to change each, or say why they must be one piece (issue 28):"
            + Environment.NewLine + string.Join(Environment.NewLine, offenders));
    }

    [Fact]
    public void Reader_FindsTheSourceFilesOfEveryProject()
    {
        // The test is only as good as its file list: every project under src/ contributes, and nothing built or generated does.
        string src = Path.Combine(SourceTree.Root, "src");
        string[] files = [.. SourceTree.SourceFiles()];

        foreach (string project in Directory.GetDirectories(src).Where(static d => Directory.EnumerateFiles(d, "*.csproj").Any()))
            files.ShouldContain(f => f.StartsWith(project + Path.DirectorySeparatorChar, StringComparison.Ordinal), $"no source file of {project}");
        files.ShouldNotContain(static f => f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
        files.ShouldContain(static f => f.EndsWith($"{Path.DirectorySeparatorChar}BaselineJudge.cs", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData(MaxLines, false)]
    [InlineData(MaxLines + 1, true)]
    public void Method_IsLongFromItsBodysLineCount(int bodyLines, bool isLong)
    {
        string source = Class($$"""
            void M()
            {
            {{Statements(bodyLines - 2)}}
            }
            """);

        LongMethod[] found = LongMethods(source, "A.cs");

        found.Length.ShouldBe(isLong ? 1 : 0);
        if (isLong)
            found[0].ShouldBe(new LongMethod("A.cs", 3, "M", bodyLines, Exempt: false));
    }

    [Fact]
    public void Comment_AboveTheMethodOrAsItsFirstLine_Exempts()
    {
        string source = Class($$"""
            /// <summary>Documented.</summary>
            // Longer than 60 lines: a table of cases reads best as one piece.
            [System.Obsolete]
            void Above()
            {
            {{Statements(MaxLines)}}
            }

            void First()
            {
                // Longer than 60 lines: a state machine whose states share locals.
            {{Statements(MaxLines)}}
            }
            """);

        LongMethods(source, "A.cs").Select(static m => (m.Name, m.Exempt)).ShouldBe([("Above", true), ("First", true)]);
    }

    [Fact]
    public void Comment_WithoutAReasonOrElsewhere_DoesNotExempt()
    {
        string source = Class($$"""
            // Longer than 60 lines:
            void NoReason()
            {
            {{Statements(MaxLines)}}
            }

            void Later()
            {
                int first = 0;
                // Longer than 60 lines: too late to be read first.
            {{Statements(MaxLines)}}
            }
            """);

        LongMethods(source, "A.cs").Select(static m => (m.Name, m.Exempt)).ShouldBe([("NoReason", false), ("Later", false)]);
    }

    [Fact]
    public void Reader_MeasuresConstructorsAccessorsLocalFunctionsAndExpressionBodies()
    {
        string source = Class($$"""
            C()
            {
            {{Statements(MaxLines)}}
            }

            int P
            {
                get
                {
            {{Statements(MaxLines)}}
                }
            }

            void Outer()
            {
                Local();

                void Local()
                {
            {{Statements(MaxLines)}}
                }
            }

            int Expression() =>
            {{string.Join(" +" + Environment.NewLine, Enumerable.Repeat("    1", MaxLines + 1))}};
            """);

        LongMethods(source, "A.cs").Select(static m => m.Name).ShouldBe(["C", "P.get", "Outer", "Outer.Local", "Expression"]);
    }

    /// <summary>The bodies of <paramref name="source"/> longer than <see cref="MaxLines"/> lines, exempt or not.</summary>
    /// <param name="source">A C# source file's text.</param>
    /// <param name="path">The path reported for it.</param>
    /// <returns>Each long body, in source order.</returns>
    private static LongMethod[] LongMethods(string source, string path)
    {
        SyntaxNode root = CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Preview), path).GetRoot();
        var found = new List<LongMethod>();
        foreach (SyntaxNode node in root.DescendantNodes())
        {
            SyntaxNode? body = node switch
            {
                BaseMethodDeclarationSyntax m => (SyntaxNode?)m.Body ?? m.ExpressionBody,
                AccessorDeclarationSyntax a => (SyntaxNode?)a.Body ?? a.ExpressionBody,
                LocalFunctionStatementSyntax f => (SyntaxNode?)f.Body ?? f.ExpressionBody,
                _ => null,
            };
            if (body is null)
                continue;

            FileLinePositionSpan span = body.GetLocation().GetLineSpan();
            int lines = span.EndLinePosition.Line - span.StartLinePosition.Line + 1;
            if (lines <= MaxLines)
                continue;

            int line = node.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
            found.Add(new LongMethod(path, line, NameOf(node), lines, IsExempt(node, body)));
        }

        return [.. found];
    }

    // The comment counts in the member's leading trivia (with its doc comment, before or after its attributes) or before the
    // first statement of a block body: where a reader looks before reading the body.
    private static bool IsExempt(SyntaxNode member, SyntaxNode body)
    {
        IEnumerable<SyntaxTrivia> above = member.DescendantTokens()
            .TakeWhile(t => t.SpanStart < body.SpanStart)
            .SelectMany(static t => t.LeadingTrivia);
        IEnumerable<SyntaxTrivia> first = body is BlockSyntax block
            ? block.OpenBraceToken.GetNextToken().LeadingTrivia
            : [];
        return above.Concat(first).Any(static t => SourceTree.IsReasonedComment(t, Exemption));
    }

    // "Type.Method" is what a reader searches for; accessors and local functions are named after their member.
    private static string NameOf(SyntaxNode node) => node switch
    {
        MethodDeclarationSyntax m => m.Identifier.Text,
        ConstructorDeclarationSyntax c => c.Identifier.Text,
        DestructorDeclarationSyntax d => "~" + d.Identifier.Text,
        OperatorDeclarationSyntax o => "operator " + o.OperatorToken.Text,
        ConversionOperatorDeclarationSyntax c => "operator " + c.Type,
        AccessorDeclarationSyntax a => (a.Parent?.Parent switch
        {
            PropertyDeclarationSyntax p => p.Identifier.Text,
            EventDeclarationSyntax e => e.Identifier.Text,
            IndexerDeclarationSyntax => "this[]",
            _ => "?",
        }) + "." + a.Keyword.Text,
        LocalFunctionStatementSyntax f => Enclosing(f) + "." + f.Identifier.Text,
        _ => node.Kind().ToString(),
    };

    private static string Enclosing(LocalFunctionStatementSyntax function) =>
        function.Ancestors().FirstOrDefault(static a => a is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax) is { } outer
            ? NameOf(outer)
            : "?";

    private static string Class(string members) =>
        "class C" + Environment.NewLine + "{" + Environment.NewLine + members + Environment.NewLine + "}" + Environment.NewLine;

    private static string Statements(int count) =>
        string.Join(Environment.NewLine, Enumerable.Range(0, count).Select(static i => $"    _ = {i};"));

    private sealed record LongMethod(string File, int Line, string Name, int Lines, bool Exempt)
    {
        public override string ToString() => $"{File}:{Line} {Name}: {Lines} lines";
    }
}
