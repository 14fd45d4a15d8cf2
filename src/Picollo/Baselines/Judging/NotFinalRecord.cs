using System.Globalization;
using Picollo.Baselines.Records;
using Picollo.Measurement;

namespace Picollo.Baselines.Judging;

/// <summary>
/// What is written for a measurement whose code was not final (docs/VERDICTS.md, "Code that is not final"): its exact
/// counters (tier-0 code can allocate more than final code, never less, so they never fail unchanged code), and this
/// machine's earlier statistical counters where its entry has them, never time taken from code up to 3.5× slower.
/// </summary>
/// <param name="Record">The record written.</param>
/// <param name="LeftOut">The statistical counters not taken from the measurement.</param>
/// <param name="Exact">The exact counters taken from it.</param>
/// <param name="Kept">This machine's earlier statistical counters kept instead.</param>
/// <param name="EarlierUtc">When those were recorded, or <see langword="null"/>.</param>
internal sealed record NotFinalRecord(BaselineRecord Record, string[] LeftOut, string[] Exact, string[] Kept, DateTime? EarlierUtc)
{
    /// <summary>The record written for <paramref name="measured"/>, or <see langword="null"/> when its code was final.</summary>
    /// <param name="measured">The measurement.</param>
    /// <param name="record">Its record.</param>
    /// <param name="baseline">The baseline file as read, or <see langword="null"/>.</param>
    /// <param name="machine">This machine.</param>
    /// <param name="policy">The rules, which say which counters are exact.</param>
    /// <returns>What is written instead, or <see langword="null"/>.</returns>
    public static NotFinalRecord? For(
        PerfResult measured, BaselineRecord record, BaselineFile? baseline, MachineFingerprint machine, VerdictPolicy policy)
    {
        if (measured.Run.RanFinalCode)
            return null;
        bool Statistical(BaselineCounter c) => policy.GetRule(c.Name, c.Kind).Mode != VerdictMode.Exact;
        BaselineCounter[] exact = [.. record.Counters.Where(c => !Statistical(c))];
        BaselineEntry? earlier = baseline?.Entries.FirstOrDefault(e => e.Machine.Id == machine.Id);
        BaselineCounter[] kept =
        [
            .. (earlier?.Record.Counters ?? []).Where(c => Statistical(c) && !exact.Any(e => e.Name == c.Name)),
        ];
        return new NotFinalRecord(
            record with { Counters = [.. exact, .. kept] },
            [.. record.Counters.Where(Statistical).Select(static c => c.Name)],
            [.. exact.Select(static c => c.Name)],
            [.. kept.Select(static c => c.Name)],
            kept.Length > 0 ? earlier!.Record.RecordedUtc : null);
    }

    /// <summary>The notice that says what <paramref name="entry"/> holds and what it left out.</summary>
    /// <param name="entry">"The baseline entry" or "The received entry".</param>
    /// <param name="notes">The run's notes on its code.</param>
    /// <returns>The notice.</returns>
    public string Notice(string entry, string notes)
    {
        if (LeftOut.Length == 0)
            return BaselineMessages.RecordedExactFromCodeNotFinal(entry, notes, string.Join(", ", Exact));
        string? earlier = EarlierUtc?.ToString("yyyy-MM-dd HH:mm 'UTC'", CultureInfo.InvariantCulture);
        string[] named = earlier is null ? LeftOut : Kept;
        return BaselineMessages.RecordedFromCodeNotFinal(entry, notes, string.Join(", ", named), string.Join(", ", Exact), earlier);
    }

    /// <summary>
    /// A measurement of the body's final code: <paramref name="measured"/>, or, when its warmup never saw it, one more.
    /// </summary>
    /// <param name="measured">The measurement.</param>
    /// <param name="remeasurements">Where a second measurement is told.</param>
    /// <param name="remeasure">Measures a measurement's body again.</param>
    /// <returns>The measurement to judge.</returns>
    public static PerfResult FinalCode(PerfResult measured, List<string> remeasurements, Func<PerfResult, PerfResult> remeasure)
    {
        if (measured.Run.RanFinalCode || !measured.CanRemeasure)
            return measured;
        PerfResult again = remeasure(measured);
        remeasurements.Add(BaselineMessages.MeasuredAgainForFinalCode(string.Join(" ", measured.Run.Notes), again.Run.RanFinalCode));
        return again;
    }
}
