using Picollo.Baselines.Records;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;

namespace Picollo.Baselines.Rules;

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
/// <param name="ShiftSigma">The allocation reference's uncertainty, which joins σ: <see cref="JudgementPolicy.AllocationUncertainty"/>
/// · |ln(now / then)|.</param>
/// <param name="SpeedSigma">A machine-speed move within the gate, ln(reference now / then), which joins σ as today.</param>
/// <param name="Low">How much faster than expected unchanged code may run (≤ 0): a machine faster than at recording.</param>
/// <param name="High">How much slower (≥ 0): the recorded spread, a busy machine, a machine, its branchy code or its
/// allocations slower than at recording.</param>
/// <param name="Parts">What makes up the band, one phrase each, for the verdict's text.</param>
internal sealed record TimeAllowance(
    double Shift, double ShiftSigma, double SpeedSigma, double Low, double High, IReadOnlyList<string> Parts)
{
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
    /// <see cref="JudgementPolicy.MachineSpeedTolerance"/>, a bound beyond it); the branchy reference's slowdown; other
    /// processes' load when it made the machine busy.
    /// </summary>
    /// <param name="reference">The baseline's counter (its recording holds the spread).</param>
    /// <param name="recorded">The baseline's record (its reference speeds).</param>
    /// <param name="current">The measurement (its reference speeds and the other processes' load).</param>
    /// <param name="judgement">The rules' numbers and the machine's core count.</param>
    /// <param name="looks">What the judgement's earlier measurements in this process showed, or <see langword="null"/>.</param>
    /// <returns>The allowance.</returns>
    public static TimeAllowance For(
        BaselineCounter reference, BaselineRecord recorded, BaselineRecord current, JudgementPolicy judgement, EarlierLooks? looks = null)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(recorded);
        ArgumentNullException.ThrowIfNull(current);
        ArgumentNullException.ThrowIfNull(judgement);

        // One reason to widen the band per stage, in the order the verdict line names them; the allocation reference, where
        // both sides timed it, stands in for the machine speed.
        var band = new Band(judgement);
        double spread = reference.Recording?.Spread ?? 1;
        band.AddSpread(reference, spread);
        if (recorded.AllocationSpeed is not null && current.AllocationSpeed is not null)
            band.AddAllocation(recorded, current);
        else
            band.AddMachineSpeed(recorded, current);
        band.AddBranchSpeed(recorded, current, looks?.Followed?.GetValueOrDefault(reference.Name));
        band.AddOtherProcesses(recorded, current);
        band.KeepEarlierBranchyState(looks, reference.Name);
        band.Cap(spread);
        return band.ToAllowance();
    }

    /// <summary>
    /// How much slower unchanged code may run while other processes keep <paramref name="otherCores"/> cores busy:
    /// 1 + <see cref="JudgementPolicy.BusyShare"/> × their share of the cores the measured thread does not use (1.15× when they
    /// keep all of them busy, more when they want more than the machine has and preempt the measured thread too). A 3× body fails
    /// beside any neighbour; a verdict beside one says what it allowed.
    /// </summary>
    /// <param name="otherCores">Other processes' CPU time over the samples, in cores.</param>
    /// <param name="judgement">The rules' numbers and the machine's core count; <see cref="JudgementPolicy.Default"/> when
    /// <see langword="null"/>.</param>
    /// <returns>The factor, at least 1.</returns>
    public static double BusyBound(double otherCores, JudgementPolicy? judgement = null)
    {
        judgement ??= JudgementPolicy.Default;
        return 1 + (judgement.BusyShare * ShareOfOtherCores(otherCores, judgement));
    }

    /// <summary>
    /// How much slower unchanged code may run beside busy other processes when its baseline was recorded beside busy other
    /// processes too: the load beyond the recording's (<see cref="BusyBound"/> now over then), and at least how much their
    /// effect varies (1 + <see cref="JudgementPolicy.BusyVariation"/> × their share of the other cores): the floor already holds
    /// the neighbour's effect, which the full bound would allow twice (docs/VERDICTS.md, "Other processes").
    /// </summary>
    /// <param name="recordedCores">Other processes' load when the baseline's kept measurement ran, in cores.</param>
    /// <param name="otherCores">Their load now, in cores.</param>
    /// <param name="judgement">The rules' numbers and the machine's core count; <see cref="JudgementPolicy.Default"/> when
    /// <see langword="null"/>.</param>
    /// <returns>The factor, at least 1.</returns>
    public static double BusyBoundAsRecorded(double recordedCores, double otherCores, JudgementPolicy? judgement = null)
    {
        judgement ??= JudgementPolicy.Default;
        double beyond = BusyBound(otherCores, judgement) / BusyBound(recordedCores, judgement);
        double varies = 1 + (judgement.BusyVariation * ShareOfOtherCores(otherCores, judgement));
        return Math.Max(1, Math.Max(beyond, varies));
    }

    // Other processes' load as a share of the cores the measured thread does not use (above 1 when they want more than the
    // machine has); 0 when unknown. The cores are the policy's, an input (docs/VERDICTS.md, "The policy in one table").
    private static double ShareOfOtherCores(double otherCores, JudgementPolicy judgement) =>
        double.IsFinite(otherCores) ? Math.Max(0, otherCores) / Math.Max(1, judgement.Cores - 1) : 0;

    /// <summary>
    /// The band and what makes it, as the verdict line shows it: <c>allowing +15% (other processes used 1.00 of 2 cores, up
    /// to +15%)</c>, or only the correction: <c>scaled by the allocation reference (…)</c>.
    /// </summary>
    /// <returns>The phrase, or the empty string when nothing widens the band or corrects the change.</returns>
    public string Describe() => Parts.Count == 0 ? string.Empty : VerdictMessages.Allowing(High, Parts);

    // ln(now / then), or 0 when either side is unknown.
    private static double Drift(double? then, double? now) => now is > 0 && then is > 0 ? Math.Log(now.Value / then.Value) : 0;

    // The allowance as its stages build it: each adds its part to the band, the correction or σ.
    private sealed class Band(JudgementPolicy judgement)
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
            _shiftSigma = judgement.AllocationUncertainty * Math.Abs(allocation);
            if (allocation > Math.Log(1 + judgement.AllocationBoundFrom))
            {
                // Slower now: a bound, not a correction, as the reference has slow episodes of its own that the body does not
                // share (docs/VERDICTS.md, "Allocation speed"). A rise is judged as the correction would judge it (beyond the
                // reference's move); a fall only below the recording. A body that did not follow the reference loses
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
                if (allocation < -Math.Log(1 + judgement.AllocationBoundFrom))
                    _parts.Add(VerdictMessages.ScaledByAllocationReference(recorded.AllocationSpeed, current.AllocationSpeed, allocation));
            }
        }

        public void AddMachineSpeed(BaselineRecord recorded, BaselineRecord current)
        {
            double speed = Drift(recorded.MachineSpeed, current.MachineSpeed);
            (_coreSlower, _coreFaster) = (Math.Max(0, speed), Math.Min(0, speed));
            if (Math.Abs(speed) <= Math.Log(1 + judgement.MachineSpeedTolerance))
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
            // allocation) stage already answered the core's own move, and counting it again would let a 2× body pass.
            double beyondCore = branch - _coreSlower;
            // As far as a word count followed it, not a slope learned per body at recording: the levels of branchy code confound
            // any slope a few recording measurements can see (docs/VERDICTS.md, "Levels"). The judgement's own measurements may
            // show less, when the
            // reference moved between them and the body did not (BranchFollowing); code that does not follow the reference
            // otherwise loses sight in the host's slow state, never a verdict.
            double follow = Math.Min(judgement.BranchFollow, followed?.Allowed ?? judgement.BranchFollow);
            double jitter = Math.Log(1 + judgement.BranchJitter);
            double branchBound = Math.Min(follow * Math.Max(0, beyondCore - jitter), Math.Log(judgement.BranchCap));
            if (branchBound > 0 || (beyondCore > jitter && followed is not null))
            {
                _high += branchBound;
                _branchy = branchBound;
                _changed |= branch > Math.Log(1 + judgement.BranchTolerance);
                _parts.Add(VerdictMessages.BranchyCodeSlower(
                    recorded.BranchSpeed, current.BranchSpeed, branch, beyondCore, followed?.Measured, branchBound));
            }
            else if (branch - _coreFaster < -Math.Log(1 + judgement.BranchTolerance))
            {
                // Faster now than at recording: unchanged code may be faster by as much as it follows the reference, so the band
                // reaches below 0 and what a verdict detects starts that much higher.
                _changed = true;
                _low += Math.Max(-Math.Log(judgement.BranchCap), judgement.BranchFollow * (branch - _coreFaster));
                _parts.Add(VerdictMessages.BranchyCodeFaster(recorded.BranchSpeed, current.BranchSpeed, branch));
            }
        }

        public void AddOtherProcesses(BaselineRecord recorded, BaselineRecord current)
        {
            double others = current.OtherProcessesCores;
            if (!MachineLoad.IsBusy(others, judgement.Cores))
                return;

            // Other processes' memory and cache traffic and the host's scheduling of the vCPUs may slow unchanged code; the
            // bound grows with their load (JudgementPolicy.BusyShare says what was measured).
            _changed = true;
            if (MachineLoad.IsBusy(recorded.OtherProcessesCores, judgement.Cores))
            {
                // Recorded beside them too: the recorded floor already holds their usual effect, so what is left is how much
                // it varies and any load beyond the recording's (BusyBoundAsRecorded).
                double asRecorded = BusyBoundAsRecorded(recorded.OtherProcessesCores, others, judgement);
                _high += Math.Log(asRecorded);
                _parts.Add(VerdictMessages.OtherProcessesBusyAsRecorded(
                    others, recorded.OtherProcessesCores, judgement.Cores, asRecorded));
                return;
            }

            double bound = BusyBound(others, judgement);
            _high += Math.Log(bound);
            _parts.Add(VerdictMessages.OtherProcessesBusy(others, judgement.Cores, bound));
        }

        public void Cap(double spread)
        {
            // The parts multiply and could together cover a gross regression, which must fail whatever the conditions: the band
            // stops at MostAllowed unless the body's own recorded spread, a measured fact of this machine, is wider
            // (docs/VERDICTS.md, "What a verdict allows for").
            double most = Math.Max(Math.Log(judgement.MostAllowed), Math.Log(spread));
            if (_high > most)
            {
                _parts.Add(VerdictMessages.AtMostInAll(most));
                // The cut comes off the branchy part first, so the rest of the band is still what the other conditions allow:
                // a pass beside a busy neighbour must not read as one on the branchy state (FreshProcessLooks.LookPastBranchyState).
                _branchy = Math.Max(0, _branchy - (_high - most));
                _high = most;
            }
        }

        public void KeepEarlierBranchyState(EarlierLooks? looks, string counter)
        {
            // What lingers within a judgement is the host's branchy state: a body can stay slow for seconds after the branchy
            // reference is back. So a later measurement keeps the widest branchy part an earlier one was allowed, and it stays
            // a branchy part: a pass inside it is one on that state (FreshProcessLooks asks fresh processes). The other parts
            // are each measurement's own, as keeping them would hide a regression behind an earlier moment's band.
            if (looks?.BranchyAllowance?.GetValueOrDefault(counter) is > 0 and var earlier
                && earlier > _branchy)
            {
                _parts.Add(VerdictMessages.AsEarlierBranchyState(earlier));
                _high += earlier - _branchy;
                _branchy = earlier;
            }
        }
    }
}
