namespace Picollo.Baselines;

/// <summary>How one counter is judged against its baseline.</summary>
/// <param name="Mode">Exact or statistical.</param>
/// <param name="Statistic">The statistic compared (and whose change is reported).</param>
/// <param name="MinRelativeChange">
/// <see cref="VerdictMode.Statistical"/>: the relative change of <paramref name="Statistic"/> (0.08 = 8 %) at or above
/// which a change matters: the practical threshold. Ignored by <see cref="VerdictMode.Exact"/>.
/// </param>
/// <param name="Confidence">
/// <see cref="VerdictMode.Statistical"/>: how sure one measurement must be that the change is real, one-sided (0.95: the
/// change is at least 1.645 times its own noise). A regression must also show in a second measurement before a test fails.
/// </param>
/// <param name="Drift">
/// <see cref="VerdictMode.Statistical"/>: the relative standard deviation of the statistic between two runs of unchanged
/// code on one machine (0.021 = 2.1 %). No run can see it in its own samples, so it is part of every comparison's noise;
/// a baseline recorded with more drift than this uses its own.
/// </param>
/// <remarks>
/// Higher is worse for every counter Picollo measures (time, cycles, instructions, misses, bytes), so a regression is a
/// rise and an improvement a fall. A statistical counter regresses when its statistic rises by at least
/// <paramref name="MinRelativeChange"/> AND the rise, on a log scale, is at least z(<paramref name="Confidence"/>) times its
/// noise: the two sides' precision (from their samples) and <paramref name="Drift"/>. The defaults and the experiment
/// behind them are in docs/VERDICTS.md.
/// </remarks>
public sealed record CounterVerdictRule(
    VerdictMode Mode, BaselineStatistic Statistic, double MinRelativeChange, double Confidence, double Drift)
{
    /// <summary>
    /// <see cref="VerdictMode.Statistical"/>: the rise of <see cref="Statistic"/> per operation, in the counter's unit, below
    /// which a change does not matter however large it is relatively (0 by default: only <see cref="MinRelativeChange"/>).
    /// A counter that was 0 rises by an infinite ratio with its first event; this is what keeps one page fault in 6,500
    /// operations from failing a test.
    /// </summary>
    public double MinAbsoluteChange { get; init; }

    /// <summary>
    /// <see cref="VerdictMode.Statistical"/>, time-like counters: an opt-in gate on Cohen's d of the floor (the lowest quarter
    /// of each side's samples, log scale, beyond what the conditions allow; docs/VERDICTS.md, "Cohen's d"). A regression
    /// then also needs d above this value (the largest effect a change may have and still pass, in units of the floors' own
    /// spread; a tight floor makes any real change read large), on top of the
    /// threshold, z and the confirming measurement, never instead of them; an improvement needs d below its negative.
    /// <see langword="null"/> (the default): no gate, d is reported only.
    /// </summary>
    public double? MaxCohensD { get; init; }

    /// <summary>Exact comparison of P50: deterministic runtime counters (allocated bytes, GC counts, JIT).</summary>
    public static CounterVerdictRule Exact { get; } = new(VerdictMode.Exact, BaselineStatistic.P50, 0, 0, 0);

    /// <summary>
    /// Time-like counters (TSC, cycles, task-clock): the floor (P10) rises by 8 % or more and by at least two units (ticks,
    /// cycles, ns) per operation, at 95 % confidence. Below that a process resolves nothing it can carry to the next: the
    /// calibrated loop costs about a cycle per operation and varies by that much (a body of a few ticks read 0 → 0.94 ticks
    /// per operation, "+∞ %"), and where the JIT places a body of a few nanoseconds moves it by 1–2 ticks from one process
    /// to the next (int.Parse of five digits: 7.4 → 8.7 ticks, FNV over 16 bytes: 10.8 → 12.4, unchanged, on a quiet
    /// machine). Judge such a body finer by measuring a batch of calls per operation.
    /// </summary>
    public static CounterVerdictRule Time { get; } =
        new(VerdictMode.Statistical, BaselineStatistic.P10, 0.08, 0.95, 0.021) { MinAbsoluteChange = 2 };

    /// <summary>
    /// Simulated instructions, branches and cycles (<see cref="Counters.CounterKind.Simulated"/>): near-exact. Their P50 per
    /// operation may move by 0.1 %, or by four times the difference the recording measured between two processes when that
    /// is more; beyond it a rise is a regression and a fall an improvement, with no confirming measurement: counted under
    /// simulation they repeat to within 0.005 % from one process to the next (docs/VERDICTS.md, "Simulated counters"), and
    /// no machine speed, busy neighbour or level moves them.
    /// </summary>
    public static CounterVerdictRule SimulatedCount { get; } = new(VerdictMode.Exact, BaselineStatistic.P50, 0.001, 0, 0);

    /// <summary>
    /// Simulated branch and cache misses: near-exact as <see cref="SimulatedCount"/>, with 1 % and at least 0.05 misses per
    /// operation: a predictor's or cache's count moves with the addresses code and data land at, which the worker keeps
    /// fixed, but a body whose misses are a few per operation moves by a few hundredths between processes.
    /// </summary>
    public static CounterVerdictRule SimulatedMisses { get; } =
        new(VerdictMode.Exact, BaselineStatistic.P50, 0.01, 0, 0) { MinAbsoluteChange = 0.05 };

    /// <summary>Instruction and branch counts, near-deterministic: P50 rises by 1 % or more, at 95 % confidence.</summary>
    public static CounterVerdictRule Instructions { get; } = new(VerdictMode.Statistical, BaselineStatistic.P50, 0.01, 0.95, 0.002);

    /// <summary>Everything else (cache and branch misses), noisier: P50 rises by 10 % or more, at 95 % confidence.</summary>
    public static CounterVerdictRule Other { get; } = new(VerdictMode.Statistical, BaselineStatistic.P50, 0.10, 0.95, 0.03);

    /// <summary>
    /// Events that land in some samples only (garbage collections, lock contentions, page faults): the events per operation
    /// (the mean) rise by 10 % or more and by at least one event per 1,000 operations, at 95 % confidence (counted as
    /// Poisson events). Their per-sample median is 0 or 1 by chance.
    /// </summary>
    /// <remarks>
    /// Below one event per 1,000 operations these counts follow the runtime and the kernel more than the code: an
    /// unchanged allocating body page-faulted 0 times in 3 million operations in one run and once per garbage collection
    /// (1 in 6,500 operations) in the next, when the collector handed out memory it had returned to the system. A body's
    /// allocations are compared exactly by <c>allocated-bytes</c>; for a stricter check of rare events set
    /// <see cref="MinAbsoluteChange"/> to 0 with <c>with</c>, or assert a zero budget.
    /// </remarks>
    public static CounterVerdictRule Occasional { get; } =
        new(VerdictMode.Statistical, BaselineStatistic.Mean, 0.10, 0.95, 0.03) { MinAbsoluteChange = 0.001 };
}
