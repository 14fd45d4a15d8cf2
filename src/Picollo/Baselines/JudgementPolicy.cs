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
    public double MachineSpeedTolerance { get; init; } = 0.15;

    /// <summary>The share of an allocation correction counted in σ (docs/VERDICTS.md, "Allocation speed").</summary>
    public double AllocationUncertainty { get; init; } = 0.25;

    /// <summary>An allocation reference slower by more than this bounds, not corrects (docs/VERDICTS.md, "Allocation speed").</summary>
    public double AllocationBoundFrom { get; init; } = 0.02;

    /// <summary>How far branchy code may follow the branchy reference, log scale (docs/VERDICTS.md, "Levels").</summary>
    public double BranchFollow { get; init; } = 1.5;

    /// <summary>The branchy reference's own jitter, which allows nothing (docs/VERDICTS.md, "Levels").</summary>
    public double BranchJitter { get; init; } = 0.04;

    /// <summary>The most the branchy reference allows, so a gross regression fails beside it (docs/VERDICTS.md, "Levels").</summary>
    public double BranchCap { get; init; } = 2.0;

    /// <summary>The most all conditions allow, so a 3× body fails (docs/VERDICTS.md, "What a verdict allows for").</summary>
    public double MostAllowed { get; init; } = 2.5;

    /// <summary>A branchy reference moved this far is other conditions (docs/VERDICTS.md, "What a verdict allows for").</summary>
    public double BranchTolerance { get; init; } = 0.10;

    /// <summary>What busy other processes allow per share of the other cores (docs/VERDICTS.md, "Other processes").</summary>
    public double BusyShare { get; init; } = 0.15;

    /// <summary>What busy processes allow a baseline recorded beside them, per share (docs/VERDICTS.md, "Other processes").</summary>
    public double BusyVariation { get; init; } = 0.06;

    /// <summary>The share of a rule's threshold two runs may differ by (docs/VERDICTS.md, "Recording a baseline").</summary>
    public double AgreementShareOfThreshold { get; init; } = 0.5;

    /// <summary>How near a joined level a left-out level must run to join (docs/VERDICTS.md, "Recording a baseline").</summary>
    public double JoinedLevelTolerance { get; init; } = 0.10;

    /// <summary>The most measurements a recording takes to find two that agree (docs/VERDICTS.md, "Recording a baseline").</summary>
    public int MaxRecordingRuns { get; init; } = 5;

    /// <summary>The least branchy-reference move that tells a body's slope (docs/VERDICTS.md, "Levels").</summary>
    public double BranchLeastMove { get; init; } = 0.25;

    /// <summary>Added to a measured slope before it narrows the branchy allowance (docs/VERDICTS.md, "Levels").</summary>
    public double BranchFollowMargin { get; init; } = 0.6;

    /// <summary>How far other processes' load may differ for a pair to tell a slope (docs/VERDICTS.md, "Levels").</summary>
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
    public double SimulatedSpreadTolerance { get; init; } = 4;

    /// <summary>How many readings of each reference the speed memory keeps (docs/VERDICTS.md, "Recording a baseline").</summary>
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
