using System.Globalization;

namespace Picollo.Baselines.Rules;

/// <summary>
/// The words of a counter's verdict against its baseline: why a counter was not compared, and what a time
/// verdict allowed for in the measurement's conditions, phrase by phrase, as the verdict line shows them
/// (<c>allowing +37% (the slowest level recorded in 4 processes, +37%)</c>); and the policy's threshold errors.
/// <see cref="BaselineComparer"/>, <see cref="TimeAllowance"/> and <see cref="VerdictPolicy"/> decide; this class words
/// it. Each kind is shown in <c>Approved/VerdictMessages.approved.md</c>; the verdict lines as a whole stay checked by
/// <c>Approved/Verdict.Allowances.approved.md</c>.
/// </summary>
internal static class VerdictMessages
{
    /// <summary>Page faults of a body that allocates are not compared: they follow the collector's heap, not the code.</summary>
    public static string PageFaultsOfAnAllocatingBody() =>
        "not compared: the body allocates, and the collector's page faults follow its heap, not the code "
        + "(allocated-bytes is compared exactly)";

    /// <summary>Why a counter cannot be compared: one side measured single operations, the other means of several.</summary>
    /// <param name="before">The baseline's operations per sample.</param>
    /// <param name="after">The measurement's.</param>
    public static string OperationsPerSampleChanged(double before, double after) => string.Create(CultureInfo.InvariantCulture,
        $"operations per sample changed between 1 and more ({before:0.##} → {after:0.##}), so one is a per-operation "
        + $"distribution and the other a distribution of means");

    /// <summary>Too few samples to bound even the median: the counter is inconclusive.</summary>
    /// <param name="samples">The samples the two sides have in common.</param>
    public static string TooFewSamples(long samples) => string.Create(CultureInfo.InvariantCulture,
        $"inconclusive: {samples} samples are too few to bound even the median (8 are needed); give the measurement a longer "
        + $"TimeBudget or fewer operations per sample");

    /// <summary>What a time verdict allowed, and the parts that make it up; only the parts when they only correct.</summary>
    /// <param name="high">How much slower unchanged code may run, on a log scale (0 when the parts only correct).</param>
    /// <param name="parts">The parts, one phrase each.</param>
    public static string Allowing(double high, IReadOnlyList<string> parts)
    {
        ArgumentNullException.ThrowIfNull(parts);
        return high > 0
            ? string.Create(CultureInfo.InvariantCulture, $"allowing {Percent(Math.Exp(high) - 1)} ({string.Join("; ", parts)})")
            : string.Join("; ", parts);
    }

    /// <summary>An allowance part: the levels the recording saw across processes, up to the slowest.</summary>
    /// <param name="processes">The processes recorded.</param>
    /// <param name="spread">The slowest level over the fastest.</param>
    public static string SlowestLevelRecorded(int processes, double spread) => string.Create(CultureInfo.InvariantCulture,
        $"the slowest level recorded in {processes} process{(processes == 1 ? string.Empty : "es")}, {Percent(spread - 1)}");

    /// <summary>An allowance part: the allocation reference ran slower than at recording, a bound on an allocating body.</summary>
    /// <param name="then">The reference at recording, ns per allocation.</param>
    /// <param name="now">The reference now.</param>
    /// <param name="drift">ln(now / then).</param>
    public static string AllocationReferenceSlower(double? then, double? now, double drift) => string.Create(CultureInfo.InvariantCulture,
        $"the allocation reference ran {By(drift)} than at recording ({then:0.##} → {now:0.##} ns per allocation), "
        + $"up to {Percent(Math.Exp(drift) - 1)}");

    /// <summary>An allowance part: an allocating body's time scaled by the allocation reference, which ran faster now.</summary>
    /// <param name="then">The reference at recording, ns per allocation.</param>
    /// <param name="now">The reference now.</param>
    /// <param name="drift">ln(now / then).</param>
    public static string ScaledByAllocationReference(double? then, double? now, double drift) => string.Create(CultureInfo.InvariantCulture,
        $"scaled by the allocation reference ({then:0.##} → {now:0.##} ns per allocation, {By(drift)})");

    /// <summary>An allowance part: the machine ran slower than at recording (a host's slow mode).</summary>
    /// <param name="then">The reference loop at recording, ns per 1,000 steps.</param>
    /// <param name="now">The reference loop now.</param>
    /// <param name="drift">ln(now / then).</param>
    public static string MachineSlower(double? then, double? now, double drift) => string.Create(CultureInfo.InvariantCulture,
        $"the machine ran {By(drift)} than at recording (a reference loop {then:0.#} → {now:0.#} ns per 1,000 steps)");

    /// <summary>An allowance part: the machine ran faster than at recording, so a regression that size may hide in it.</summary>
    /// <param name="then">The reference loop at recording, ns per 1,000 steps.</param>
    /// <param name="now">The reference loop now.</param>
    /// <param name="drift">ln(now / then), below 0.</param>
    public static string MachineFaster(double? then, double? now, double drift) => string.Create(CultureInfo.InvariantCulture,
        $"the machine ran {By(drift)} than at recording (a reference loop {then:0.#} → {now:0.#} ns per 1,000 steps), "
        + $"so a regression up to {Percent(Math.Exp(-drift) - 1)} may hide in it");

    /// <summary>An allowance part: the host ran branchy code slower than at recording.</summary>
    /// <param name="then">The branchy reference at recording, ns per 1,000 characters.</param>
    /// <param name="now">The branchy reference now.</param>
    /// <param name="drift">ln(now / then).</param>
    /// <param name="beyondCore">ln of how much more than the core reference loop it slowed (equal to
    /// <paramref name="drift"/> when the core loop did not slow).</param>
    /// <param name="followed">How far this body followed the branchy reference between the test's own measurements, when they
    /// showed it following less than assumed (<see cref="JudgementPolicy.BranchFollow"/>); <see langword="null"/> otherwise.</param>
    /// <param name="bound">What it allows, on a log scale.</param>
    public static string BranchyCodeSlower(double? then, double? now, double drift, double beyondCore, double? followed, double bound)
    {
        string core = beyondCore < drift - 0.005
            ? string.Create(CultureInfo.InvariantCulture, $", {(Math.Exp(beyondCore) - 1) * 100:0}% more than the reference loop")
            : string.Empty;
        string follow = followed is { } k
            ? string.Create(
                CultureInfo.InvariantCulture, $"; between this test's measurements this body's time moved with it at a slope of {k:0.0#}")
            : string.Empty;
        return string.Create(CultureInfo.InvariantCulture,
            $"branchy code ran {By(drift)} than at recording (a reference word count {then:0.#} → {now:0.#} ns per 1,000 "
            + $"characters{core}{follow}), up to {Percent(Math.Exp(bound) - 1)}");
    }

    /// <summary>An allowance part: the host ran branchy code faster than at recording, so a regression may hide in it.</summary>
    /// <param name="then">The branchy reference at recording, ns per 1,000 characters.</param>
    /// <param name="now">The branchy reference now.</param>
    /// <param name="drift">ln(now / then), below 0.</param>
    public static string BranchyCodeFaster(double? then, double? now, double drift) => string.Create(CultureInfo.InvariantCulture,
        $"branchy code ran {By(drift)} than at recording (a reference word count {then:0.#} → {now:0.#} ns per 1,000 "
        + $"characters), so a regression up to {Percent(Math.Exp(-drift) - 1)} may hide in it");

    /// <summary>An allowance part: other processes kept the machine busy while it measured.</summary>
    /// <param name="otherCores">Their load, in cores.</param>
    /// <param name="processorCount">The machine's cores.</param>
    /// <param name="bound">What they allow, as a factor (1.15 = +15 %).</param>
    public static string OtherProcessesBusy(double otherCores, int processorCount, double bound) => string.Create(
        CultureInfo.InvariantCulture,
        $"other processes used {otherCores:0.00} of {processorCount} cores, up to {Percent(bound - 1)}");

    /// <summary>
    /// An allowance part: other processes kept the machine busy now and when the baseline was recorded, so only how much
    /// their effect varies, or the load beyond the recording's, is allowed.
    /// </summary>
    /// <param name="otherCores">Their load now, in cores.</param>
    /// <param name="recordedCores">Their load at recording, in cores.</param>
    /// <param name="processorCount">The machine's logical cores.</param>
    /// <param name="bound">The factor allowed.</param>
    public static string OtherProcessesBusyAsRecorded(double otherCores, double recordedCores, int processorCount, double bound) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"other processes used {otherCores:0.00} of {processorCount} cores, as beside the recording ({recordedCores:0.00}), " +
            $"up to {Percent(bound - 1)}");

    /// <summary>An allowance part: the parts together were capped, so a gross regression still fails.</summary>
    /// <param name="most">The cap, on a log scale.</param>
    public static string AtMostInAll(double most) =>
        string.Create(CultureInfo.InvariantCulture, $"at most {Percent(Math.Exp(most) - 1)} in all");

    /// <summary>
    /// An allowance part: an earlier measurement of the same judgement met the host's slower branchy state, which may
    /// linger in the body, and this one keeps what that state was allowed.
    /// </summary>
    /// <param name="earlier">The earlier measurement's branchy part, on a log scale.</param>
    public static string AsEarlierBranchyState(double earlier) => string.Create(CultureInfo.InvariantCulture,
        $"the host's branchy state of an earlier measurement of this test, which may linger, up to {Percent(Math.Exp(earlier) - 1)}");

    /// <summary>A relative change threshold out of range.</summary>
    public static string ChangeThresholdOutOfRange() =>
        "The relative change threshold must be a finite number of 0 or more (0.05 = 5 %).";

    /// <summary>A confidence out of range.</summary>
    public static string ConfidenceOutOfRange() =>
        "The confidence must lie in [0.5, 0.9999] (0.95 = one measurement 95 % sure that a change is real).";

    /// <summary>A Cohen's d gate out of range.</summary>
    public static string CohensDGateOutOfRange() =>
        "Cohen's d gate must lie in (0, 10]: an effect size of the floors, in units of their own spread "
        + "(docs/VERDICTS.md, \"Cohen's d\").";

    // "12% slower" / "30% faster" for a drift on a log scale.
    private static string By(double drift) =>
        string.Create(CultureInfo.InvariantCulture, $"{(Math.Exp(Math.Abs(drift)) - 1) * 100:0}% {(drift > 0 ? "slower" : "faster")}");

    private static string Percent(double change) => string.Create(CultureInfo.InvariantCulture, $"+{change * 100:0}%");
}
