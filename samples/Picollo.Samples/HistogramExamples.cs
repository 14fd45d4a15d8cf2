using System.Diagnostics;
using Picollo.Metrics;

namespace Picollo.Samples;

/// <summary>The histogram walkthrough of the Picollo article, runnable one by one.</summary>
public static class HistogramExamples
{
    /// <summary>Two distributions into one 1%-precision histogram: the summary, then the diff after a reset.</summary>
    public static void GettingStarted()
    {
        var h = HdrHistogram.Factory
            .WithRelativeError(0.01)
            .WithUInt32Storage()
            .WithMinTrackableValue(10_000)
            .WithMaxTrackableValue(30_000)
            .Create();

        var rng = new Random(0);
        RecordFirstDistribution(h, rng);
        h.Record(40_000); // outside the trackable range: counted as overflow, never thrown

        var summary = h.GetSummary();
        Console.WriteLine($"P99: {summary.P99}");

        h.Reset();
        for (int i = 0; i < 2_000_000; i++)
            h.Record(19_000 + (ulong)((0.5 - rng.NextDouble()) * 500 + Math.Pow(rng.NextDouble(), 3) * 10_000));

        var after = h.GetSummary();
        summary.PrettyPrint("Histogram Before");
        summary.PrettyPrintDiff(after, "Getting Started Diff", "Before", "After");
    }

    /// <summary>Every non-empty bucket as a percentile ranked at its middle.</summary>
    public static void Percentiles()
    {
        var h = CreateArticleHistogram();
        RecordFirstDistribution(h, new Random(0));
        foreach (Percentile percentile in h.BucketPercentilesWithValues)
            Console.WriteLine(percentile);
    }

    /// <summary>Custom ranks: the batch methods (one consistent read) and the scalar ones.</summary>
    public static void CustomPercentiles()
    {
        var h = CreateArticleHistogram();
        RecordFirstDistribution(h, new Random(0));

        ReadOnlySpan<double> ranks = [90.0, 91, 92, 93, 94, 95, 96, 97, 98];
        var percentiles = new Percentile[ranks.Length];
        var values = new ulong[ranks.Length];
        h.GetPercentiles(ranks, percentiles);
        h.GetPercentileValues(ranks, values);
        foreach (Percentile percentile in percentiles)
            Console.WriteLine(percentile);

        foreach (double rank in ranks)
            Console.WriteLine($"{rank:N0}: {h.GetPercentileValue(rank):N0}");
    }

    /// <summary>Four scopes recording the same sleep in ticks, nanoseconds, microseconds and milliseconds.</summary>
    public static void Scopes(int sleepMilliseconds = 100)
    {
        var h = HdrHistogram.Factory.WithMaxTrackableValue(NanoScope.OneSecondValue * 2).Create();
        using (h.GetTickScope())
            Thread.Sleep(sleepMilliseconds);
        using (h.GetNanoScope())
            Thread.Sleep(sleepMilliseconds);
        using (h.GetMicroScope())
            Thread.Sleep(sleepMilliseconds);
        using (h.GetMilliScope())
            Thread.Sleep(sleepMilliseconds);
        h.GetSummary().PrettyPrint();
    }

    /// <summary>The smallest observable step of <see cref="Stopwatch.GetTimestamp"/> on this machine.</summary>
    public static void ClockResolution()
    {
        var h = HdrHistogram.Factory.Create();
        long last = Stopwatch.GetTimestamp();
        for (int n = 0; n < 1_000_000; n++)
        {
            long now;
            while ((now = Stopwatch.GetTimestamp()) == last)
            {
            }

            h.Record((ulong)(now - last));
            last = now;
        }

        var summary = h.GetSummary();
        Console.WriteLine($"Stopwatch.Frequency: {Stopwatch.Frequency:N0}");
        Console.WriteLine(summary.P0);
        Console.WriteLine(summary.P50);
        Console.WriteLine(summary.P99);
        Console.WriteLine($"P50 measurable nanos: {NanoScope.TicksToNanos((long)summary.P50.Value)}");
    }

    private static HdrHistogram CreateArticleHistogram() => HdrHistogram.Factory
        .WithRelativeError(0.01).WithUInt32Storage().WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();

    private static void RecordFirstDistribution(HdrHistogram h, Random rng)
    {
        // Negative doubles saturate to 0 when cast to ulong (.NET 9+), which piles the left tail onto 20,000.
        for (int i = 0; i < 1_000_000; i++)
            h.Record(20_000 + (ulong)((0.5 - rng.NextDouble()) * 1000 + Math.Pow(rng.NextDouble(), 2) * 5000));
    }
}
