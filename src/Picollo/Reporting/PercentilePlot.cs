using System.Globalization;
using System.Xml.Linq;
using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Measurement;
using Picollo.Metrics;

namespace Picollo.Reporting;

/// <summary>
/// Percentile-distribution plots in SVG, drawn like HdrHistogram's: the x axis is 1 / (1 − p) on a log scale, so 0%,
/// 90%, 99%, 99.9% … are equally spaced and the tail gets as much room as the body. Built with XLinq so every label is
/// escaped and the document is well-formed by construction.
/// </summary>
internal static class PercentilePlot
{
    private const double Width = 640, PanelHeight = 300, FooterLineHeight = 16, FooterChars = 90;
    private const double Left = 80, Right = 20, Top = 40, Bottom = 50;
    private const int PointsPerDecade = 20;
    private const string CurrentColor = "#1f77b4", BaselineColor = "#ff7f0e";
    private static readonly XNamespace s_svg = "http://www.w3.org/2000/svg";

    public static string ToSvg(PerfReport report)
    {
        var panels = new List<XElement>();
        var zeros = new List<string>();
        foreach (CounterResult counter in report.Result.Counters.Where(static c => c.IsAvailable))
        {
            // A flat line at 0 on both sides is a panel of nothing: such counters share one line of text instead.
            if (report.CountedNothing(counter))
            {
                zeros.Add(counter.Name);
                continue;
            }

            BaselineCounter? baseline = report.GetBaselineCounter(counter.Name);
            panels.Add(Panel(counter, baseline, panels.Count * PanelHeight));
        }

        List<string> footer = zeros.Count > 0 ? Wrap("0 in every sample: " + string.Join(", ", zeros))
            : panels.Count == 0 ? ["No counter counted."]
            : [];
        double top = panels.Count * PanelHeight;
        for (int i = 0; i < footer.Count; i++)
            panels.Add(Text(Left, top + 20 + (i * FooterLineHeight), footer[i], "start"));

        double height = top + (footer.Count > 0 ? 20 + (footer.Count * FooterLineHeight) : 0);

        var svg = new XElement(
            s_svg + "svg",
            new XAttribute("width", F(Width)),
            new XAttribute("height", F(height)),
            new XAttribute("viewBox", $"0 0 {F(Width)} {F(height)}"),
            new XAttribute("font-family", "sans-serif"),
            new XAttribute("font-size", "11"),
            new XElement(s_svg + "title", $"{report.TestName}: percentile distribution"),
            panels);
        return new XDocument(svg).ToString() + "\n";
    }

    private static XElement Panel(CounterResult counter, BaselineCounter? baseline, double offsetY)
    {
        // The deepest decade worth drawing is the one the samples reach: 1,000 samples resolve 99.9%, not 99.99%.
        ulong samples = Math.Max((ulong)counter.SampleCount, baseline?.Histogram.TotalCount ?? 0);
        int decades = Math.Clamp((int)Math.Ceiling(Math.Log10(Math.Max(samples, 1))), 2, 6);
        var current = Series(counter.Histogram, counter.OperationsPerSample, decades);
        var reference = baseline is null ? null : Series(baseline.Histogram, baseline.OperationsPerSample, decades);
        double maxValue = current.Concat(reference ?? []).Select(static p => p.Value).DefaultIfEmpty(0).Max();
        double yMax = NiceCeiling(maxValue);

        double plotWidth = Width - Left - Right, plotHeight = PanelHeight - Top - Bottom;
        double X(double decade) => Left + (decade / decades * plotWidth);
        double Y(double value) => Top + plotHeight - (value / yMax * plotHeight);

        var panel = new XElement(s_svg + "g", new XAttribute("transform", $"translate(0,{F(offsetY)})"));
        panel.Add(Text(Width / 2, 20, counter.Title(), "middle", "bold"));
        panel.Add(new XElement(s_svg + "rect", Attr("x", Left), Attr("y", Top), Attr("width", plotWidth), Attr("height", plotHeight),
            new XAttribute("fill", "none"), new XAttribute("stroke", "#333")));

        for (int d = 0; d <= decades; d++)
        {
            double x = X(d);
            panel.Add(Line(x, Top, x, Top + plotHeight, "#ddd"));
            panel.Add(Text(x, Top + plotHeight + 15, PercentileLabel(d), "middle"));
        }

        for (int i = 0; i <= 4; i++)
        {
            double value = yMax * i / 4, y = Y(value);
            panel.Add(Line(Left, y, Left + plotWidth, y, "#ddd"));
            panel.Add(Text(Left - 5, y + 4, TickLabel(value, yMax), "end"));
        }

        panel.Add(Text(Left + (plotWidth / 2), PanelHeight - 12, "Percentile", "middle"));
        panel.Add(new XElement(s_svg + "text", Attr("x", 15), Attr("y", Top + (plotHeight / 2)), new XAttribute("text-anchor", "middle"),
            new XAttribute("transform", $"rotate(-90 15 {F(Top + (plotHeight / 2))})"), $"{counter.Unit} per operation"));

        if (reference is not null)
            panel.Add(Polyline(reference, X, Y, BaselineColor, "baseline", dashed: true));
        panel.Add(Polyline(current, X, Y, CurrentColor, "current", dashed: false));

        double legendY = Top + 12;
        panel.Add(Line(Left + 10, legendY, Left + 35, legendY, CurrentColor, 2));
        panel.Add(Text(Left + 40, legendY + 4, "current", "start"));
        if (reference is not null)
        {
            panel.Add(Line(Left + 10, legendY + 16, Left + 35, legendY + 16, BaselineColor, 2, dashed: true));
            panel.Add(Text(Left + 40, legendY + 20, "baseline", "start"));
        }

        return panel;
    }

    // Points evenly spaced in log10(1 / (1 − p)), each the per-operation value at percentile p.
    private static List<(double Decade, double Value)> Series(HdrHistogram histogram, double operationsPerSample, int decades)
    {
        var points = new List<(double, double)>(decades * PointsPerDecade + 1);
        if (histogram.TotalCount == 0)
            return points;

        for (int i = 0; i <= decades * PointsPerDecade; i++)
        {
            double decade = (double)i / PointsPerDecade;
            double rank = i == decades * PointsPerDecade ? 100 : 100 * (1 - Math.Pow(10, -decade));
            points.Add((decade, histogram.GetPercentileValue(rank) / operationsPerSample));
        }

        return points;
    }

    private static XElement Polyline(
        List<(double Decade, double Value)> points, Func<double, double> x, Func<double, double> y, string color, string name, bool dashed)
    {
        var line = new XElement(
            s_svg + "polyline",
            new XAttribute("class", name),
            new XAttribute("fill", "none"),
            new XAttribute("stroke", color),
            new XAttribute("stroke-width", "2"),
            new XAttribute("points", string.Join(' ', points.Select(p => $"{F(x(p.Decade))},{F(y(p.Value))}"))));
        if (dashed)
            line.Add(new XAttribute("stroke-dasharray", "6 3"));
        return line;
    }

    private static XElement Line(double x1, double y1, double x2, double y2, string color, double width = 1, bool dashed = false)
    {
        var line = new XElement(s_svg + "line", Attr("x1", x1), Attr("y1", y1), Attr("x2", x2), Attr("y2", y2),
            new XAttribute("stroke", color), Attr("stroke-width", width));
        if (dashed)
            line.Add(new XAttribute("stroke-dasharray", "6 3"));
        return line;
    }

    private static XElement Text(double x, double y, string text, string anchor, string weight = "normal") =>
        new(s_svg + "text", Attr("x", x), Attr("y", y), new XAttribute("text-anchor", anchor), new XAttribute("font-weight", weight), text);

    private static XAttribute Attr(string name, double value) => new(name, F(value));

    // 0 → "0%", 1 → "90%", 2 → "99%", 3 → "99.9%": percentile 100·(1 − 10^−d).
    private static string PercentileLabel(int decade) =>
        (100 * (1 - Math.Pow(10, -decade))).ToString("0.#####", CultureInfo.InvariantCulture) + "%";

    // 1, 2, 4, 5, 8 or 10 times a power of ten, at or above the value: steps whose quarters (the y ticks) stay round numbers.
    private static double NiceCeiling(double value)
    {
        if (!(value > 0))
            return 1;

        double power = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (double step in (ReadOnlySpan<double>)[1, 2, 4, 5, 8, 10])
        {
            if (step * power >= value)
                return step * power;
        }

        return 10 * power;
    }

    // SVG text does not wrap by itself; at 11 px sans-serif, 90 characters fit the plot's width.
    private static List<string> Wrap(string text)
    {
        var lines = new List<string>();
        var line = new System.Text.StringBuilder();
        foreach (string word in text.Split(' '))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > FooterChars)
            {
                lines.Add(line.ToString());
                line.Clear();
            }

            line.Append(line.Length > 0 ? " " : string.Empty).Append(word);
        }

        lines.Add(line.ToString());
        return lines;
    }

    // Enough decimals to tell the quarter ticks apart: 0.01 page faults per operation must not print as four zeros.
    private static string TickLabel(double value, double yMax)
    {
        int decimals = Math.Clamp(1 - (int)Math.Floor(Math.Log10(yMax / 4)), 0, 12);
        return value.ToString("#,0." + new string('#', decimals), CultureInfo.InvariantCulture);
    }

    private static string F(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
