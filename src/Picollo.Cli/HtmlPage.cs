using System.Globalization;
using System.Net;
using System.Text;
using Picollo.Baselines.Rules;

namespace Picollo.Cli;

/// <summary>What picollo's HTML pages share: one inline stylesheet, encoding, numbers; no script, nothing fetched.</summary>
internal static class HtmlPage
{
    /// <summary>
    /// Starts a page titled <paramref name="title"/>, with the stylesheet every page inlines (<c>HtmlPage.css</c>, embedded in
    /// the assembly: a stylesheet is no message to keep in code).
    /// </summary>
    public static StringBuilder Start(string title) =>
        new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
            .Append(Encode(title)).Append("</title>\n<style>").Append(Resource("HtmlPage.css")).Append("</style>\n</head>\n<body>\n");

    /// <summary>Ends the page.</summary>
    public static string End(StringBuilder html) => html.Append("</body>\n</html>\n").ToString();

    /// <summary>An SVG file's <c>&lt;svg&gt;</c> element, without the XML declaration, to inline.</summary>
    public static string InlineSvg(string svg) => svg[Math.Max(0, svg.IndexOf("<svg", StringComparison.Ordinal))..];

    /// <summary>HTML-encoded text.</summary>
    public static string Encode(string text) => WebUtility.HtmlEncode(text);

    /// <summary>
    /// A per-operation value as the verdict lines print it (<see cref="Picollo.Baselines.Rules.CounterVerdict.Number"/>: a collection
    /// every 4,000 operations is 2.5E-4, not 0); empty when there is none.
    /// </summary>
    public static string Number(double? value) => value is { } v ? Picollo.Baselines.Rules.CounterVerdict.Number(v) : "";

    /// <summary>The CSS class of a verdict: fail, pass or notice.</summary>
    public static string Class(string verdict) => verdict switch
    {
        "fail" or "regressed" => "fail",
        "pass" or "improved" => "pass",
        _ => "notice",
    };

    /// <summary>
    /// A table's heading row, <c>&lt;tr&gt;&lt;th&gt;Test&lt;/th&gt;…&lt;/tr&gt;</c>: the headings as they are (they are
    /// markup-safe text of the tool's own), no line break.
    /// </summary>
    public static string Headings(params string[] headings) =>
        "<tr>" + string.Concat(headings.Select(static h => $"<th>{h}</th>")) + "</tr>";

    /// <summary>
    /// A text file embedded in this assembly under <c>Picollo.Cli.&lt;<paramref name="name"/>&gt;</c>, without its final line
    /// break.
    /// </summary>
    public static string Resource(string name)
    {
        using Stream stream = typeof(HtmlPage).Assembly.GetManifestResourceStream("Picollo.Cli." + name)
            ?? throw new InvalidOperationException($"The resource {name} is not embedded in {typeof(HtmlPage).Assembly.GetName().Name}.");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd().ReplaceLineEndings("\n").TrimEnd('\n');
    }

    /// <summary>An id for a test's section.</summary>
    public static string Anchor(string test) => "t-" + string.Concat(test.Select(static c => char.IsAsciiLetterOrDigit(c) ? c : '-'));
}
