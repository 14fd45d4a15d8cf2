using System.Globalization;
using System.Xml.Linq;

namespace Picollo.Cli.History.Reports;

/// <summary>
/// One series' trend in SVG: a value per run, left to right in run order, each point titled with its commit and value (a
/// browser shows the title on hover: no script), every change point a vertical line between its two runs, labelled with
/// its commit and magnitude. The y axis spans the values, not zero to the top: a 5 % step on a zero-based axis is 5 % of
/// the plot's height, too little to see (the run report's percentile plots answer another question, and start at zero).
/// Built with XLinq, as those plots are, so every label is escaped.
/// </summary>
internal static class HistoryTrendPlot
{
    private const double Width = 640, Height = 240, Left = 80, Right = 20, Top = 36, Bottom = 34;
    private const string PointColor = "#1f77b4", RegressionColor = "#b91c1c", ImprovementColor = "#15803d", IntendedColor = "#6e7781";
    private static readonly XNamespace s_svg = "http://www.w3.org/2000/svg";

    // The most points a trend draws, about one per two pixels of the plot: a series of 1,000 runs drawn point by point made
    // a page of 1,000 such series 131 MB. A longer one is drawn as medians of consecutive runs; each run keeps its own
    // point and title only in a series of at most CircledRuns.
    private const int MaxPoints = 240, CircledRuns = 120;

    /// <summary>The series as an <c>&lt;svg&gt;</c> element's text, to inline in a page.</summary>
    public static string ToSvg(HistorySeriesAnalysis series)
    {
        IReadOnlyList<HistoryPoint> points = series.Points;
        List<(double Index, double Value)> drawn = Drawn(points);
        double min = drawn.Min(static p => p.Value), max = drawn.Max(static p => p.Value);
        // A flat series (an exact counter, 0 allocations) still gets an axis: ±5 % of its value, ±1 at 0.
        double pad = max > min ? (max - min) * 0.1 : Math.Max(Math.Abs(max) * 0.05, 1);
        // Round ticks (290, 300, 310 rather than 288.791, 308.79, …): the axis runs from a multiple of a 1-2-2.5-5 step.
        double step = NiceStep((max - min + (2 * pad)) / 4);
        double low = Math.Floor((min - pad) / step) * step, high = Math.Ceiling((max + pad) / step) * step;
        double plotWidth = Width - Left - Right, plotHeight = Height - Top - Bottom;
        double X(double index) => Left + (points.Count == 1 ? plotWidth / 2 : index / (points.Count - 1) * plotWidth);
        double Y(double value) => Top + plotHeight - ((value - low) / (high - low) * plotHeight);

        var svg = new XElement(
            s_svg + "svg",
            new XAttribute("width", F(Width)), new XAttribute("height", F(Height)),
            new XAttribute("viewBox", $"0 0 {F(Width)} {F(Height)}"),
            new XAttribute("font-family", "sans-serif"), new XAttribute("font-size", "11"),
            new XElement(s_svg + "title", $"{series.Key.Test}: {series.Key.Counter} per run"),
            Text(Width / 2, 18, $"{series.Key.Test}: {series.Key.Counter} ({series.Key.Unit} per operation)", "middle", "bold"),
            Rect(Left, Top, plotWidth, plotHeight));
        for (int i = 0; low + (i * step) <= high + (step / 2); i++)
        {
            double value = low + (i * step);
            svg.Add(Line(Left, Y(value), Left + plotWidth, Y(value), "#eee"));
            svg.Add(Text(Left - 5, Y(value) + 4, HistoryText.Number(value), "end"));
        }

        svg.Add(Text(Left, Height - 10, RunLabel(points[0]), "start"), Text(Left + plotWidth, Height - 10, RunLabel(points[^1]), "end"));
        foreach (HistoryChange change in series.Changes)
            svg.Add(ChangeMark(change, X(change.Point.Index - 0.5), plotHeight));
        svg.Add(new XElement(
            s_svg + "polyline", new XAttribute("fill", "none"), new XAttribute("stroke", PointColor), new XAttribute("stroke-width", "1.5"),
            new XAttribute("points", string.Join(' ', drawn.Select(p => $"{F(X(p.Index))},{F(Y(p.Value))}")))));
        if (drawn.Count < points.Count)
        {
            double size = Math.Ceiling((double)points.Count / MaxPoints);
            string caption = string.Create(CultureInfo.InvariantCulture, $"{points.Count:N0} runs, drawn as medians of {size:0}");
            svg.Add(Text(Left + (plotWidth / 2), Height - 10, caption, "middle"));
        }

        for (int i = 0; i < points.Count && points.Count <= CircledRuns; i++)
        {
            svg.Add(new XElement(
                s_svg + "circle", Attr("cx", X(i)), Attr("cy", Y(points[i].Value)), Attr("r", 2.5), new XAttribute("fill", PointColor),
                new XElement(s_svg + "title", $"{RunLabel(points[i])}: {HistoryText.Number(points[i].Value)} {series.Key.Unit}")));
        }

        return svg.ToString() + "\n";
    }

    // The least of 1, 2, 2.5 and 5 times a power of ten at or above the value.
    private static double NiceStep(double value)
    {
        double power = Math.Pow(10, Math.Floor(Math.Log10(value)));
        foreach (double factor in (ReadOnlySpan<double>)[1, 2, 2.5, 5])
        {
            if (factor * power >= value)
                return factor * power;
        }

        return 10 * power;
    }

    // Every run, or medians of consecutive runs at their middle index when there are more than MaxPoints.
    private static List<(double Index, double Value)> Drawn(IReadOnlyList<HistoryPoint> points)
    {
        if (points.Count <= MaxPoints)
            return [.. points.Select(static (p, i) => ((double)i, p.Value))];
        int size = (int)Math.Ceiling((double)points.Count / MaxPoints);
        var drawn = new List<(double, double)>();
        for (int start = 0; start < points.Count; start += size)
        {
            double[] bucket = [.. points.Skip(start).Take(size).Select(static p => p.Value).Order()];
            drawn.Add((start + ((bucket.Length - 1) / 2.0), bucket[bucket.Length / 2]));
        }

        return drawn;
    }

    // A dashed line between the change's two runs, its label at the top: red a regression, green an improvement, grey intended.
    private static XElement ChangeMark(HistoryChange change, double x, double plotHeight)
    {
        string color = change.Acknowledgement is not null ? IntendedColor : change.IsRegression ? RegressionColor : ImprovementColor;
        var line = Line(x, Top, x, Top + plotHeight, color);
        line.Add(new XAttribute("stroke-dasharray", "5 3"), new XAttribute("stroke-width", "1.5"));
        string label = $"{HistoryText.Commit(change.First.Commit)} {HistoryText.Magnitude(change.Point.Magnitude)}";
        var text = Text(x + 3, Top + 12, label, "start");
        text.Add(new XAttribute("fill", color));
        return new XElement(s_svg + "g", new XAttribute("class", "change"), line, text);
    }

    private static string RunLabel(HistoryPoint point) =>
        $"{HistoryText.Commit(point.Commit)} {point.TimeUtc.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)}";



    private static XElement Rect(double x, double y, double width, double height) =>
        new(s_svg + "rect", Attr("x", x), Attr("y", y), Attr("width", width), Attr("height", height),
            new XAttribute("fill", "none"), new XAttribute("stroke", "#333"));

    private static XElement Line(double x1, double y1, double x2, double y2, string color) =>
        new(s_svg + "line", Attr("x1", x1), Attr("y1", y1), Attr("x2", x2), Attr("y2", y2), new XAttribute("stroke", color));

    private static XElement Text(double x, double y, string text, string anchor, string weight = "normal") =>
        new(s_svg + "text", Attr("x", x), Attr("y", y), new XAttribute("text-anchor", anchor), new XAttribute("font-weight", weight), text);

    private static XAttribute Attr(string name, double value) => new(name, F(value));

    private static string F(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
