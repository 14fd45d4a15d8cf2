using System.Collections.ObjectModel;
using System.Globalization;
using System.Text;
using Picollo.Counters;
using Picollo.Text;

namespace Picollo.Measurement;

/// <summary>
/// A reference and a candidate measured in pairs (<see cref="Perf.Compare(PerfOptions, Action, Action)"/>): each side's
/// <see cref="PerfResult"/>, and per counter a <see cref="PairedCounter"/>, the candidate over the reference. Assertions
/// such as <c>c.Tsc.ShouldBeFasterBy(1.5)</c> that cannot settle a claim from one measurement measure both sides again
/// and pool the pairs into this comparison, so its counters always show everything measured.
/// </summary>
/// <example>
/// <code>
/// PerfComparison c = Perf.Compare(input, static s => Naive.Parse(s), static s => Fast.Parse(s));
/// c.Tsc.ShouldBeFasterBy(1.5);             // the candidate at least 1.5× faster, with 99% confidence
/// c.AllocatedBytes.ShouldNotIncrease();    // exact
/// Console.WriteLine(c.ToMarkdown());       // both sides' summaries and the paired table
/// </code>
/// </example>
public sealed class PerfComparison
{
    private readonly List<(PerfResult Reference, PerfResult Candidate)> _measurements = [];
    private readonly Func<(PerfResult Reference, PerfResult Candidate)>? _measure;

    // Why each measurement set aside was: either side ran code that was not final. Such a measurement is not pooled, as a
    // body at tier 0 and at tier 1 are two speeds (docs/VERDICTS.md, "Paired comparisons").
    private readonly List<string> _setAside = [];
    private ReadOnlyCollection<PairedCounter>? _counters;

    internal PerfComparison(
        (PerfResult Reference, PerfResult Candidate) first, Func<(PerfResult Reference, PerfResult Candidate)>? measure,
        string referenceName = "reference", string candidateName = "candidate")
    {
        _measurements.Add(first);
        _measure = measure;
        ReferenceName = referenceName;
        CandidateName = candidateName;
    }

    /// <summary>What the reports call the reference: "reference", or the reference method's name.</summary>
    public string ReferenceName { get; }

    /// <summary>What the reports call the candidate: "candidate", or the test method's name.</summary>
    public string CandidateName { get; }

    /// <summary>The reference's result of the latest measurement.</summary>
    public PerfResult Reference => _measurements[^1].Reference;

    /// <summary>The candidate's result of the latest measurement.</summary>
    public PerfResult Candidate => _measurements[^1].Candidate;

    /// <summary>The measurements pooled into this comparison: 1, more once an assertion measured again.</summary>
    public int Measurements => _measurements.Count;

    /// <summary>The pairs of samples over all measurements.</summary>
    public int Pairs => _measurements.Sum(static m => m.Reference.SampleCount);

    /// <summary>The wall time of all measurements, warmups included.</summary>
    public TimeSpan WallTime => TimeSpan.FromTicks(_measurements.Sum(static m => m.Reference.WallTime.Ticks));

    /// <summary>
    /// The most measurements of code that was not final an assertion sets aside (measuring again instead) before it judges
    /// what it has: one, as a stored-baseline verdict measures again once. In a test host busy with other tests, where the
    /// JIT is rarely quiet, the warmups of a comparison ended at their cap three times in a row: more tries cost a whole
    /// measurement each and seldom find what the second did not.
    /// </summary>
    internal const int MaxSetAside = 1;

    /// <summary>Whether both sides of the latest measurement ran their final code (<see cref="PerfRunInfo.RanFinalCode"/>).</summary>
    internal bool RanFinalCode => Reference.Run.RanFinalCode && Candidate.Run.RanFinalCode;

    /// <summary>Why each measurement set aside by <see cref="MeasureFinalCode"/> was: the notes of its run.</summary>
    internal IReadOnlyList<string> SetAside => _setAside;

    /// <summary>Whether an assertion can measure both sides again (a comparison from <see cref="Perf"/>.Compare can).</summary>
    public bool CanMeasureAgain => _measure is not null;

    /// <summary>One paired counter per requested counter, in request order, available or not.</summary>
    public IReadOnlyList<PairedCounter> Counters => _counters ??= new ReadOnlyCollection<PairedCounter>(
        [.. Reference.Counters.Select((c, i) =>
            new PairedCounter(this, [.. _measurements.Select(m => (m.Reference.Counters[i], m.Candidate.Counters[i]))]))]);

    /// <summary>A counter by name (case-insensitive; perf aliases resolve as on <see cref="PerfResult"/>).</summary>
    /// <param name="counterName">The counter's name.</param>
    /// <returns>The paired counter; one that says it was not measured when neither side measured it.</returns>
    public PairedCounter this[string counterName]
    {
        get
        {
            ArgumentNullException.ThrowIfNull(counterName);
            string name = Reference[counterName].Name;
            foreach (PairedCounter counter in Counters)
            {
                if (string.Equals(counter.Name, name, StringComparison.OrdinalIgnoreCase))
                    return counter;
            }

            return new PairedCounter(this, [.. _measurements.Select(m => (m.Reference[counterName], m.Candidate[counterName]))]);
        }
    }

    /// <summary>The time-stamp counter, ticks per operation.</summary>
    public PairedCounter Tsc => this[CounterNames.Tsc];

    /// <summary>
    /// Wall time from the runtime's clock, nanoseconds per operation: the time counter of the default set where <c>tsc</c>
    /// cannot count (Windows, macOS, Arm64).
    /// </summary>
    public PairedCounter Clock => this[CounterNames.Clock];

    /// <summary>CPU cycles per operation.</summary>
    public PairedCounter Cycles => this[CounterNames.Cycles];

    /// <summary>Instructions per operation.</summary>
    public PairedCounter Instructions => this[CounterNames.Instructions];

    /// <summary>Branch misses per operation.</summary>
    public PairedCounter BranchMisses => this[CounterNames.BranchMisses];

    /// <summary>Thread CPU time (task-clock), ns per operation.</summary>
    public PairedCounter TaskClock => this[CounterNames.TaskClock];

    /// <summary>Allocated bytes per operation.</summary>
    public PairedCounter AllocatedBytes => this[CounterNames.AllocatedBytes];

    /// <summary>Generation-0 collections per operation.</summary>
    public PairedCounter Gen0Collections => this[CounterNames.Gen0Collections];

    /// <summary>
    /// The comparison in markdown: a line of what was measured, the notes of both sides, the paired table (each side's P10
    /// and P50 per operation, the ratio, its interval, Cohen's d_z, the change), then each side's time counters' tables.
    /// </summary>
    /// <returns>The text, "\n" line ends.</returns>
    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture,
            $"{CandidateName} vs {ReferenceName}: {Pairs:N0} pairs × {Reference.OperationsPerSample:N0} operations in {Measurements} " +
            $"measurement{(Measurements == 1 ? string.Empty : "s")}, {WallTime.TotalMilliseconds:N0} ms, in pairs (ABBA)\n\n");
        foreach (string note in Reference.Run.Notes)
            text.Append("Note: ").Append(note).Append("\n\n");
        text.Append(PairedTable());
        text.Append(Label("reference", ReferenceName)).Append(Side(Reference));
        text.Append(Label("candidate", CandidateName)).Append(Side(Candidate));
        return text.ToString();
    }

    /// <summary>The paired table alone: one row per available counter, then one line per unavailable counter.</summary>
    /// <returns>The table, a blank line after it.</returns>
    public string PairedTable()
    {
        var table = new MarkdownTable(
            ("counter", false), ("unit/op", false), ($"{ReferenceName} P10", true), ($"{CandidateName} P10", true),
            ($"{ReferenceName} P50", true), ($"{CandidateName} P50", true),
            ("ratio", true), ("interval", true), ("d_z", true), ("change", false));
        var text = new StringBuilder();
        foreach (PairedCounter c in Counters.Where(static c => c.IsAvailable))
        {
            string interval = c.IsExact ? "exact"
                : c.IsOccasional ? "means"
                : string.Create(CultureInfo.InvariantCulture, $"{c.Low:0.000}–{c.High:0.000}× ({c.Confidence * 100:0.#}%)");
            string dz = double.IsNaN(c.CohensDz) ? string.Empty : c.CohensDz.ToString("0.00", CultureInfo.InvariantCulture);
            bool means = c.IsExact || c.IsOccasional;
            table.AddRow(c.Name, c.Unit,
                Number(means ? c.ReferenceMean : c.Reference.GetPercentile(10)),
                Number(means ? c.CandidateMean : c.Candidate.GetPercentile(10)),
                means ? string.Empty : Number(c.Reference.P50), means ? string.Empty : Number(c.Candidate.P50),
                double.IsFinite(c.Ratio) ? c.Ratio.ToString("0.000×", CultureInfo.InvariantCulture) : "—", interval, dz,
                PairedCounter.Words(c.Change, c.IsTimeLike));
        }

        table.WriteTo(text, string.Create(
            CultureInfo.InvariantCulture,
            $"Paired: {CandidateName} / {ReferenceName}, {Pairs:N0} pairs (exact and occasional counters: means per operation)"));
        // One line per reason: without a PMU every hardware counter gives the same long one, naming itself ('cycles').
        foreach (IGrouping<string, PairedCounter> group in Counters.Where(static c => !c.IsAvailable)
            .GroupBy(static c => (c.UnavailableReason ?? "no reason given").Replace($"'{c.Name}'", "each", StringComparison.Ordinal)))
        {
            string names = string.Join(", ", group.Select(static c => c.Name));
            text.Append(CultureInfo.InvariantCulture, $"Unavailable: {names} ({group.Key})\n");
        }

        if (Counters.Any(static c => !c.IsAvailable))
            text.Append('\n');
        foreach (string notes in _setAside)
            text.Append(MeasurementMessages.ComparisonSetAside(notes)).Append('\n');
        if (_setAside.Count > 0)
        {
            string? notFinal = RanFinalCode ? null : string.Join(" ", Reference.Run.Notes);
            text.Append(MeasurementMessages.ComparisonMeasuredAgain(_setAside.Count, notFinal)).Append("\n\n");
        }

        return text.ToString();
    }

    /// <inheritdoc/>
    public override string ToString() => $"{CandidateName} vs {ReferenceName}: {Pairs:N0} pairs, " +
        string.Join("; ", Counters.Where(static c => c.IsAvailable && c.IsTimeLike).Select(static c => c.ToString()));

    /// <summary>Measures both sides again and pools the new pairs into this comparison.</summary>
    /// <exception cref="InvalidOperationException">The comparison was not made by <see cref="Perf"/>.Compare.</exception>
    internal void MeasureAgain()
    {
        if (_measure is null)
            throw new InvalidOperationException("Only comparisons made by Perf.Compare can be measured again.");
        _measurements.Add(_measure());
        _counters = null;
    }

    /// <summary>
    /// Measures both sides again in place of the latest measurement while either side's code was not final, up to
    /// <see cref="MaxSetAside"/> times in all: the claims judge the final code's pairs, not a mix of two speeds.
    /// </summary>
    internal void MeasureFinalCode()
    {
        while (!RanFinalCode && _measure is not null && _setAside.Count < MaxSetAside)
        {
            _setAside.Add(string.Join(" ", Reference.Run.Notes));
            _measurements[^1] = _measure();
            _counters = null;
        }
    }

    // Each side's distribution of the time counters; the exact and occasional ones are in the paired table as means.
    private static string Side(PerfResult result)
    {
        var text = new StringBuilder();
        foreach (CounterResult counter in result.Counters.Where(static c => c.IsAvailable && KnownCounters.Of(c.Name, c.Kind).IsTimeLike))
            text.Append(counter.ToMarkdown());
        return text.ToString();
    }

    private static string Label(string side, string name) => name == side ? $"The {side}:\n\n" : $"The {side}, {name}:\n\n";

    private static string Number(double value) => value.ToString("#,0.###", CultureInfo.InvariantCulture);
}
