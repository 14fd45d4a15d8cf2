namespace Picollo.Benchmarks;

/// <summary>The article's record workload: 1,000,000 cube-skewed values from <c>new Random(42)</c>, shuffled.</summary>
internal static class RecordWorkload
{
    public const int Count = 1_000_000;

    /// <summary>The article's value multiplier and first max trackable value (HdrHistogram.NET's test default).</summary>
    public const long ArticleMaxValue = 7_716_549_600;

    // Cubing a uniform variate skews the values towards 0, like latencies.
    private const int RandomPower = 3;

    /// <summary>
    /// Generates the values in [0, <paramref name="maxValue"/>]: the article's formula with its
    /// multiplier replaced by the case's max trackable value, so every value takes the in-range path
    /// (HdrHistogram.NET throws on values above its highest trackable value).
    /// </summary>
    public static long[] Create(long maxValue)
    {
        var values = new long[Count];
#pragma warning disable CA5394 // Reproducible benchmark data, not security.
        var random = new Random(42);
        for (int i = 0; i < values.Length; i++)
        {
            // The double → long conversion saturates on .NET 9+, so long.MaxValue · 0.99… stays in range.
            values[i] = (long)(Math.Pow(random.NextDouble(), RandomPower) * maxValue);
        }

        random.Shuffle(values);
#pragma warning restore CA5394
        return values;
    }
}
