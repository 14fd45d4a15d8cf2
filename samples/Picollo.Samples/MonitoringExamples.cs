using Picollo.Metrics;

namespace Picollo.Samples;

/// <summary>Snapshots of a live histogram: the article's GettingStartedSnapshot and GettingStartedMonitoring.</summary>
public static class MonitoringExamples
{
    /// <summary>The getting-started tables again, with a delta snapshot instead of a reset.</summary>
    public static void Snapshot()
    {
        var h = HdrHistogram.Factory
            .WithRelativeError(0.01).WithUInt32Storage().WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();
        var rng = new Random(0);
        for (int i = 0; i < 1_000_000; i++)
            h.Record(20_000 + (ulong)((0.5 - rng.NextDouble()) * 1000 + Math.Pow(rng.NextDouble(), 2) * 5000));
        h.Record(40_000);

        var snapshot = h.GetSnapshot();
        var summary = snapshot.GetSummary();
        Console.WriteLine($"P99: {summary.P99}");

        for (int i = 0; i < 2_000_000; i++)
            h.Record(19_000 + (ulong)((0.5 - rng.NextDouble()) * 500 + Math.Pow(rng.NextDouble(), 3) * 10_000));

        snapshot.Update(deltas: true); // only what was recorded since the snapshot was taken
        var summary2 = snapshot.GetSummary();
        summary.PrettyPrint("Histogram Before");
        summary.PrettyPrintDiff(summary2, "Getting Started Diff", "Before", "After");
    }

    /// <summary>
    /// A writer records a drifting distribution as fast as it can while a monitor prints a one-line digest
    /// of each second's deltas; then the aggregate table of the whole run.
    /// </summary>
    public static void Monitoring(int seconds = 3)
    {
        var h = HdrHistogram.Factory
            .WithRelativeError(0.01).WithUInt64Storage().WithMinTrackableValue(10_000).WithMaxTrackableValue(30_000).Create();
        using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(seconds));
        var rng = new Random(0);

        var writer = Task.Run(() =>
        {
            while (!cts.IsCancellationRequested)
            {
                // The drift moves with the wall clock, so the distribution shifts and eventually overflows.
                var drift = (ulong)DateTime.UtcNow.TimeOfDay.TotalMilliseconds & 16383;
                h.Record(20_000 + (ulong)((0.5 - rng.NextDouble()) * 1000 + Math.Pow(rng.NextDouble(), 2) * drift));
            }
        });

        var monitor = Task.Run(async () =>
        {
            var snapshot = h.GetSnapshot();
            var summary = snapshot.GetSummary();
            while (!cts.IsCancellationRequested)
            {
                await Task.Delay(1000).ConfigureAwait(false);
                snapshot.Update(deltas: true);   // this second's values; allocates nothing
                snapshot.GetSummary(summary);    // refilled in place
                Console.WriteLine($"{summary.TimestampUtc:HH:mm:ss.fff} | {summary.ToString(nameof(Monitoring))}");
            }
        });

        Task.WaitAll(writer, monitor);
        h.GetSummary().PrettyPrint("Aggregate");
    }
}
