using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Simulated;

namespace Picollo.Baselines.Judging;

/// <summary>
/// Simulated counters are stored only when a second process counts the same (docs/VERDICTS.md, "Simulated counters"): a
/// body whose work depends on its process (random input, a string hash, the time) would otherwise fail unchanged code
/// later. The second process's counts are compared with the first's, each within its rule's tolerance; their difference
/// widens the tolerance written, and a difference beyond it refuses the recording.
/// </summary>
internal sealed class SimulatedRepeat
{
    private readonly Dictionary<string, RecordingQuality> _quality = new(StringComparer.Ordinal);

    /// <summary>Gets why the recording writes nothing, or <see langword="null"/>.</summary>
    public string? Refusal { get; private set; }

    /// <summary>Counts <paramref name="judged"/>'s simulated counters again in another process, when it has any.</summary>
    /// <param name="judged">The measurement recorded.</param>
    /// <param name="current">Its record.</param>
    /// <param name="policy">The rules.</param>
    /// <param name="remeasurements">Where the repeat is told.</param>
    /// <param name="simulateAgain">Counts a measurement's simulated counters in another process.</param>
    public void Take(
        PerfResult judged,
        BaselineRecord current,
        VerdictPolicy policy,
        List<string> remeasurements,
        Func<PerfResult, SimulatedMeasurement> simulateAgain)
    {
        if (!judged.CanSimulateAgain || current.Counters.All(static c => c.Kind != CounterKind.Simulated))
            return;

        SimulatedMeasurement other;
        try
        {
            other = simulateAgain(judged);
        }
        catch (PerfSimulationException e)
        {
            Refusal = BaselineMessages.SimulatedRepeatFailed(e.Message);
            return;
        }

        var differ = new List<string>();
        foreach (BaselineCounter counter in current.Counters.Where(static c => c.Kind == CounterKind.Simulated))
        {
            CounterResult again = SimulatedResults.Counter(counter.Name, other, judged.Options.RelativeError);
            if (!again.IsAvailable)
                continue;
            CounterVerdictRule rule = policy.GetRule(counter.Name, counter.Kind);
            double a = counter.PerOperation.P50, b = again.P50, largest = Math.Max(Math.Abs(a), Math.Abs(b));
            double difference = largest == 0 ? 0 : Math.Abs(a - b) / largest;
            if (Math.Abs(a - b) > Math.Max(rule.MinRelativeChange * largest, rule.MinAbsoluteChange))
                differ.Add(BaselineMessages.SimulatedCountDiffered(counter.Name, a, b, rule.MinRelativeChange));
            _quality[counter.Name] = new RecordingQuality(2, difference, Math.Max(rule.MinRelativeChange, 4 * difference))
            {
                Processes = 2,
            };
        }

        if (differ.Count > 0)
            Refusal = BaselineMessages.SimulatedCountsDiffer(differ);
        else
            remeasurements.Add(BaselineMessages.SimulatedCountsRepeated(_quality.Count));
    }

    /// <summary>The record with its simulated counters' recording quality, which widens their tolerance.</summary>
    /// <param name="record">A record.</param>
    /// <returns>The record as written.</returns>
    public BaselineRecord Apply(BaselineRecord record) => _quality.Count == 0
        ? record
        : record with
        {
            Counters =
            [
                .. record.Counters.Select(c => _quality.TryGetValue(c.Name, out RecordingQuality? q) ? c with { Recording = q } : c),
            ],
        };
}
