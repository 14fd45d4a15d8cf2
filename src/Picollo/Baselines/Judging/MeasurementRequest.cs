using Picollo.Measurement;

namespace Picollo.Baselines.Judging;

/// <summary>
/// What <see cref="JudgementDecision.Decide"/> asks for when the evidence does not decide yet: measure again, this way. The
/// driver (<see cref="BaselineJudge"/>) waits, measures and adds the answer as <see cref="Evidence"/> of the same origin.
/// </summary>
/// <param name="Origin">Why, which also says where: this process, a fresh process, or another process's simulation.</param>
/// <param name="From">The measurement whose body is measured again.</param>
/// <param name="Wait">How long to wait first: a host level lasts seconds to minutes, and back to back draws the same one.</param>
internal sealed record MeasurementRequest(EvidenceOrigin Origin, PerfResult From, TimeSpan Wait)
{
    /// <summary>Gets whether a fresh process answers.</summary>
    public bool InFreshProcess =>
        Origin is EvidenceOrigin.FreshLevel or EvidenceOrigin.FreshConfirmation or EvidenceOrigin.PastBranchyState;

    /// <summary>Gets whether another process's simulation answers.</summary>
    public bool Simulates => Origin == EvidenceOrigin.SimulatedRepeat;
}
