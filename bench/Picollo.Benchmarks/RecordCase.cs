using System.Globalization;

namespace Picollo.Benchmarks;

/// <summary>
/// One case of the record benchmark: the histograms' max trackable value and the largest value the
/// workload draws. In-range cases draw up to the max trackable value; the overflow-heavy case draws up to
/// the article's 7,716,549,600 into a 30,000 histogram, so most values land in the overflow slot.
/// </summary>
internal readonly record struct RecordCase(long MaxTrackableValue, long ValueMax)
{
    public bool IsOverflowHeavy => ValueMax > MaxTrackableValue;

    /// <summary>For tables: "30,000", or "30,000 ← 7,716,549,600" when the values reach past the max trackable value.</summary>
    public string Label => IsOverflowHeavy
        ? string.Create(CultureInfo.InvariantCulture, $"{MaxTrackableValue:N0} ← {ValueMax:N0}")
        : MaxTrackableValue.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>For goal rows: like <see cref="Label"/>, with long.MaxValue spelled out.</summary>
    public string ShortLabel => MaxTrackableValue == long.MaxValue ? "long.MaxValue" : Label;

    public static RecordCase InRange(long maxTrackableValue) => new(maxTrackableValue, maxTrackableValue);
}
