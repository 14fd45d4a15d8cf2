using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;

namespace Picollo.Cli.Ab;

/// <summary>
/// The result of <c>picollo ab</c> as a pull-request comment (markdown, regressions first), JSON for scripts, or one HTML
/// page; the markdown also goes to the GitHub step summary when the tool runs there.
/// </summary>
/// <param name="Base">The base revision.</param>
/// <param name="Head">The head revision.</param>
/// <param name="Tests">The tests, judged.</param>
/// <param name="Options">How they were judged.</param>
/// <param name="Wall">The time the pairs took.</param>
/// <param name="Notes">What the run says besides the tests (the merge-base, the time budget).</param>
internal sealed record AbReport(
    AbRevision Base, AbRevision Head, IReadOnlyList<AbTestResult> Tests, AbOptions Options, TimeSpan Wall, IReadOnlyList<string> Notes)
{
    /// <summary>The tool named in the title (<c>picollo bisect</c> shows its steps' tables with this report).</summary>
    public string Tool { get; init; } = "picollo ab";

    /// <summary>Whether the exit code is 1: a test regressed or failed on the head.</summary>
    public bool HasRegression => Tests.Any(static t => t.Verdict is AbVerdict.Regressed or AbVerdict.Failed);

    /// <summary>The tests in the report's order: the worst verdicts first, then by name.</summary>
    public IEnumerable<AbTestResult> Ordered =>
        Tests.OrderBy(static t => t.Verdict).ThenBy(static t => t.Test.FullName, StringComparer.Ordinal);

    /// <summary>The markdown: a headline, the table, then problems and notes.</summary>
    /// <returns>The markdown.</returns>
    public string ToMarkdown()
    {
        var md = new StringBuilder();
        md.AppendLine(CultureInfo.InvariantCulture, $"## {Tool}: {Name(Head)} against {Name(Base)}");
        md.AppendLine();
        md.AppendLine(Headline());
        md.AppendLine();
        md.Append(CultureInfo.InvariantCulture, $"| Test | Verdict | Time, head / base | {Options.Confidence:0.#%} interval | ")
            .AppendLine("d_z | Pairs | Exact counters, base → head |");
        md.AppendLine("|---|---|---|---|---|---|---|");
        foreach (AbTestResult test in Ordered)
        {
            IReadOnlyList<AbMeasurement> rows = Rows(test);
            foreach (AbMeasurement m in rows)
            {
                string name = rows.Count == 1 && !m.Key.Contains('(', StringComparison.Ordinal) ? Label(test) : Key(m.Key, rows.Count);
                AbVerdict verdict = Shown(test, m);
                string described = Describe(verdict, m.Time, Options.Threshold), interval = Interval(verdict, m.Time, Options.Threshold);
                md.Append(CultureInfo.InvariantCulture, $"| `{name}` | {Mark(verdict)} {described} | {Ratio(m.Time)} | ")
                    .AppendLine(CultureInfo.InvariantCulture, $"{interval} | {Dz(m.Time)} | {test.ProcessPairs} | {Exact(m)} |");
            }
        }

        List<string> problems = [.. Ordered.SelectMany(t => t.Problems.Select(p => $"`{Label(t)}`: {p}"))];
        if (problems.Count > 0)
        {
            md.AppendLine();
            md.AppendLine("**Details**");
            md.AppendLine();
            foreach (string problem in problems.Distinct())
                md.AppendLine("- " + OneLine(problem));
        }

        md.AppendLine();
        md.AppendLine(AbReportMessages.TimeIsPaired(Options.Threshold, Options.MaxPairs));
        foreach (string note in Notes)
            md.AppendLine().AppendLine(note);
        return md.ToString();
    }

    /// <summary>The report as JSON.</summary>
    /// <returns>The JSON.</returns>
    public string ToJson()
    {
        using var stream = new MemoryStream();
        using (var w = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            w.WriteStartObject();
            WriteRevision(w, "base", Base);
            WriteRevision(w, "head", Head);
            w.WriteNumber("threshold", Options.Threshold);
            w.WriteNumber("confidence", Options.Confidence);
            w.WriteNumber("wallSeconds", Math.Round(Wall.TotalSeconds, 1));
            w.WriteBoolean("regression", HasRegression);
            w.WriteStartArray("tests");
            foreach (AbTestResult test in Ordered)
            {
                w.WriteStartObject();
                w.WriteString("test", test.Test.FullName);
                w.WriteString("project", test.Project);
                w.WriteString("verdict", Word(test.Verdict));
                w.WriteNumber("pairs", test.ProcessPairs);
                w.WriteStartArray("measurements");
                foreach (AbMeasurement m in test.Measurements)
                    WriteMeasurement(w, m);
                w.WriteEndArray();
                w.WriteStartArray("problems");
                foreach (string p in test.Problems)
                    w.WriteStringValue(p);
                w.WriteEndArray();
                w.WriteEndObject();
            }

            w.WriteEndArray();
            w.WriteStartArray("notes");
            foreach (string note in Notes)
                w.WriteStringValue(note);
            w.WriteEndArray();
            w.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    // One measurement of a test: its verdict, the paired time ratio with its interval and the pairs' ratios, the exact counters.
    private static void WriteMeasurement(Utf8JsonWriter w, AbMeasurement m)
    {
        w.WriteStartObject();
        w.WriteString("key", m.Key);
        w.WriteString("verdict", Word(m.Verdict));
        if (m.Time is { } t)
        {
            w.WriteString("counter", t.Counter);
            Number(w, "ratio", t.Ratio);
            Number(w, "low", t.Low);
            Number(w, "high", t.High);
            Number(w, "cohensDz", t.CohensDz);
            w.WriteStartArray("pairRatios");
            foreach (double r in t.PairRatios)
                w.WriteNumberValue(Math.Round(r, 5));
            w.WriteEndArray();
        }

        w.WriteStartArray("exact");
        foreach (AbExactCounter e in m.Exact)
        {
            w.WriteStartObject();
            w.WriteString("counter", e.Name);
            w.WriteString("unit", e.Unit);
            Number(w, "base", e.Base);
            Number(w, "head", e.Head);
            w.WriteString("verdict", Word(e.Verdict));
            w.WriteEndObject();
        }

        w.WriteEndArray();
        w.WriteEndObject();
    }

    /// <summary>The report as one self-contained HTML page (the markdown's table, styled).</summary>
    /// <returns>The page.</returns>
    public string ToHtml()
    {
        var html = new StringBuilder();
        html.AppendLine("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>picollo ab</title>");
        html.Append("<style>").Append(HtmlPage.Resource("AbReport.css")).AppendLine("</style></head><body>");
        html.Append(CultureInfo.InvariantCulture, $"<h1>picollo ab: {E(Name(Head))} against {E(Name(Base))}</h1>")
            .AppendLine(CultureInfo.InvariantCulture, $"<p>{E(Headline().Replace("**", string.Empty, StringComparison.Ordinal))}</p>");
        string interval = string.Create(CultureInfo.InvariantCulture, $"{Options.Confidence:0.#%} interval");
        html.Append("<table>")
            .AppendLine(HtmlPage.Headings("Test", "Verdict", "Time, head / base", interval, "d_z", "Pairs", "Exact counters"));
        foreach (AbTestResult test in Ordered)
        {
            IReadOnlyList<AbMeasurement> rows = Rows(test);
            foreach (AbMeasurement m in rows)
            {
                AbVerdict verdict = Shown(test, m);
                string described = Describe(verdict, m.Time, Options.Threshold), shown = Interval(verdict, m.Time, Options.Threshold);
                html.Append(CultureInfo.InvariantCulture, $"<tr class=\"{Word(verdict)}\"><td>{E(Key(m.Key, rows.Count))}</td>")
                    .Append(CultureInfo.InvariantCulture, $"<td>{E(described)}</td><td>{E(Ratio(m.Time))}</td>")
                    .Append(CultureInfo.InvariantCulture, $"<td>{E(shown)}</td><td>{E(Dz(m.Time))}</td>")
                    .AppendLine(CultureInfo.InvariantCulture, $"<td>{test.ProcessPairs}</td><td>{E(Exact(m))}</td></tr>");
            }
        }

        html.AppendLine("</table><ul>");
        foreach (AbTestResult test in Ordered)
        {
            foreach (string p in test.Problems)
                html.AppendLine(CultureInfo.InvariantCulture, $"<li><b>{E(Label(test))}</b>: {E(p)}</li>");
        }

        foreach (string note in Notes)
            html.AppendLine(CultureInfo.InvariantCulture, $"<li>{E(note)}</li>");
        html.AppendLine("</ul></body></html>");
        return html.ToString();
    }

    // A test's name in the report: Class.Method, or the full name (and its project) when another test has the same short name.
    private string Label(AbTestResult test)
    {
        int same = Tests.Count(t => t.Test.ShortName == test.Test.ShortName);
        if (same == 1)
            return test.Test.ShortName;
        return Tests.Count(t => t.Test.FullName == test.Test.FullName) == 1 ? test.Test.FullName : $"{test.Test.FullName} ({test.Project})";
    }

    private string Headline()
    {
        int Count(AbVerdict v) => Tests.Count(t => t.Verdict == v);
        var parts = new List<string>();
        foreach (AbVerdict v in Enum.GetValues<AbVerdict>())
        {
            int n = Count(v);
            if (n > 0)
                parts.Add(v is AbVerdict.Regressed or AbVerdict.Failed ? $"**{n} {AbRunner.Describe(v)}**" : $"{n} {AbRunner.Describe(v)}");
        }

        int pairs = Tests.Sum(static t => t.ProcessPairs);
        return AbReportMessages.Headline(parts, Options.Threshold, Options.Confidence, pairs, Wall);
    }

    private static string Name(AbRevision revision) =>
        revision.Ref == "working tree" ? $"the working tree ({Short(revision.Commit)}+)" : $"{revision.Ref} ({Short(revision.Commit)})";

    private static string Short(string commit) => commit.Length > 10 ? commit[..10] : commit;

    // A measurement's key without its order when the test measured once ("WordsPerf.Count#0" → "WordsPerf.Count").
    private static string Key(string key, int measurements)
    {
        int hash = key.LastIndexOf('#');
        return hash > 0 && key[(hash + 1)..] == "0" && measurements == 1 ? key[..hash] : key;
    }

    private static string Mark(AbVerdict verdict) => verdict switch
    {
        AbVerdict.Regressed or AbVerdict.Failed => "❌",
        AbVerdict.Improved => "✅",
        AbVerdict.Inconclusive or AbVerdict.NotJudged => "⚠️",
        _ => "·",
    };

    private static string Word(AbVerdict verdict) => verdict == AbVerdict.NotJudged ? "not-judged" : verdict.ToString().ToLowerInvariant();

    private static string Ratio(AbTimeEstimate? t) => t is null ? "–"
        : string.Create(CultureInfo.InvariantCulture, $"×{t.Ratio:0.000} ({(t.Ratio - 1):+0.0%;-0.0%;0.0%})");

    // An unchanged time shows the interval that proved it and says which: the equivalence interval (inside the threshold),
    // or after the most pairs the run's own (inside a wider bound); any other verdict the run's.
    internal static string Interval(AbVerdict verdict, AbTimeEstimate? t, double threshold)
    {
        if (t is null || double.IsNaN(t.Low))
            return "–";
        if (verdict != AbVerdict.Unchanged || !AbStatistics.IsEquivalent(t, threshold))
            return $"{Bound(t.Low)} … {Bound(t.High)}";
        double confidence = Math.Min(AbStatistics.EquivalenceConfidence, t.Confidence);
        return $"{Bound(t.EquivalenceLow)} … {Bound(t.EquivalenceHigh)} "
            + string.Create(CultureInfo.InvariantCulture, $"({confidence:0.#%})");
    }

    // "unchanged within ±2.1%": an unchanged time says the bound it proved.
    internal static string Describe(AbVerdict verdict, AbTimeEstimate? t, double threshold)
    {
        if (verdict != AbVerdict.Unchanged || t is null || !double.IsFinite(t.EquivalenceBound))
            return AbRunner.Describe(verdict);
        double bound = AbStatistics.IsEquivalent(t, threshold)
            ? t.EquivalenceBound
            : t.Bound;
        return string.Create(CultureInfo.InvariantCulture, $"unchanged within ±{Math.Max(bound, 0.001):0.0%}");
    }

    // A change in percent; beyond +1,000 % the digits say nothing (two pairs' t-interval read +10438771656881400000000.0 %).
    internal static string Bound(double ratio) => ratio - 1 > 10 ? "> +1,000%"
        : string.Create(CultureInfo.InvariantCulture, $"{(ratio - 1):+0.0%;-0.0%;0.0%}");

    private static string Dz(AbTimeEstimate? t) => t is null || double.IsNaN(t.CohensDz) ? "–"
        : double.IsInfinity(t.CohensDz) ? (t.CohensDz > 0 ? "∞" : "−∞") : t.CohensDz.ToString("0.0", CultureInfo.InvariantCulture);

    // The counters that count: six "jit-methods 0 → 0" cells on every row hid the one that moved. Those at 0 on both sides
    // are only counted; the JSON report lists every counter.
    private static string Exact(AbMeasurement m)
    {
        if (m.Exact.Count == 0)
            return "–";
        // Zero as the cell writes it: a mean of 0.001 JIT-compiled methods per operation reads "0 → 0" too.
        static bool Zero(double value) => Math.Abs(value) < 0.005;
        List<string> shown = [.. m.Exact.Where(static e => !Zero(e.Base) || !Zero(e.Head)).Select(ExactCounter)];
        int zeros = m.Exact.Count - shown.Count;
        if (zeros > 0)
            shown.Add(zeros == m.Exact.Count ? $"all {zeros} at 0 → 0" : $"{zeros} more at 0 → 0");
        return string.Join("; ", shown);
    }

    // "allocated-bytes 1000 → 1200 bytes/op (regressed)": an exact counter's means, and its verdict unless unchanged.
    private static string ExactCounter(AbExactCounter e)
    {
        string verdict = e.Verdict == AbVerdict.Unchanged ? string.Empty : " (" + e.Verdict.ToString().ToLowerInvariant() + ")";
        return string.Create(CultureInfo.InvariantCulture, $"{e.Name} {e.Base:0.##} → {e.Head:0.##} {e.Unit}/op{verdict}");
    }

    // A test's rows: one per measurement, or one for the test itself when it measured nothing.
    private static IReadOnlyList<AbMeasurement> Rows(AbTestResult test) =>
        test.Measurements.Count > 0 ? test.Measurements : [new AbMeasurement(test.Test.FullName, test.Verdict, null, [])];

    // A row's verdict: the test's when it failed, was not judged, or ran at one side only; else the measurement's own.
    private static AbVerdict Shown(AbTestResult test, AbMeasurement m) =>
        test.Verdict is AbVerdict.Failed or AbVerdict.NotJudged or AbVerdict.New or AbVerdict.Removed ? test.Verdict : m.Verdict;

    private static string E(string text) => WebUtility.HtmlEncode(text);

    // A multi-line message (an assertion's, indented) as one markdown list item: line breaks and their indentation become one
    // space.
    private static string OneLine(string text) =>
        string.Join(' ', text.Split((char[])['\n', '\r', ' ', '\t'], StringSplitOptions.RemoveEmptyEntries));

    private static void Number(Utf8JsonWriter w, string name, double value)
    {
        if (double.IsFinite(value))
            w.WriteNumber(name, Math.Round(value, 6));
        else
            w.WriteNull(name);
    }

    private static void WriteRevision(Utf8JsonWriter w, string name, AbRevision revision)
    {
        w.WriteStartObject(name);
        w.WriteString("ref", revision.Ref);
        w.WriteString("commit", revision.Commit);
        w.WriteEndObject();
    }
}
