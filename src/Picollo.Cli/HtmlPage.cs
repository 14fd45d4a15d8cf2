using System.Globalization;
using System.Net;
using System.Text;

namespace Picollo.Cli;

/// <summary>What picollo's HTML pages share: one inline stylesheet, encoding, numbers; no script, nothing fetched.</summary>
internal static class HtmlPage
{
    private const string Style = """
        body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1b1f24; padding: 0 1em; }
        h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #d0d7de; padding-bottom: .2em; }
        table { border-collapse: collapse; margin: .6em 0; } th, td { border: 1px solid #d0d7de; padding: .25em .6em; }
        th { background: #f6f8fa; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
        .fail { color: #b91c1c; font-weight: 600; } .pass { color: #15803d; } .notice { color: #a16207; }
        .notes { color: #57606a; } svg { max-width: 100%; height: auto; }
        """;

    /// <summary>Starts a page titled <paramref name="title"/>.</summary>
    public static StringBuilder Start(string title) =>
        new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
            .Append(Encode(title)).Append("</title>\n<style>").Append(Style).Append("</style>\n</head>\n<body>\n");

    /// <summary>Ends the page.</summary>
    public static string End(StringBuilder html) => html.Append("</body>\n</html>\n").ToString();

    /// <summary>An SVG file's <c>&lt;svg&gt;</c> element, without the XML declaration, to inline.</summary>
    public static string InlineSvg(string svg) => svg[Math.Max(0, svg.IndexOf("<svg", StringComparison.Ordinal))..];

    /// <summary>HTML-encoded text.</summary>
    public static string Encode(string text) => WebUtility.HtmlEncode(text);

    /// <summary>
    /// A per-operation value as the verdict lines print it (<see cref="Picollo.Baselines.CounterVerdict.Number"/>: a collection
    /// every 4,000 operations is 2.5E-4, not 0); empty when there is none.
    /// </summary>
    public static string Number(double? value) => value is { } v ? Picollo.Baselines.CounterVerdict.Number(v) : "";

    /// <summary>The CSS class of a verdict: fail, pass or notice.</summary>
    public static string Class(string verdict) => verdict switch
    {
        "fail" or "regressed" => "fail",
        "pass" or "improved" => "pass",
        _ => "notice",
    };

    /// <summary>An id for a test's section.</summary>
    public static string Anchor(string test) => "t-" + string.Concat(test.Select(static c => char.IsAsciiLetterOrDigit(c) ? c : '-'));
}
