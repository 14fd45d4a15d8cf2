namespace Picollo.Baselines;

/// <summary>One measurement of a test on one machine: its counters, the options it ran with and when.</summary>
/// <param name="Counters">The counters; names must be unique.</param>
/// <param name="Options">The measurement options in words (free-form, e.g. <c>samples</c> → <c>1000</c>), kept for review.</param>
/// <param name="RecordedUtc">When the measurement was taken; stored to the second.</param>
public sealed record BaselineRecord(IReadOnlyList<BaselineCounter> Counters, IReadOnlyDictionary<string, string> Options, DateTime RecordedUtc)
{
    /// <summary>The counter named <paramref name="name"/> (ordinal), or <see langword="null"/>.</summary>
    /// <param name="name">The counter name.</param>
    /// <returns>The counter or <see langword="null"/>.</returns>
    public BaselineCounter? Find(string name) => Counters.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.Ordinal));
}
