namespace Picollo.Baselines.Judging;

/// <summary>
/// What the evidence decides: measure again, this way (<see cref="Request"/>), or the judgement concluded
/// (<see cref="Concluded"/>), whose plan the driver writes once (docs/ARCHITECTURE.md, "Baselines and verdicts").
/// </summary>
/// <param name="Request">The measurement to take next, or <see langword="null"/> when the judgement concluded.</param>
/// <param name="Concluded">The concluded judgement, or <see langword="null"/> while it needs a measurement.</param>
internal sealed record JudgementDecision(MeasurementRequest? Request, Judgement? Concluded)
{
    /// <summary>
    /// Decides from the evidence, the baseline and the policy: runs the judgement's stages over the evidence, in the order
    /// they ask for measurements, and stops at the first measurement the evidence does not hold. Measures nothing, waits
    /// for nothing and writes nothing: the same evidence decides the same.
    /// </summary>
    /// <param name="evidence">The measurements so far, the test's own first, each as the judgement asked for it.</param>
    /// <param name="inputs">The baseline, the options and the machine.</param>
    /// <returns>The next measurement, or the concluded judgement.</returns>
    /// <exception cref="ArgumentException">The evidence does not start with the test's measurement.</exception>
    public static JudgementDecision Decide(IReadOnlyList<Evidence> evidence, JudgementInputs inputs)
    {
        ArgumentNullException.ThrowIfNull(evidence);
        ArgumentNullException.ThrowIfNull(inputs);
        if (evidence.Count == 0 || evidence[0].Origin != EvidenceOrigin.Test)
            throw new ArgumentException("The first evidence is the test's own measurement.", nameof(evidence));

        var judgement = new Judgement(inputs, new EvidenceReplay(evidence));
        try
        {
            judgement.MeasureFinalCode();
            judgement.RecordIfWriting();
            judgement.Check();
            judgement.RemeasureInOtherConditions();
            judgement.Confirm();
            judgement.LookPastBranchyState();
        }
        catch (EvidenceReplay.Needed needed)
        {
            return new JudgementDecision(needed.Request, null);
        }

        return new JudgementDecision(null, judgement);
    }
}
