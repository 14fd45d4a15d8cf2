using System.Globalization;
using System.Text;
using Picollo.Counters;
using Picollo.Metrics;
using Picollo.Text;

namespace Picollo.Observation;

/// <summary>
/// In-process monitoring of every span: <see cref="Update"/> takes a snapshot of each span's histograms (the change since
/// the previous update, or the totals) and <see cref="ToMarkdown"/> prints them as one table: per span the count, P50 and P99
/// of each counter, the share of the spans' time, and instructions per cycle where cycles and instructions count.
/// </summary>
/// <remarks>Not thread-safe: one monitoring thread owns a monitor. Spans created after it are picked up by the next update.</remarks>
/// <example>
/// <code>
/// var monitor = new PerfSpanMonitor();             // deltas: each report covers the interval since the previous one
/// while (!stopping)
/// {
///     await Task.Delay(TimeSpan.FromSeconds(10));
///     monitor.Update();
///     logger.LogInformation("{Spans}", monitor.ToMarkdown());
/// }
/// </code>
/// </example>
public sealed class PerfSpanMonitor
{
    private readonly List<PerfSpanSnapshot> _snapshots = [];

    /// <summary>Creates a monitor of every span (those created later included).</summary>
    /// <param name="deltas">Each update holds the change since the previous one (default) rather than the totals.</param>
    public PerfSpanMonitor(bool deltas = true)
    {
        Deltas = deltas;
    }

    /// <summary>Whether updates hold changes since the previous update rather than totals.</summary>
    public bool Deltas { get; }

    /// <summary>The snapshots of the last update, one per span in creation order.</summary>
    public IReadOnlyList<PerfSpanSnapshot> Spans => _snapshots;

    /// <summary>Snapshots every span: the change since the previous update (a span's first: since it was created) or the totals.</summary>
    /// <returns><see cref="Spans"/>.</returns>
    public IReadOnlyList<PerfSpanSnapshot> Update()
    {
        foreach (PerfSpanSnapshot snapshot in _snapshots)
            snapshot.Update();

        IReadOnlyList<PerfSpan> all = PerfSpan.All;
        for (int i = _snapshots.Count; i < all.Count; i++)
        {
            // A new span's first snapshot holds its totals so far: with deltas, everything it recorded since creation.
            var snapshot = new PerfSpanSnapshot(all[i], Deltas);
            _snapshots.Add(snapshot);
        }

        return _snapshots;
    }

    /// <summary>
    /// The last update as markdown: a table of the spans that recorded something (count, thread hops, per counter P50 and
    /// P99 per span, the share of the spans' total time, IPC P5/P50/P95), then the counters that do not count and why.
    /// </summary>
    /// <param name="title">The heading above the table.</param>
    /// <returns>The report; a line saying nothing was recorded when no span was.</returns>
    public string ToMarkdown(string title = "Spans")
    {
        var text = new StringBuilder();
        List<PerfSpanSnapshot> active = [.. _snapshots.Where(static s => s.Count > 0 || s.ThreadHops > 0 || s.UncountedSpans > 0)];
        if (active.Count == 0)
        {
            text.Append("##### ").Append(title).Append('\n')
                .Append(_snapshots.Count == 0 ? "No span exists yet." : "No span was recorded in this interval.").Append('\n');
            return text.ToString();
        }

        List<string> names = CounterColumns(active);
        bool anyIpc = active.Any(static s => s.Ipc is { TotalCount: > 0 });
        bool anyTime = names.Contains(CounterNames.Tsc);
        double totalSeconds = anyTime ? active.Sum(static s => TotalSeconds(s)) : 0;

        var table = new MarkdownTable(Columns(names, anyTime, anyIpc));
        IEnumerable<PerfSpanSnapshot> byTime =
            active.OrderByDescending(static s => TotalSeconds(s)).ThenBy(static s => s.Span.Name, StringComparer.Ordinal);
        foreach (PerfSpanSnapshot s in byTime)
            table.AddRow(Row(s, names, anyTime, anyIpc, totalSeconds));

        table.WriteTo(text, title);
        AppendNotes(text, active);
        return text.ToString();
    }

    // One column pair per counter name any active span counts, in first-seen order (tsc, allocated-bytes, then perf).
    private static List<string> CounterColumns(List<PerfSpanSnapshot> active)
    {
        var names = new List<string>();
        foreach (PerfSpanSnapshot s in active)
        {
            foreach (PerfSpanCounter c in s.Span.Counters)
            {
                if (c.IsAvailable && !names.Contains(c.Name))
                    names.Add(c.Name);
            }
        }

        return names;
    }

    private static (string Header, bool RightAligned)[] Columns(List<string> names, bool anyTime, bool anyIpc)
    {
        var columns = new List<(string Header, bool RightAligned)> { ("span", false), ("count", true) };
        if (anyTime)
            columns.Add(("time %", true));
        foreach (string name in names)
        {
            columns.Add((Header(name) + " P50", true));
            columns.Add((Header(name) + " P99", true));
        }

        if (anyIpc)
            columns.AddRange([("IPC P5", true), ("IPC P50", true), ("IPC P95", true)]);
        columns.Add(("hops", true));
        return [.. columns];
    }

    // A span's row: its name and count, its share of the time, P50 and P99 per counter, IPC, thread hops.
    private static string[] Row(PerfSpanSnapshot s, List<string> names, bool anyTime, bool anyIpc, double totalSeconds)
    {
        var cells = new List<string> { s.Span.Name, s.Count.ToString("N0", CultureInfo.InvariantCulture) };
        if (anyTime)
            cells.Add(totalSeconds > 0 ? (TotalSeconds(s) / totalSeconds).ToString("P1", CultureInfo.InvariantCulture) : "—");
        foreach (string name in names)
        {
            HdrHistogramSnapshot? snapshot = s.Counter(name);
            if (snapshot is null || snapshot.TotalCount == 0)
            {
                cells.AddRange(["—", "—"]);
                continue;
            }

            if (name == CounterNames.AllocatedBytes)
            {
                cells.Add(FormatBytes(AllocatedBytesAt(snapshot, 50)));
                cells.Add(FormatBytes(AllocatedBytesAt(snapshot, 99)));
                continue;
            }

            HdrHistogramSummary summary = snapshot.GetSummary();
            cells.Add(Format(s.Span, name, summary.P50.Value));
            cells.Add(Format(s.Span, name, summary.P99.Value));
        }

        if (anyIpc)
        {
            if (s.Ipc is { TotalCount: > 0 } ipc)
            {
                HdrHistogramSummary summary = ipc.GetSummary();
                cells.AddRange([FormatIpc(summary.P5.Value), FormatIpc(summary.P50.Value), FormatIpc(summary.P95.Value)]);
            }
            else
            {
                cells.AddRange(["—", "—", "—"]);
            }
        }

        cells.Add(s.ThreadHops.ToString("N0", CultureInfo.InvariantCulture));
        return [.. cells];
    }

    private static void AppendNotes(StringBuilder text, List<PerfSpanSnapshot> active)
    {
        // Counters that do not count, one line per reason (with the counter names taken out), naming the spans it applies to.
        var unavailable = active
            .SelectMany(static s => s.Span.Counters
                .Where(static c => !c.IsAvailable)
                .Select(c => (Span: s.Span.Name, c.Name, Reason: c.UnavailableReason)))
            .ToList();
        IEnumerable<(IReadOnlyList<string> Names, string Reason)> byReason =
            UnavailableReasons.Group(unavailable.Select(static u => (u.Name, u.Reason)));
        foreach ((IReadOnlyList<string> names, string reason) in byReason)
        {
            IEnumerable<string> spans = unavailable.Where(u => names.Contains(u.Name)).Select(static u => u.Span).Distinct();
            text.Append("- not counted: ").Append(string.Join(", ", names)).Append(" (").Append(string.Join(", ", spans)).Append("): ")
                .Append(reason).Append('\n');
        }

        foreach (PerfSpanSnapshot s in active.Where(static s => s.UncountedSpans > 0))
        {
            text.Append(ObservationMessages.UncountedSpans(s.Span.Name, s.UncountedSpans));
        }

        if (active.Any(static s => s.ThreadHops > 0))
            text.Append(ObservationMessages.ThreadHops());
    }

    private static double TotalSeconds(PerfSpanSnapshot snapshot)
    {
        HdrHistogramSnapshot? tsc = snapshot.Counter(CounterNames.Tsc);
        return tsc is null || tsc.TotalCount == 0 ? 0 : tsc.GetSummary().Mean * tsc.TotalCount * snapshot.Span.SecondsPerTick;
    }

    private static string Header(string counter) => counter switch
    {
        CounterNames.Tsc => "time",
        CounterNames.AllocatedBytes => "allocated",
        _ => counter,
    };

    private static string Format(PerfSpan span, string counter, ulong value)
    {
        if (counter == CounterNames.Tsc)
            return FormatSeconds(value * span.SecondsPerTick);
        if (counter == CounterNames.AllocatedBytes)
            return FormatBytes(value);
        string unit = span.Counters.First(c => c.Name == counter).Unit;
        return unit == "ns" ? FormatSeconds(value * 1e-9) : value.ToString("N0", CultureInfo.InvariantCulture);
    }

    // A span's allocated bytes are a sum of object sizes, each a multiple of 8 on 64-bit .NET. Where a bucket is at most 8 wide
    // (up to ~1 KiB at 1 % buckets) it holds one multiple of 8, the exact value: the first one from the bucket's start. The
    // bucket's midpoint would show 137 B for a span that allocates exactly 136 B. Above, it stays inside the bucket.
    private static ulong AllocatedBytesAt(HdrHistogramSnapshot snapshot, double rank)
    {
        ulong lower = snapshot.GetPercentile(rank, EquivalentValueSelection.Lower).Value;
        return (lower + 7) & ~7UL;
    }

    private static string FormatSeconds(double seconds) => seconds switch
    {
        < 1e-6 => (seconds * 1e9).ToString("0", CultureInfo.InvariantCulture) + " ns",
        < 1e-3 => (seconds * 1e6).ToString("0.0", CultureInfo.InvariantCulture) + " µs",
        < 1 => (seconds * 1e3).ToString("0.0", CultureInfo.InvariantCulture) + " ms",
        _ => seconds.ToString("0.00", CultureInfo.InvariantCulture) + " s",
    };

    // Span histograms hold two significant digits (1% buckets): bytes are shown at that precision, not as a fake exact count.
    private static string FormatBytes(ulong bytes) => bytes switch
    {
        < 1024 => bytes.ToString("N0", CultureInfo.InvariantCulture) + " B",
        < 1024 * 1024 => (bytes / 1024.0).ToString("0.0", CultureInfo.InvariantCulture) + " KiB",
        _ => (bytes / (1024.0 * 1024)).ToString("0.0", CultureInfo.InvariantCulture) + " MiB",
    };

    private static string FormatIpc(ulong thousandths) => (thousandths / 1000.0).ToString("0.00", CultureInfo.InvariantCulture);
}
