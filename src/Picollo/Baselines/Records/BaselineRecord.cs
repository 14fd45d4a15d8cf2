using System.Globalization;
using Picollo.Measurement;
using Picollo.Measurement.Simulated;

namespace Picollo.Baselines.Records;

/// <summary>One measurement of a test on one machine: its counters, the options it ran with and when.</summary>
/// <param name="Counters">The counters; names must be unique.</param>
/// <param name="Options">The measurement options in words (free-form, e.g. <c>samples</c> → <c>1000</c>), kept for review.</param>
/// <param name="RecordedUtc">When the measurement was taken; stored to the second.</param>
/// <param name="MachineSpeed">
/// How fast the machine ran (<see cref="PerfRunInfo.MachineSpeedNanoseconds"/>: ns per 1,000 steps of a reference loop), or
/// <see langword="null"/> when unknown (an entry written before it was recorded).
/// </param>
internal sealed record BaselineRecord(
    IReadOnlyList<BaselineCounter> Counters, IReadOnlyDictionary<string, string> Options, DateTime RecordedUtc, double? MachineSpeed = null)
{
    /// <summary>
    /// How fast the process allocated (<see cref="PerfRunInfo.AllocationSpeedNanoseconds"/>: ns per small allocation), or
    /// <see langword="null"/> for a body that does not allocate or an entry written before it was recorded.
    /// </summary>
    public double? AllocationSpeed { get; init; }

    /// <summary>
    /// How fast the machine ran branchy code (<see cref="PerfRunInfo.BranchSpeedNanoseconds"/>: ns per 1,000 characters of a
    /// reference word count), or <see langword="null"/> for an entry written before it was recorded.
    /// </summary>
    public double? BranchSpeed { get; init; }

    /// <summary>
    /// How many cores other processes kept busy while the samples ran (<see cref="PerfRunInfo.OtherProcessesCores"/>). It gates
    /// the measurement being judged; a baseline file stores it only for an entry recorded beside busy processes, whose floor
    /// already holds their effect (<c>TimeAllowance.BusyBoundAsRecorded</c>), and NaN reads as a quiet recording.
    /// </summary>
    public double OtherProcessesCores { get; init; } = double.NaN;

    /// <summary>
    /// The simulated machine of its simulated counters (docs/COUNTERS.md, "Simulated counters"), whose entry holds them;
    /// <see langword="null"/> when it has none. Not stored: the entry's machine says it.
    /// </summary>
    public SimulatorInfo? Simulator { get; init; }

    /// <summary>
    /// How many processes the record was measured in (<see cref="RecordingQuality.Processes"/>; 1 for one process or
    /// none recorded).
    /// </summary>
    public int RecordedProcesses => Counters.Select(static c => c.Recording?.Processes ?? 1).DefaultIfEmpty(1).Max();

    /// <summary>
    /// The spread of each counter whose recorded levels differ, for people: <c>tsc levels 1.34× apart</c>; empty when
    /// none do.
    /// </summary>
    /// <returns>The phrase.</returns>
    public string DescribeSpread() => string.Join(", ", Counters
        .Where(static c => c.Recording is { Spread: > 1 })
        .Select(static c => string.Create(CultureInfo.InvariantCulture, $"{c.Name} levels {c.Recording!.Spread:0.###}× apart")));

    /// <summary>The counter named <paramref name="name"/> (ordinal), or <see langword="null"/>.</summary>
    /// <param name="name">The counter name.</param>
    /// <returns>The counter or <see langword="null"/>.</returns>
    public BaselineCounter? Find(string name) => Counters.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.Ordinal));

    /// <summary>
    /// Takes a measurement as it is compared and stored: its available counters (unavailable ones have nothing to
    /// compare and are reported by the assertions instead), the options that shape the numbers, and its time.
    /// </summary>
    /// <param name="result">A measurement.</param>
    /// <returns>The record of <paramref name="result"/>.</returns>
    public static BaselineRecord FromResult(PerfResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var counters = result.Counters.Where(static c => c.IsAvailable).Select(BaselineCounter.FromResult).ToArray();
        var options = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["operationsPerSample"] = result.OperationsPerSample.ToString(CultureInfo.InvariantCulture),
            ["samples"] = result.SampleCount.ToString(CultureInfo.InvariantCulture),
            ["relativeError"] = result.Options.RelativeError.ToString("R", CultureInfo.InvariantCulture),
            ["pinned"] = result.PinnedCpu is null ? "no" : "yes",
        };
        double speed = result.Run.MachineSpeedNanoseconds;
        double allocation = result.Run.AllocationSpeedNanoseconds;
        double branch = result.Run.BranchSpeedNanoseconds;
        return new BaselineRecord(counters, options, result.TimestampUtc, double.IsFinite(speed) && speed > 0 ? speed : null)
        {
            AllocationSpeed = double.IsFinite(allocation) && allocation > 0 ? allocation : null,
            BranchSpeed = double.IsFinite(branch) && branch > 0 ? branch : null,
            OtherProcessesCores = result.Run.OtherProcessesCores,
            Simulator = result.Run.Simulation?.Simulator,
        };
    }
}
