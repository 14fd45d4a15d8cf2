using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Architecture;

/// <summary>
/// No type in src/ is longer than 400 lines unless a comment says why it must be (issue 28, beside
/// <see cref="MethodLengthTests"/>): a long type gathers reasons to change that its methods, each short, no longer show, so
/// it is split along them, and what stays long (a catalogue of messages, a state machine) says so where a reviewer reads
/// it. The test parses every source file of every project with Roslyn and measures each class, struct, record, interface
/// and enum.
/// <para>
/// A type's lines are its own: the lines of a type nested inside it (its doc comment with it) are left out, and the nested
/// type is measured on its own. Otherwise a nested type counted twice, and moving it out to a file of its own, which changes
/// nothing a reader has to hold, shrank its container. The declarations of a <c>partial</c> type are summed across files,
/// keyed by namespace, containing types and name: otherwise splitting a type into partial files dodged the rule while a
/// reader still holds one type.
/// </para>
/// </summary>
public sealed class TypeSizeTests
{
    private const int MaxLines = 400;

    // The comment that lets a type be longer; what follows the colon is the reason, and it must not be empty.
    private const string Exemption = "// Longer than 400 lines:";

    [Fact]
    public void NoTypeInSource_IsLongerThan400LinesWithoutItsComment()
    {
        string[] offenders = [.. LargeTypes(SourceFiles())
            .Where(static t => !t.Exempt)
            .Select(static t => t.ToString())];

        offenders.ShouldBeEmpty(
            $"These types span more than {MaxLines} lines of their own (nested types apart, partial declarations summed) with no "
            + $"'{Exemption} <why>' comment above them or as the first line inside their brace. Split them along their reasons to "
            + "change (a nested type moved out, a stage of their work given its own type), or say why they must be one piece "
            + "(issue 28):"
            + Environment.NewLine + string.Join(Environment.NewLine, offenders));
    }

    [Fact]
    public void Reader_MeasuresTheTypesOfTheSourceTree()
    {
        // The test is only as good as its reader: these types are known to be in src/ and of some size.
        LargeType[] all = LargeTypes(SourceFiles(), minLines: 1);

        all.ShouldContain(static t => t.Name == "BaselineStore" && t.File == "src/Picollo/Baselines/Judging/BaselineStore.cs");
        all.Length.ShouldBeGreaterThan(100);
    }

    [Theory]
    [InlineData(MaxLines, false)]
    [InlineData(MaxLines + 1, true)]
    public void Type_IsLargeFromItsLineCount(int lines, bool isLarge)
    {
        string source = "namespace N;" + Environment.NewLine + Environment.NewLine + Class("class C", lines);

        LargeType[] found = LargeTypes([(source, "A.cs")]);

        found.Length.ShouldBe(isLarge ? 1 : 0);
        if (isLarge)
            found[0].ShouldBe(new LargeType("A.cs", 3, "C", lines, Exempt: false));
    }

    [Fact]
    public void Comment_AboveTheTypeOrAsTheFirstLineInside_Exempts()
    {
        string source = $$"""
            /// <summary>Documented.</summary>
            // Longer than 400 lines: a catalogue of messages reads best as one piece.
            [System.Obsolete]
            public sealed class Above
            {
            {{Fields(MaxLines)}}
            }

            [System.Obsolete]
            // Longer than 400 lines: after the attributes, still above.
            struct AfterAttributes
            {
            {{Fields(MaxLines)}}
            }

            enum First
            {
                // Longer than 400 lines: a table of values.
            {{string.Join(Environment.NewLine, Enumerable.Range(0, MaxLines).Select(static i => $"    V{i},"))}}
            }
            """;

        LargeTypes([(source, "A.cs")]).Select(static t => (t.Name, t.Exempt))
            .ShouldBe([("Above", true), ("AfterAttributes", true), ("First", true)]);
    }

    [Fact]
    public void Comment_WithoutAReasonOrElsewhere_DoesNotExempt()
    {
        string source = $$"""
            // Longer than 400 lines:
            class NoReason
            {
            {{Fields(MaxLines)}}
            }

            interface Later
            {
                int First { get; }
                // Longer than 400 lines: too late to be read first.
            {{string.Join(Environment.NewLine, Enumerable.Range(0, MaxLines).Select(static i => $"    int P{i} {{ get; }}"))}}
            }
            """;

        LargeTypes([(source, "A.cs")]).Select(static t => (t.Name, t.Exempt)).ShouldBe([("NoReason", false), ("Later", false)]);
    }

    [Fact]
    public void NestedType_IsMeasuredOnItsOwn_AndNotInItsContainer()
    {
        // The container's own lines are its header, its braces and its 300 fields: 303. The nested record's 303 lines, with
        // its doc comment and the blank line above it, are its own, so neither is over. A nested class of 401 lines is, alone,
        // named after its container.
        string source = $$"""
            class Outer
            {
            {{Fields(300)}}

                /// <summary>Nested.</summary>
                record Inner
                {
            {{Fields(300)}}
                }
            }

            class Holder
            {
                class Big
                {
            {{Fields(MaxLines - 2)}}
                }
            }
            """;

        LargeTypes([(source, "A.cs")], minLines: 1).Select(static t => (t.Name, t.Lines))
            .ShouldBe([("Outer", 303), ("Outer.Inner", 303), ("Holder", 3), ("Holder.Big", MaxLines + 1)]);
        LargeTypes([(source, "A.cs")]).ShouldBe([new LargeType("A.cs", 612, "Holder.Big", MaxLines + 1, Exempt: false)]);
    }

    [Fact]
    public void PartialDeclarations_AreSummedAcrossFiles_PerNamespaceAndContainer()
    {
        // 201 + 201 lines of one type in two files are 402; the same name in another namespace or inside another type, and a
        // generic type of the same name, are other types.
        string first = "namespace N;" + Environment.NewLine + Class("partial class P", 201) + Class("partial class Q", 201);
        string second = "namespace N;" + Environment.NewLine + Class("partial class P", 201)
            + "class Outer" + Environment.NewLine + "{" + Environment.NewLine + Class("partial class Q", 201) + "}" + Environment.NewLine
            + Class("partial class P<T>", 201);
        string other = "namespace M" + Environment.NewLine + "{" + Environment.NewLine + Class("partial class Q", 201) + "}"
            + Environment.NewLine;

        LargeType[] found = LargeTypes([(first, "A.cs"), (second, "B.cs"), (other, "C.cs")]);

        found.ShouldBe([new LargeType("A.cs", 2, "P", 402, Exempt: false)]);
    }

    [Fact]
    public void PartialType_IsExemptByTheCommentOnAnyOfItsDeclarations()
    {
        string first = Class("partial class P", 201);
        string second = "// Longer than 400 lines: a state machine whose states share their fields." + Environment.NewLine
            + Class("partial class P", 201);

        LargeTypes([(first, "A.cs"), (second, "B.cs")]).ShouldBe([new LargeType("A.cs", 1, "P", 402, Exempt: true)]);
    }

    private static IEnumerable<(string Source, string Path)> SourceFiles() =>
        SourceTree.SourceFiles().Select(static f => (File.ReadAllText(f), SourceTree.Relative(f)));

    /// <summary>The types of <paramref name="files"/> of at least <paramref name="minLines"/> lines of their own, exempt or not.</summary>
    /// <param name="files">Each C# source file's text and the path reported for it.</param>
    /// <param name="minLines">The smallest size reported; by default, one line more than <see cref="MaxLines"/>.</param>
    /// <returns>Each type, a partial one once at its first declaration, in the order of its first declaration.</returns>
    private static LargeType[] LargeTypes(IEnumerable<(string Source, string Path)> files, int minLines = MaxLines + 1)
    {
        var parts = new List<(string Key, LargeType Part)>();
        foreach ((string source, string path) in files)
        {
            SyntaxNode root = CSharpSyntaxTree.ParseText(source, new CSharpParseOptions(LanguageVersion.Preview), path).GetRoot();
            foreach (BaseTypeDeclarationSyntax type in root.DescendantNodes().OfType<BaseTypeDeclarationSyntax>())
            {
                int line = type.GetLocation().GetLineSpan().StartLinePosition.Line + 1;
                parts.Add((Key(type), new LargeType(path, line, NameOf(type), OwnLines(type), IsExempt(type))));
            }
        }

        // A type that is not partial has one declaration per key; a partial one is reported at its first, with its sum.
        return [.. parts.GroupBy(static p => p.Key, StringComparer.Ordinal)
            .Select(static g => g.First().Part with { Lines = g.Sum(static p => p.Part.Lines), Exempt = g.Any(static p => p.Part.Exempt) })
            .Where(t => t.Lines >= minLines)];
    }

    // The lines from the declaration's first attribute or modifier to its closing brace, less those of the types nested in it,
    // each from the first line of its leading trivia (its doc comment) to its closing brace.
    private static int OwnLines(BaseTypeDeclarationSyntax type)
    {
        var lines = new HashSet<int>(LinesOf(type.SyntaxTree, type.Span));
        foreach (BaseTypeDeclarationSyntax nested in NestedTypes(type))
            lines.ExceptWith(LinesOf(type.SyntaxTree, TextSpan.FromBounds(nested.FullSpan.Start, nested.Span.End)));
        return lines.Count;
    }

    private static IEnumerable<BaseTypeDeclarationSyntax> NestedTypes(BaseTypeDeclarationSyntax type) =>
        type is TypeDeclarationSyntax { Members: var members } ? members.OfType<BaseTypeDeclarationSyntax>() : [];

    private static IEnumerable<int> LinesOf(SyntaxTree tree, TextSpan span)
    {
        FileLinePositionSpan lines = tree.GetLineSpan(span);
        return Enumerable.Range(lines.StartLinePosition.Line, lines.EndLinePosition.Line - lines.StartLinePosition.Line + 1);
    }

    // The comment counts in the type's leading trivia (with its doc comment, before or after its attributes) or before the
    // first member inside its brace: where a reader looks before reading the members.
    private static bool IsExempt(BaseTypeDeclarationSyntax type)
    {
        bool braced = type.OpenBraceToken.IsKind(SyntaxKind.OpenBraceToken) && !type.OpenBraceToken.IsMissing;
        IEnumerable<SyntaxTrivia> above = type.DescendantTokens()
            .TakeWhile(t => !braced || t.SpanStart < type.OpenBraceToken.SpanStart)
            .SelectMany(static t => t.LeadingTrivia);
        IEnumerable<SyntaxTrivia> first = braced ? type.OpenBraceToken.GetNextToken().LeadingTrivia : [];
        return above.Concat(first).Any(static t => SourceTree.IsReasonedComment(t, Exemption));
    }

    // Namespace, containing types and name with its arity: what makes partial declarations one type and keeps apart types of
    // one name elsewhere (N.P, M.P, Outer.P, P<T>).
    private static string Key(BaseTypeDeclarationSyntax type) =>
        string.Join(".", type.Ancestors().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(static n => n.Name.ToString()))
        + "::" + string.Join(".", type.AncestorsAndSelf().OfType<BaseTypeDeclarationSyntax>().Reverse()
            .Select(static t => t.Identifier.Text + "`" + Arity(t)));

    private static int Arity(BaseTypeDeclarationSyntax type) =>
        type is TypeDeclarationSyntax { TypeParameterList: { } parameters } ? parameters.Parameters.Count : 0;

    // "Outer.Inner" is what a reader searches for; the file names the namespace.
    private static string NameOf(BaseTypeDeclarationSyntax type) =>
        string.Join(".", type.AncestorsAndSelf().OfType<BaseTypeDeclarationSyntax>().Reverse().Select(static t => t.Identifier.Text));

    // A type declaration of `lines` lines: its header, its braces and fields between them.
    private static string Class(string header, int lines) =>
        header + Environment.NewLine + "{" + Environment.NewLine + Fields(lines - 3) + Environment.NewLine + "}" + Environment.NewLine;

    private static string Fields(int count) =>
        string.Join(Environment.NewLine, Enumerable.Range(0, count).Select(static i => $"    int _f{i};"));

    private sealed record LargeType(string File, int Line, string Name, int Lines, bool Exempt)
    {
        public override string ToString() => $"{File}:{Line} {Name}: {Lines} lines";
    }
}
