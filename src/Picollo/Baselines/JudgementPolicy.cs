using Picollo.Baselines.Judging;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
namespace Picollo.Baselines;

/// <summary>
/// Every tuning number of the stored-baseline verdict rules in one place (docs/VERDICTS.md, "The policy in one table"),
/// beside the per-counter thresholds of <see cref="CounterVerdictRule"/>: what a verdict allows for the conditions of a
/// measurement (<see cref="TimeAllowance"/>), how a recording finds a steady moment (<see cref="SteadyRecording"/>) and
/// combines levels (<see cref="TimeSpread"/>), how far a body follows the branchy reference (<see cref="BranchFollowing"/>),
/// the machine's speed memory (<see cref="MachineSpeedMemory"/>) and the detectable change
/// (<see cref="BaselineComparer"/>). The machine's core count is an input (<see cref="Cores"/>), so a verdict can be
/// worked out for another machine than the one it runs on.
/// </summary>
/// <remarks>
/// docs/VERDICTS.md's table lists every property with its value, and a test reads it back, so the page and the code
/// cannot drift apart. A <see cref="VerdictPolicy"/> carries one (<see cref="VerdictPolicy.Judgement"/>).
/// </remarks>
internal sealed record JudgementPolicy
{
    /// <summary>The rules as measured and documented, on this machine's core count.</summary>
    public static JudgementPolicy Default { get; } = new() { Cores = Environment.ProcessorCount };

    /// <summary>The machine's logical cores, an input: busy load is a share of them (docs/VERDICTS.md, "Other processes").</summary>
    /// <remarks>
    /// An input, not a rule: <see cref="Default"/> reads the machine's once. Whether the machine counts as busy at all is
    /// decided a layer below (Measurement/MachineLoad), on the machine's own count.
    /// </remarks>
    public required int Cores { get; init; }

    /// <summary>A speed move beyond this bounds a verdict; within it, it joins σ (docs/VERDICTS.md, "Machines and their speed").</summary>
    /// <remarks>
    /// 15 %. The reference loop itself varies by about ±4 % from one measurement to the next (bench verdicts: P10–P90
    /// 1,082–1,140 ns), and a 5 % gate discarded real detections on that jitter alone. A recording's level at another
    /// machine speed beyond it is left out of the spread (<see cref="TimeSpread"/>).
    /// </remarks>
    public double MachineSpeedTolerance { get; init; } = 0.15;

    /// <summary>The share of an allocation correction counted in σ (docs/VERDICTS.md, "Allocation speed").</summary>
    /// <remarks>
    /// 25 %: over 53 measurements beside a busy core the body's floor followed the reference with a slope of 1.04
    /// (correlation 0.81), and across the host's allocation episodes it slowed 1.70× where the reference slowed 1.82×
    /// (slope 0.88). A correction by a ratio q then carries 0.25 · |ln q| of uncertainty in σ.
    /// </remarks>
    public double AllocationUncertainty { get; init; } = 0.25;

    /// <summary>An allocation reference slower by more than this bounds, not corrects (docs/VERDICTS.md, "Allocation speed").</summary>
    /// <remarks>
    /// 2 %: dividing by the ratio trusts the body to follow the reference, and in the reference's own slow episodes it did
    /// not, so unchanged code read as an improvement. A faster reference beyond it is named in the verdict line.
    /// </remarks>
    public double AllocationBoundFrom { get; init; } = 0.02;

    /// <summary>How far branchy code may follow the branchy reference, log scale (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// 1.5. When the host slowed branchy code on the development VM, a word count over 64 words ran 1.76× slower where a
    /// word count over another text ran 1.56× (a slope of 1.27 on a log scale), and a loop of unpredictable branches 1.61×.
    /// </remarks>
    public double BranchFollow { get; init; } = 1.5;

    /// <summary>The branchy reference's own jitter, which allows nothing (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// About ±4 % on the development VM: beyond it only the part past it counts, times <see cref="BranchFollow"/>. The
    /// practical threshold covers what that leaves: a reference 10 % slower allows +9 %, where a body following it with the
    /// measured slope runs 13 % slower, 4 % short of the 8 % that would count.
    /// </remarks>
    public double BranchJitter { get; init; } = 0.04;

    /// <summary>The most the branchy reference allows, so a gross regression fails beside it (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// 2×. The host's slow state slowed branchy bodies 1.6-1.8×; a reference that reads slower than that is more likely
    /// slow on its own (where its own code landed in this process) than a host slowing every branchy body further, and an
    /// uncapped bound would let a 3× regression pass beside it.
    /// </remarks>
    public double BranchCap { get; init; } = 2.0;

    /// <summary>The most all conditions allow, so a 3× body fails (docs/VERDICTS.md, "What a verdict allows for").</summary>
    /// <remarks>
    /// 2.5×. The host's branchy state (up to 2×), a busy machine (1.15-1.23×), the allocation reference and the spread
    /// multiply; a 3× regression must fail beside any of them, and the 8 % threshold beyond 2.5× still passes unchanged
    /// code at 2.7×.
    /// </remarks>
    public double MostAllowed { get; init; } = 2.5;

    /// <summary>A branchy reference moved this far is other conditions (docs/VERDICTS.md, "What a verdict allows for").</summary>
    /// <remarks>
    /// 10 %: a verdict with the reference moved that far is worth measuring again; a recording's level with it moved that
    /// far from the fast state is left out of the spread; a slope is learned only from a move at least that large
    /// (<see cref="BranchFollowing.Slope"/>).
    /// </remarks>
    public double BranchTolerance { get; init; } = 0.10;

    /// <summary>What busy other processes allow per share of the other cores (docs/VERDICTS.md, "Other processes").</summary>
    /// <remarks>
    /// +15 %, measured on the 2-vCPU development VM (bench/RESULTS.md, "Levels: notes"): beside a `dotnet build` loop or a
    /// spinning process, 20 of 24 measurements of a branchy body (`Words.Count`) and an allocating one (`Words.Tokenize`)
    /// stayed within 6 % of the quiet levels measured right after, an arithmetic chain all of them; the other four read +17
    /// to +47 %, values the same bodies also read in quiet processes that day (the host's levels, which the recorded spread
    /// and the fresh processes of a confirmation answer). A regression needs two measurements of the process and three
    /// fresh processes beyond the allowance, so a neighbour's burst is not enough.
    /// </remarks>
    public double BusyShare { get; init; } = 0.15;

    /// <summary>What busy processes allow a baseline recorded beside them, per share (docs/VERDICTS.md, "Other processes").</summary>
    /// <remarks>
    /// +6 % at one fully busy other core, for a baseline recorded beside busy processes too: the 6 % the measurements behind
    /// <see cref="BusyShare"/> stayed within. Bench verdicts' other-process cell, recorded and judged beside a spinning
    /// process: unchanged code read −6.6 … +9.5 % against its baseline, and the full <see cref="BusyShare"/> on a floor
    /// that already held the neighbour let +25 … +28 % regressions pass.
    /// </remarks>
    public double BusyVariation { get; init; } = 0.06;

    /// <summary>A band change too small to cut or widen it (docs/VERDICTS.md, "What a verdict allows for").</summary>
    /// <remarks>
    /// 0.005, half a percent: the band is cut to <see cref="MostAllowed"/> only when it reaches past it by more, and a
    /// later measurement keeps an earlier one's wider branchy part only when it is wider by more.
    /// </remarks>
    public double NegligibleBandChange { get; init; } = 0.005;

    /// <summary>The share of a rule's threshold two runs may differ by (docs/VERDICTS.md, "Recording a baseline").</summary>
    /// <remarks>
    /// Half the threshold. One share, two uses that differ on purpose: a recording's two runs agree within the lesser of
    /// the rule's drift and this (2.1 % for time), since the run kept must be a steady moment (<see cref="SteadyRecording"/>);
    /// two levels are one, and one more level shows nothing new, within the greater (3.9 % for time: ln 1.04), since a level
    /// within what a verdict already allows is not a new speed of the body (<see cref="TimeSpread"/>).
    /// </remarks>
    public double AgreementShareOfThreshold { get; init; } = 0.5;

    /// <summary>How near a joined level a left-out level must run to join (docs/VERDICTS.md, "Recording a baseline").</summary>
    /// <remarks>
    /// Within 10 % on every time counter, or faster: that state did not slow this body, so its levels there are its own.
    /// The same number as <see cref="BranchTolerance"/> but another question (the body's time, not the reference's).
    /// </remarks>
    public double JoinedLevelTolerance { get; init; } = 0.10;

    /// <summary>The most measurements a recording takes to find two that agree (docs/VERDICTS.md, "Recording a baseline").</summary>
    /// <remarks>After that many the faster of the closest pair is kept, and the recording says the machine was unsteady.</remarks>
    public int MaxRecordingRuns { get; init; } = 5;

    /// <summary>The least branchy-reference move that tells a body's slope (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// About 28 % (0.25 on a log scale). Within one host state the reference jitters by about ±4 % a measurement.
    /// </remarks>
    public double BranchLeastMove { get; init; } = 0.25;

    /// <summary>Added to a measured slope before it narrows the branchy allowance (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// 0.6: the body's floor (2-3 %) and the branchy reference (about 4 %) jitter from one measurement to the next, so over
    /// the least move a word count's slope (1-1.3) reads within about ±0.35 at 1σ; with the margin a reading 1.5σ low still
    /// keeps about the slope it has, and a chain (about 0.2) keeps 0.8 of it.
    /// </remarks>
    public double BranchFollowMargin { get; init; } = 0.6;

    /// <summary>How far other processes' load may differ for a pair to tell a slope (docs/VERDICTS.md, "Levels").</summary>
    /// <remarks>
    /// 0.25. A neighbour that starts or stops between them moves the body by up to +17-47 % for reasons of its own; one that
    /// kept the machine as busy through both moves neither, and there the host's allocation and branchy states moved
    /// together (the allocation reference 12.6 → 20 ns, the branchy one 1,040 → 1,470 ns) with an allocating body
    /// following only the first.
    /// </remarks>
    public double BranchSameLoad { get; init; } = 0.25;

    /// <summary>The slope under which a recording keeps the slower branchy state (docs/VERDICTS.md, "Recording a baseline").</summary>
    /// <remarks>
    /// Recorded at the fast level, a body that follows at slope s loses sight of (<see cref="BranchFollow"/> − s) times the
    /// reference's move whenever the host runs branchy code slower again; recorded in the slower state, it loses s times
    /// that move while the host runs faster, and nothing in the slower state. The two cost the same at half of it, so it
    /// follows <see cref="BranchFollow"/> rather than standing alone.
    /// </remarks>
    public double RecordInSlowerState => BranchFollow / 2;

    /// <summary>z(0.95): what a baseline detects is caught 95 % of the time (docs/VERDICTS.md, "What the baseline can detect").</summary>
    public double DetectionPowerZ { get; init; } = 1.6448536269514722;

    /// <summary>How many times its recorded drift a simulated counter may move (docs/VERDICTS.md, "Simulated counters").</summary>
    /// <remarks>Four: two processes are a small sample of how far they differ.</remarks>
    public double SimulatedSpreadTolerance { get; init; } = 4;

    /// <summary>How many readings of each reference the speed memory keeps (docs/VERDICTS.md, "Recording a baseline").</summary>
    /// <remarks>32: a host that became slower for good stops being compared with its old self after that many.</remarks>
    public int SpeedMemoryCapacity { get; init; } = 32;

    /// <summary>The fewest readings from which the fastest remembered counts (docs/VERDICTS.md, "Recording a baseline").</summary>
    public int SpeedMemoryMinimumReadings { get; init; } = 4;

    /// <summary>
    /// Measurements taken again when the conditions are not the recording's, before time is judged with their allowance: a
    /// host's slow mode and a neighbour's burst pass within seconds (docs/VERDICTS.md, "What a verdict allows for").
    /// </summary>
    public int ConditionAttempts { get; init; } = 2;

    /// <summary>Measurements a fresh process takes; its level is the faster, so one disturbed measurement is not one (docs/VERDICTS.md,
    /// "Levels").</summary>
    public int MeasurementsPerProcess { get; init; } = 2;

    /// <summary>
    /// Fresh processes a recording may add beyond <see cref="BaselineStoreOptions.RecordingProcesses"/> while fewer than two
    /// agree on the host's state or new levels still show (docs/VERDICTS.md, "Recording a baseline").
    /// </summary>
    public int MaxExtraRecordingProcesses { get; init; } = 3;

    /// <summary>Processes in a row that must show no new level before a recording of a body with levels ends (docs/VERDICTS.md,
    /// "Recording a baseline").</summary>
    public int SettledProcesses { get; init; } = 2;

    /// <summary>
    /// References this much slower than the machine's fastest remembered are a slow level a recording waits out (docs/VERDICTS.md,
    /// "Recording a baseline").
    /// </summary>
    public double SlowLevel { get; init; } = 1.15;

    /// <summary>Measurements, <see cref="BaselineStoreOptions.FastLevelSpacing"/> apart, a recording takes to find the fast level
    /// (docs/VERDICTS.md, "Recording a baseline").</summary>
    public int FastLevelAttempts { get; init; } = 6;

    /// <summary>Fresh processes that must all regress a confirmed time regression before it fails (docs/VERDICTS.md,
    /// "Confirmation").</summary>
    public int FreshConfirmations { get; init; } = 3;

    /// <summary>
    /// How much wider (ln scale) a fresh process's band may reach than the confirmed measurement's before its pass is one of
    /// wider conditions, which contradicts nothing (docs/VERDICTS.md, "Confirmation").
    /// </summary>
    public double WiderConditions { get; init; } = 0.02;

    /// <summary>
    /// Fresh processes that must regress a time verdict that passed only on the host's branchy state, whatever the size of
    /// the regression (docs/VERDICTS.md, "Levels").
    /// </summary>
    public int FreshRegressionsPastBranchyState { get; init; } = 2;

    /// <summary>Fresh processes asked at most about a pass on the branchy state once one regressed (docs/VERDICTS.md, "Levels").</summary>
    public int MostFreshProcessesPastBranchyState { get; init; } = 5;
}
