using Picollo.Measurement;
using Picollo.Measurement.Conditions;

namespace Picollo.Baselines;

/// <summary>
/// What unchanged code may show against a stored baseline in the conditions of one measurement, on a log scale
/// (docs/VERDICTS.md, "What a verdict allows for"): a correction the verdict applies (the allocation reference's ratio
/// for a body that allocates, when the reference ran faster than at recording), its uncertainty, and a band
/// [<see cref="Low"/>, <see cref="High"/>] of the change that conditions nothing inside the run can remove explain: the
/// slowest level recorded, other processes keeping the machine busy, a machine, its branchy code or its allocations
/// running at another speed than at recording. A time verdict fails only beyond <see cref="High"/>, and says so;
/// nothing is left unjudged without a bound.
/// </summary>
/// <param name="Shift">The expected change from the correction, ln(allocation reference now / then) when the reference
/// ran faster than at recording; 0 otherwise.</param>
/// <param name="ShiftSigma">The allocation reference's uncertainty, which joins σ: <see cref="AllocationUncertainty"/>
/// · |ln(now / then)|.</param>
/// <param name="SpeedSigma">A machine-speed move within the gate, ln(reference now / then), which joins σ as today.</param>
/// <param name="Low">How much faster than expected unchanged code may run (≤ 0): a machine faster than at recording.</param>
/// <param name="High">How much slower (≥ 0): the recorded spread, a busy machine, a machine, its branchy code or its
/// allocations slower than at recording.</param>
/// <param name="Parts">What makes up the band, one phrase each, for the verdict's text.</param>
internal sealed record TimeAllowance(
    double Shift, double ShiftSigma, double SpeedSigma, double Low, double High, IReadOnlyList<string> Parts)
{
    /// <summary>
    /// How far the machine's speed may move between recording and verdict before the move becomes a bound of the verdict
    /// instead of one more uncertainty (15 %). The reference loop itself varies by about ±4 % from one measurement to the
    /// next (bench verdicts: P10–P90 1,082–1,140 ns), and a 5 % gate discarded real detections on that jitter alone.
    /// </summary>
    public const double MachineSpeedTolerance = 0.15;

    /// <summary>
    /// How much of the allocation reference's move a body that allocates may fail to follow, as a share of it (25 %): over 53
    /// measurements beside a busy core the body's floor followed the reference with a slope of 1.04 (correlation 0.81),
    /// and across the host's allocation episodes it slowed 1.70× where the reference slowed 1.82× (slope 0.88). A
    /// correction by a ratio q then carries 0.25 · |ln q| of uncertainty in σ.
    /// </summary>
    public const double AllocationUncertainty = 0.25;

    /// <summary>
    /// An allocation reference slower than at recording by more than this (2 %) bounds a verdict instead of correcting it:
    /// dividing by the ratio trusts the body to follow the reference, and in the reference's own slow episodes it did not,
    /// so unchanged code read as an improvement.
    /// </summary>
    public const double AllocationBoundFrom = 0.02;

    /// <summary>
    /// How far branchy code may follow the branchy reference (<see cref="Measurement.Conditions.BranchSpeed"/>) beyond it, on a log scale:
    /// 1.5. When the host slowed branchy code on the development VM, a word count over 64 words ran 1.76× slower where a
    /// word count over another text ran 1.56× (a slope of 1.27 on a log scale), and a loop of unpredictable branches 1.61×.
    /// </summary>
    public const double BranchFollow = 1.5;

    /// <summary>
    /// The branchy reference's own jitter within one host state (about ±4 % on the development VM): a move within it allows
    /// nothing, and beyond it only the part past it counts, times <see cref="BranchFollow"/>. The practical threshold covers
    /// what that leaves: a reference 10 % slower allows +9 %, where a body following it with the measured slope runs 13 %
    /// slower, 4 % short of the 8 % that would count.
    /// </summary>
    public const double BranchJitter = 0.04;

    /// <summary>
    /// The most the branchy reference allows: 2×. The host's slow state slowed branchy bodies 1.6-1.8×; a reference that
    /// reads slower than that is more likely slow on its own (where its own code landed in this process) than a host
    /// slowing every branchy body further, and an uncapped bound would let a 3× regression pass beside it.
    /// </summary>
    public const double BranchCap = 2.0;

    /// <summary>
    /// The most the conditions allow together: 2.5×, unless the counter's recorded spread is wider. The host's branchy
    /// state (up to 2×), a busy machine (1.15-1.23×), the allocation reference and the spread multiply; a 3× regression
    /// must fail beside any of them, and the 8 % threshold beyond 2.5× still passes unchanged code at 2.7×.
    /// </summary>
    public const double MostAllowed = 2.5;

    /// <summary>
    /// A branchy reference this much slower or faster than at recording counts as other conditions, worth measuring
    /// again (10 %).
    /// </summary>
    public const double BranchTolerance = 0.10;

    /// <summary>No allowance: the conditions of the recording.</summary>
    public static TimeAllowance None { get; } = new(0, 0, 0, 0, 0, []);

    /// <summary>
    /// Whether the measurement's conditions, not the recording, widened the band: other processes kept the machine busy,
    /// or the machine ran at another speed than at recording. Measuring again may find the recording's conditions back.
    /// </summary>
    public bool ConditionsChanged { get; init; }

    /// <summary>
    /// The part of <see cref="High"/> the host's branchy state allows (the branchy reference's bound, or the wider branchy
    /// part an earlier measurement of the same judgement was allowed, which may linger; ln scale; 0 without one). The state
    /// is drawn per process, so a pass inside it only can be asked of a fresh process (BaselineJudge).
    /// </summary>
    public double Branchy { get; init; }

    /// <summary>
    /// The allowance of a time counter: the counter's recorded spread; for a body that allocates (both sides probed the
    /// allocation reference), the correction by the reference's ratio; otherwise the machine-speed move (in σ within
    /// <see cref="MachineSpeedTolerance"/>, a bound beyond it); the branchy reference's slowdown; other processes' load when
    /// it made the machine busy.
    /// </summary>
    /// <param name="reference">The baseline's counter (its recording holds the spread).</param>
    /// <param name="recorded">The baseline's record (its reference speeds).</param>
    /// <param name="current">The measurement (its reference speeds and the other processes' load).</param>
    /// <returns>The allowance.</returns>
    public static TimeAllowance For(BaselineCounter reference, BaselineRecord recorded, BaselineRecord current)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(recorded);
        ArgumentNullException.ThrowIfNull(current);

        // One reason to widen the band per stage, in the order the verdict line names them; the allocation reference, where
        // both sides timed it, stands in for the machine speed.
        var band = new Band();
        double spread = reference.Recording?.Spread ?? 1;
        band.AddSpread(reference, spread);
        if (recorded.AllocationSpeed is not null && current.AllocationSpeed is not null)
            band.AddAllocation(recorded, current);
        else
            band.AddMachineSpeed(recorded, current);
        band.AddBranchSpeed(recorded, current, current.BranchFollowed?.GetValueOrDefault(reference.Name));
        band.AddOtherProcesses(recorded, current);
        band.KeepEarlierBranchyState(current, reference.Name);
        band.Cap(spread);
        return band.ToAllowance();
    }

    /// <summary>
    /// What other processes keeping every core the measured thread does not use busy allow unchanged code: +15 %.
    /// Measured on the 2-vCPU development VM on 2026-11-26 (bench/RESULTS.md, "Levels: notes"): beside a `dotnet build`
    /// loop or a spinning process, 20 of 24 measurements of a branchy body (`Words.Count`) and an allocating one
    /// (`Words.Tokenize`) stayed within 6 % of the quiet levels measured right after, an arithmetic chain all of them; the
    /// other four read +17 to +47 %, values the same bodies also read in quiet processes that day (the host's levels,
    /// which the recorded spread and the fresh processes of a confirmation answer). A regression needs two measurements of
    /// the process and three fresh processes beyond the allowance, so a neighbour's burst is not enough.
    /// </summary>
    public const double BusyShare = 0.15;

    /// <summary>
    /// How much slower unchanged code may run while other processes keep <paramref name="otherCores"/> cores busy:
    /// 1 + <see cref="BusyShare"/> × their share of the cores the measured thread does not use (1.15× when they keep all of
    /// them busy, more when they want more than the machine has and preempt the measured thread too). A 3× body fails
    /// beside any neighbour; a verdict beside one says what it allowed.
    /// </summary>
    /// <param name="otherCores">Other processes' CPU time over the samples, in cores.</param>
    /// <returns>The factor, at least 1.</returns>
    public static double BusyBound(double otherCores) => 1 + (BusyShare * ShareOfOtherCores(otherCores));

    /// <summary>
    /// How much the effect of busy other processes varied between measurements that both ran beside them: +6 % at one fully
    /// busy other core. Measured on the 2-vCPU development VM (bench/RESULTS.md, "Levels: notes"): beside a `dotnet build`
    /// loop or a spinning process, 20 of 24 measurements of a branchy and an allocating body stayed within 6 % of the quiet
    /// levels measured right after, so two measurements beside such load differ by about that much or less; the other four
    /// were the host's levels, which the recorded spread and the fresh processes answer. Bench verdicts' other-process
    /// cell, recorded and judged beside a spinning process: unchanged code read −6.6 … +9.5 % against its baseline (runs 13-15).
    /// </summary>
    public const double BusyVariation = 0.06;

    /// <summary>
    /// How much slower unchanged code may run beside busy other processes when its baseline was recorded beside busy other
    /// processes too: the load beyond the recording's (<see cref="BusyBound"/> now over then), and at least how much their
    /// effect varies (1 + <see cref="BusyVariation"/> × their share of the other cores). The full <see cref="BusyBound"/>
    /// allowed such a baseline +15 % on top of a floor that already held the neighbour's effect, and with the threshold a
    /// +25 … +28 % regression passed beside a spinning process (bench verdicts).
    /// </summary>
    /// <param name="recordedCores">Other processes' load when the baseline's kept measurement ran, in cores.</param>
    /// <param name="otherCores">Their load now, in cores.</param>
    /// <returns>The factor, at least 1.</returns>
    public static double BusyBoundAsRecorded(double recordedCores, double otherCores)
    {
        double beyond = BusyBound(otherCores) / BusyBound(recordedCores);
        double varies = 1 + (BusyVariation * ShareOfOtherCores(otherCores));
        return Math.Max(1, Math.Max(beyond, varies));
    }

    // Other processes' load as a share of the cores the measured thread does not use (above 1 when they want more than the
    // machine has); 0 when unknown.
    private static double ShareOfOtherCores(double otherCores) =>
        double.IsFinite(otherCores) ? Math.Max(0, otherCores) / Math.Max(1, Environment.ProcessorCount - 1) : 0;

    /// <summary>
    /// The band and what makes it, as the verdict line shows it: <c>allowing +15% (other processes used 1.00 of 2 cores, up
    /// to +15%)</c>, or only the correction: <c>scaled by the allocation reference (…)</c>.
    /// </summary>
    /// <returns>The phrase, or the empty string when nothing widens the band or corrects the change.</returns>
    public string Describe() => Parts.Count == 0 ? string.Empty : VerdictMessages.Allowing(High, Parts);

    // ln(now / then), or 0 when either side is unknown.
    private static double Drift(double? then, double? now) => now is > 0 && then is > 0 ? Math.Log(now.Value / then.Value) : 0;

    // The allowance as its stages build it: each adds its part to the band, the correction or σ.
    private sealed class Band
    {
        private readonly List<string> _parts = [];
        private double _high, _low, _shift, _shiftSigma, _speedSigma;

        // How much slower (≥ 0) or faster (≤ 0) the core reference loop ran than at recording, which the stage before the branchy
        // one answered: the branchy reference runs on the same core, so that much of its move is not the host's branchy state.
        private double _coreSlower, _coreFaster;
        private bool _changed;

        private double _branchy;

        public TimeAllowance ToAllowance() =>
            new(_shift, _shiftSigma, _speedSigma, _low, _high, _parts)
            {
                ConditionsChanged = _changed,
                Branchy = _branchy,
            };

        public void AddSpread(BaselineCounter reference, double spread)
        {
            if (spread > 1)
            {
                _high += Math.Log(spread);
                _parts.Add(VerdictMessages.SlowestLevelRecorded(reference.Recording!.Processes, spread));
            }
        }

        public void AddAllocation(BaselineRecord recorded, BaselineRecord current)
        {
            double allocation = Drift(recorded.AllocationSpeed, current.AllocationSpeed);
            // An allocating body has a speed of its own (episodes of 10-60 s at 1.7× on a cloud VM, the core loop unchanged),
            // which the allocation reference timed beside its floor follows. The reference's 1,000 allocations run the core's
            // instructions too, so the core loop is not added on top. The scaling's uncertainty joins σ either way.
            _shiftSigma = AllocationUncertainty * Math.Abs(allocation);
            if (allocation > Math.Log(1 + AllocationBoundFrom))
            {
                // Slower now: a bound, not a correction. The reference also has slow episodes of its own: at 1.6× (12.3 → 19.8
                // ns per allocation) the body ran at its recorded speed, and divided by the ratio unchanged code read as an
                // improvement (z ≈ -3.9, bench verdicts, spinner). A rise is judged as the correction would judge it (beyond
                // the reference's move); a fall only below the recording. A body that did not follow the reference loses
                // sight of that much, and the line says so.
                _high += allocation;
                _coreSlower = Math.Clamp(Drift(recorded.MachineSpeed, current.MachineSpeed), 0, allocation);
                _parts.Add(VerdictMessages.AllocationReferenceSlower(recorded.AllocationSpeed, current.AllocationSpeed, allocation));
            }
            else
            {
                // Faster now (the baseline recorded in a slow episode): a correction, so the episode does not hide a regression
                // (+30 % work showed a floor 24 % under a baseline taken at 1.7×). A body that does not follow the reference
                // cannot fail on it beyond the uncertainty: recording prefers the machine's fast allocation level.
                _shift = allocation;
                if (allocation < -Math.Log(1 + AllocationBoundFrom))
                    _parts.Add(VerdictMessages.ScaledByAllocationReference(recorded.AllocationSpeed, current.AllocationSpeed, allocation));
            }
        }

        public void AddMachineSpeed(BaselineRecord recorded, BaselineRecord current)
        {
            double speed = Drift(recorded.MachineSpeed, current.MachineSpeed);
            (_coreSlower, _coreFaster) = (Math.Max(0, speed), Math.Min(0, speed));
            if (Math.Abs(speed) <= Math.Log(1 + MachineSpeedTolerance))
            {
                _speedSigma = speed;
            }
            else if (speed > 0)
            {
                _changed = true;
                // A host in a slow mode slows every quantile of a run for seconds at a time; unchanged code may be that much slower.
                _high += speed;
                _parts.Add(VerdictMessages.MachineSlower(recorded.MachineSpeed, current.MachineSpeed, speed));
            }
            else
            {
                _changed = true;

                // Faster now: not a reason to fail, but a regression up to that size may hide in it; the text says so.
                _low += speed;
                _parts.Add(VerdictMessages.MachineFaster(recorded.MachineSpeed, current.MachineSpeed, speed));
            }
        }

        public void AddBranchSpeed(BaselineRecord recorded, BaselineRecord current, BranchFollowing? followed)
        {
            // The host can slow branchy code on its own for minutes (1.6-1.8× on the development VM) with the core loop unchanged:
            // unchanged code may run up to 1.5 times the branchy reference's slowdown slower. A bound, not a correction: code
            // that is not branchy does not follow it, and loses only sight. Faster now: judged as recorded, and said.
            double branch = Drift(recorded.BranchSpeed, current.BranchSpeed);
            // Only what the branchy reference moved beyond the core loop is the host's branchy state: the machine-speed (or
            // allocation) stage already answered the core's own move, and counting it again at 1.5 times let a 2× chain pass
            // beside a busy sibling core (bench verdicts run 4, spinner / short, run 24: the core loop +15 %, the branchy
            // reference +81 %, a band of 2.3× and the chain's +100 % read +143 %).
            double beyondCore = branch - _coreSlower;
            // As far as a word count followed it. Not a slope learned per body at recording: a word count whose recording measured
            // a slope near 0 ran 1.97× slower in a later slow state, the reference 1.69× (bench levels); the levels of branchy
            // code confound any slope a few measurements can see. The judgement's own measurements may show less, when the
            // reference moved between them and the body did not (BranchFollowing); code that does not follow the reference
            // otherwise loses sight in the host's slow state, never a verdict.
            double follow = Math.Min(BranchFollow, followed?.Allowed ?? BranchFollow);
            double branchBound = Math.Min(follow * Math.Max(0, beyondCore - Math.Log(1 + BranchJitter)), Math.Log(BranchCap));
            if (branchBound > 0 || (beyondCore > Math.Log(1 + BranchJitter) && followed is not null))
            {
                _high += branchBound;
                _branchy = branchBound;
                _changed |= branch > Math.Log(1 + BranchTolerance);
                _parts.Add(VerdictMessages.BranchyCodeSlower(
                    recorded.BranchSpeed, current.BranchSpeed, branch, beyondCore, followed?.Measured, branchBound));
            }
            else if (branch - _coreFaster < -Math.Log(1 + BranchTolerance))
            {
                // Faster now than at recording: unchanged code may be faster by as much as it follows the reference, so the band
                // reaches below 0 and what a verdict detects starts that much higher.
                _changed = true;
                _low += Math.Max(-Math.Log(BranchCap), BranchFollow * (branch - _coreFaster));
                _parts.Add(VerdictMessages.BranchyCodeFaster(recorded.BranchSpeed, current.BranchSpeed, branch));
            }
        }

        public void AddOtherProcesses(BaselineRecord recorded, BaselineRecord current)
        {
            double others = current.OtherProcessesCores;
            if (!MachineLoad.IsBusy(others))
                return;

            // Other processes' memory and cache traffic and the host's scheduling of the vCPUs may slow unchanged code; the
            // bound grows with their load (BusyShare says what was measured).
            _changed = true;
            if (MachineLoad.IsBusy(recorded.OtherProcessesCores))
            {
                // Recorded beside them too: the recorded floor already holds their usual effect, so what is left is how much
                // it varies and any load beyond the recording's (BusyBoundAsRecorded).
                double asRecorded = BusyBoundAsRecorded(recorded.OtherProcessesCores, others);
                _high += Math.Log(asRecorded);
                _parts.Add(VerdictMessages.OtherProcessesBusyAsRecorded(
                    others, recorded.OtherProcessesCores, Environment.ProcessorCount, asRecorded));
                return;
            }

            double bound = BusyBound(others);
            _high += Math.Log(bound);
            _parts.Add(VerdictMessages.OtherProcessesBusy(others, Environment.ProcessorCount, bound));
        }

        public void Cap(double spread)
        {
            // The parts multiply, and together they could cover a gross regression: the recorded spread (1.37×), the host's slow
            // branchy state (1.9×) and a busy core (1.15×) allowed 3×. A 3× body must fail whatever the conditions (issue 24), so
            // the band stops at 2.5× unless the body's own recorded spread, a measured fact of this machine, is wider.
            double most = Math.Max(Math.Log(MostAllowed), Math.Log(spread));
            if (_high > most + 0.005)
            {
                _parts.Add(VerdictMessages.AtMostInAll(most));
                // The cut comes off the branchy part first, so the rest of the band is still what the other conditions allow:
                // a pass beside a busy neighbour must not read as one on the branchy state (BaselineJudge.LookPastBranchyState).
                _branchy = Math.Max(0, _branchy - (_high - most));
                _high = most;
            }
        }

        public void KeepEarlierBranchyState(BaselineRecord current, string counter)
        {
            // What lingers within a judgement is the host's branchy state: a body stayed slow for seconds after the branchy
            // reference was back, and a measurement taken then failed unchanged code at +30 % (bench levels). So a later
            // measurement keeps the widest branchy part an earlier one was allowed, and it stays a branchy part: a pass inside
            // it is one on that state (BaselineJudge asks fresh processes). The other parts are each measurement's own: the
            // allocation reference is timed beside its floor and other processes' load over its samples. Keeping the whole
            // earlier band let a +30 % allocating body pass its confirmation at +42 % inside the first measurement's
            // allocation bound (+12 % there, +5 % in its own; bench verdicts, process / allocating).
            if (current.EarlierAllowance?.GetValueOrDefault(counter) is > 0 and var earlier && earlier > _branchy + 0.005)
            {
                _parts.Add(VerdictMessages.AsEarlierBranchyState(earlier));
                _high += earlier - _branchy;
                _branchy = earlier;
            }
        }
    }
}
