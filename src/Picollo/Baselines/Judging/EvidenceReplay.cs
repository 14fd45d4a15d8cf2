using Picollo.Measurement;
using Picollo.Measurement.Simulated;

namespace Picollo.Baselines.Judging;

/// <summary>
/// The judgement's measurements, answered from the evidence in order: where the judgement asks for one the evidence does
/// not hold yet, it stops with <see cref="Needed"/>, which <see cref="JudgementDecision.Decide"/> returns as a
/// <see cref="MeasurementRequest"/>. Deciding again with the answer added replays the same steps to the same point, since
/// nothing the judgement reads changes meanwhile.
/// </summary>
/// <param name="evidence">The evidence, the test's own measurement first.</param>
internal sealed class EvidenceReplay(IReadOnlyList<Evidence> evidence)
{
    private int _next = 1;

    /// <summary>Gets the test's own measurement.</summary>
    public PerfResult Test => evidence[0].Measured ?? throw new ArgumentException("The first evidence is the test's measurement.");

    /// <summary>A measurement of <paramref name="from"/>'s body in this process.</summary>
    /// <param name="origin">Why.</param>
    /// <param name="from">The measurement measured again.</param>
    /// <param name="wait">The wait before it.</param>
    /// <returns>The measurement.</returns>
    public PerfResult ThisProcess(EvidenceOrigin origin, PerfResult from, TimeSpan wait = default) =>
        Take(new MeasurementRequest(origin, from, wait)).Measured
            ?? throw new InvalidOperationException($"The evidence of {origin} holds no measurement in this process.");

    /// <summary>A fresh process's measurements of <paramref name="from"/>'s body.</summary>
    /// <param name="origin">Why.</param>
    /// <param name="from">The measurement whose test the process runs.</param>
    /// <param name="wait">The wait before it.</param>
    /// <returns>What the process measured, or why it could not.</returns>
    public FreshProcessMeasurement FreshProcess(EvidenceOrigin origin, PerfResult from, TimeSpan wait) =>
        Take(new MeasurementRequest(origin, from, wait)).Fresh
            ?? throw new InvalidOperationException($"The evidence of {origin} holds no fresh process's measurement.");

    /// <summary>Another process's simulated counts of <paramref name="from"/>'s body.</summary>
    /// <param name="from">The measurement simulated again.</param>
    /// <returns>The counts.</returns>
    /// <exception cref="PerfSimulationException">The other process could not count them.</exception>
    public SimulatedMeasurement SimulateAgain(PerfResult from)
    {
        Evidence taken = Take(new MeasurementRequest(EvidenceOrigin.SimulatedRepeat, from, TimeSpan.Zero));
        if (taken.SimulationFailure is { } failure)
            throw new PerfSimulationException(failure);
        return taken.Simulated ?? throw new InvalidOperationException("The evidence of a simulated repeat holds no counts.");
    }

    private Evidence Take(MeasurementRequest request)
    {
        if (_next == evidence.Count)
            throw new Needed(request);
        Evidence taken = evidence[_next++];
        if (taken.Origin != request.Origin)
        {
            throw new InvalidOperationException(
                $"Evidence {_next - 1} came from {taken.Origin} where the judgement asked for {request.Origin}: "
                + "evidence is added in the order asked.");
        }

        return taken;
    }

    /// <summary>The judgement asked for a measurement the evidence does not hold yet.</summary>
    /// <param name="request">What it asked for.</param>
    internal sealed class Needed(MeasurementRequest request) : Exception($"The judgement needs a measurement: {request.Origin}.")
    {
        /// <summary>Gets what the judgement asked for.</summary>
        public MeasurementRequest Request => request;
    }
}
