using Picollo.Metrics;

namespace Picollo.Tests.Metrics;

/// <summary>The article's getting-started histogram and its two distributions, shared by the tests that reproduce it.</summary>
internal static class ArticleWorkload
{
    public static HdrHistogram CreateHistogram() => HdrHistogram.Factory
        .WithRelativeError(0.01)
        .WithUInt32Storage()
        .WithMinTrackableValue(10_000)
        .WithMaxTrackableValue(30_000)
        .Create();

    /// <summary>1,000,000 values around 20,000 with a squared tail (negative doubles saturate to 0 when cast).</summary>
    public static void RecordFirst(HdrHistogram h, Random rng)
    {
        for (int i = 0; i < 1_000_000; i++)
            h.Record(20_000 + (ulong)((0.5 - rng.NextDouble()) * 1000 + Math.Pow(rng.NextDouble(), 2) * 5000));
    }

    /// <summary>2,000,000 values around 19,000 with a cubed, wider tail.</summary>
    public static void RecordSecond(HdrHistogram h, Random rng)
    {
        for (int i = 0; i < 2_000_000; i++)
            h.Record(19_000 + (ulong)((0.5 - rng.NextDouble()) * 500 + Math.Pow(rng.NextDouble(), 3) * 10_000));
    }
}
