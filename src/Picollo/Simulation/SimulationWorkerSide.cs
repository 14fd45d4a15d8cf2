using System.Collections.Immutable;
using System.Text;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;

namespace Picollo.Simulation;

/// <summary>
/// The simulation worker's own measurer (<see cref="SimulationWorkerProtocol"/>): each region of the test waits for the
/// test's process to let it go on, is measured under callgrind in this process (<see cref="SimulatedSampling"/>), and is
/// written for the test's process to read. The worker measures nothing natively: the test's process does that.
/// </summary>
/// <param name="folder">The worker's folder.</param>
/// <param name="input">The worker's standard input, where the test's process writes its <c>go</c> lines.</param>
internal sealed class SimulationWorkerSide(string folder, TextReader input) : ISimulatedMeasurer
{
    private readonly CallgrindSession _session = new(SimulationWorkerProtocol.CallgrindOutput(folder));
    private int _next;

    // The region the test's process has let this worker measure: each region's go is read right after the previous region
    // is written, so the worker waits, idle, while the test's process measures natively (and judges) in between.
    private int _allowed = -1;

    /// <summary>The worker of this process, reading its standard input; one per process, as the input is.</summary>
    public static SimulationWorkerSide ForProcess(string folder) =>
        s_process ??= new SimulationWorkerSide(folder, new StreamReader(Console.OpenStandardInput(), Encoding.UTF8));

    private static SimulationWorkerSide? s_process;

    /// <inheritdoc/>
    public bool IsWorker => true;

    /// <inheritdoc/>
    public SimulatedMeasurement Measure<TLoop>(PerfOptions options, ImmutableArray<string> counters, TLoop body, TLoop empty)
        where TLoop : struct, IOperationLoop
    {
        int region = _next++;
        if (region == 0)
            AwaitGo(0);
        if (region != _allowed)
            Environment.Exit(0);

        SimulatedMeasurement measurement;
        try
        {
            if (!CallgrindSession.IsUnderValgrind)
                throw new InvalidOperationException(SimulationMessages.WorkerNotUnderCallgrind(folder));
            measurement = SimulatedSampling.Run(options, counters, body, empty, _session, MeasurementCancellation.Current);
            string text = SimulationWorkerProtocol.ToJson(measurement);
            SimulationWorkerProtocol.WriteWhole(SimulationWorkerProtocol.RegionPath(folder, region), text);
        }
        catch (Exception e)
        {
            // What happened, for the test's failure; then the test here fails as it would, and the worker's run ends.
            string failure = $"{e.GetType().FullName}: {e.Message}";
            SimulationWorkerProtocol.WriteWhole(SimulationWorkerProtocol.FailurePath(folder, region), failure);
            throw;
        }

        AwaitGo(region + 1);
        return measurement;
    }

    // The test's process says go for a region once it measured it natively; the end of the input, or anything else, means
    // it needs no more: the worker ends here, at once, rather than run the rest of the test for nobody.
    private void AwaitGo(int region)
    {
        if (input.ReadLine() != SimulationWorkerProtocol.GoLine(region))
            Environment.Exit(0);
        _allowed = region;
    }

    /// <inheritdoc/>
    /// <exception cref="NotSupportedException">Always: a worker measures its own regions only.</exception>
    public SimulatedMeasurement MeasureAgain(int region, ImmutableArray<string> counters) =>
        throw new NotSupportedException("A simulation worker does not start other workers.");
}
