using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// The text of src/ as a reviewer reads it (issue 28): no line wider than 140 columns (docs/ARCHITECTURE.md, "Style";
/// <c>.editorconfig</c> says the same to editors), and user-facing text in one place per area: a message of 100 characters
/// or more is built by a message builder (a class in a file named <c>*Messages.cs</c>, each kind covered by a golden file,
/// see <see cref="MessageBuilderTests"/>), never written inline in engine or policy code. One case per source folder, so a
/// failure names the folder and each offending line.
/// </summary>
public sealed class SourceTextTests
{
    /// <summary>The widest line allowed, in characters.</summary>
    public const int MaxColumns = 140;

    /// <summary>A message this long (its text, without the interpolated values) belongs in a message builder.</summary>
    public const int LongMessage = 100;

    /// <summary>Every folder under src/ that holds source files, relative to the root.</summary>
    public static TheoryData<string> Folders() =>
        [.. SourceTree.SourceFiles().Select(static f => SourceTree.Relative(Path.GetDirectoryName(f)!)).Distinct().Order(StringComparer.Ordinal)];

    [Theory]
    [MemberData(nameof(Folders))]
    public void Lines_AreAtMost140Columns(string folder)
    {
        string[] offenders = [.. FilesOf(folder).SelectMany(static f => WideLines(File.ReadAllText(f), SourceTree.Relative(f)))];

        offenders.ShouldBeEmpty(
            $"These lines of {folder} are wider than {MaxColumns} columns. Wrap them (a long message goes to the area's *Messages.cs "
            + "builder, split into pieces joined with +):" + Environment.NewLine + string.Join(Environment.NewLine, offenders));
    }

    [Theory]
    [MemberData(nameof(Folders))]
    public void LongMessages_AreBuiltByTheAreasMessageBuilder(string folder)
    {
        string[] offenders = [.. FilesOf(folder)
            .Where(static f => !IsMessageBuilder(f) && !IsGenerator(f))
            .SelectMany(static f => LongMessages(File.ReadAllText(f), SourceTree.Relative(f)))];

        offenders.ShouldBeEmpty(
            $"These messages of {folder} are {LongMessage} characters or longer and written inline. Move each into the area's message "
            + "builder (a static method of a class in a *Messages.cs file, named for the situation, taking the facts it states), "
            + "and add its case to that builder's golden file:" + Environment.NewLine + string.Join(Environment.NewLine, offenders));
    }

    [Fact]
    public void Reader_FindsWideLinesButNotUrls()
    {
        string source = "class C\n{\n    // " + new string('x', MaxColumns) + "\n    // see https://example.org/" + new string('y', MaxColumns)
            + "\n    int _short;\n}\n";

        WideLines(source, "A.cs").ShouldBe([$"A.cs:3: {MaxColumns + 7} columns"]);
    }

    [Fact]
    public void Reader_CountsAMessageSplitIntoPiecesAsOneAndSkipsAttributesAndValues()
    {
        string half = new('m', (LongMessage / 2) + 1);
        string source = $$""""
            class C
            {
                [System.Obsolete("{{half + half}}")]
                string Attribute() => "short";

                string Split(int n) => "{{half}}" +
                    $"{n} {{half}}";

                string Holes(string a) => $"{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}{a}";

                string Raw() => """{{half + half}}""";
            }
            """";

        LongMessages(source, "A.cs").ShouldBe([$"A.cs:6: {2 * half.Length + 1} characters", $"A.cs:11: {2 * half.Length} characters"]);
    }

    private static IEnumerable<string> FilesOf(string folder) =>
        SourceTree.SourceFiles().Where(f => SourceTree.Relative(Path.GetDirectoryName(f)!) == folder);

    private static bool IsMessageBuilder(string file) => Path.GetFileName(file).EndsWith("Messages.cs", StringComparison.Ordinal);

    // The generator's literals are the C# it writes, not text a user reads.
    private static bool IsGenerator(string file) => SourceTree.Relative(file).StartsWith("src/Picollo.Generators/", StringComparison.Ordinal);

    // A URL cannot be wrapped, so a line holding one may be as wide as it needs.
    private static IEnumerable<string> WideLines(string source, string path) =>
        source.ReplaceLineEndings("\n").Split('\n')
            .Select(static (line, index) => (line, index))
            .Where(static l => l.line.Length > MaxColumns && !l.line.Contains("://", StringComparison.Ordinal))
            .Select(l => $"{path}:{l.index + 1}: {l.line.Length} columns");

    /// <summary>
    /// The messages of <paramref name="source"/> whose text is <see cref="LongMessage"/> characters or more: a string literal,
    /// an interpolated string (its text, not its holes), or a chain of them joined with +, counted as one; attribute
    /// arguments are declarations, not messages.
    /// </summary>
    private static IEnumerable<string> LongMessages(string source, string path)
    {
        SyntaxNode root = CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Preview), path).GetRoot();
        var seen = new HashSet<SyntaxNode>();
        foreach (ExpressionSyntax piece in root.DescendantNodes().OfType<ExpressionSyntax>().Where(IsStringPiece))
        {
            ExpressionSyntax message = piece;
            while (message.Parent is BinaryExpressionSyntax { RawKind: (int)SyntaxKind.AddExpression } or ParenthesizedExpressionSyntax)
                message = (ExpressionSyntax)message.Parent;
            if (!seen.Add(message) || message.Ancestors().Any(static a => a is AttributeArgumentSyntax))
                continue;

            int length = message.DescendantNodesAndSelf().OfType<ExpressionSyntax>().Where(IsStringPiece).Sum(TextLength);
            if (length >= LongMessage)
                yield return $"{path}:{message.GetLocation().GetLineSpan().StartLinePosition.Line + 1}: {length} characters";
        }
    }

    private static bool IsStringPiece(ExpressionSyntax expression) =>
        expression is InterpolatedStringExpressionSyntax || expression.IsKind(SyntaxKind.StringLiteralExpression);

    private static int TextLength(ExpressionSyntax piece) => piece switch
    {
        InterpolatedStringExpressionSyntax interpolated => interpolated.Contents.OfType<InterpolatedStringTextSyntax>().Sum(static t => t.TextToken.ValueText.Length),
        LiteralExpressionSyntax literal => literal.Token.ValueText.Length,
        _ => 0,
    };
}
