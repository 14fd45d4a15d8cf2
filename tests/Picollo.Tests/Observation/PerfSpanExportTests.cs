using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Diagnostics.Tracing;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using Picollo.Counters;
using Picollo.Observation;
using Picollo.Tests.PerfEvents;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Observation;

/// <summary>
/// What spans hand to the engines operators run: the <c>Picollo</c> meter read by a <see cref="MeterListener"/> and by the real
/// OpenTelemetry SDK (in-memory exporter), and the <c>Picollo</c> event source read by an <see cref="EventListener"/>.
/// </summary>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfSpanExportTests
{
    private static byte[]? s_keep;

    [Fact]
    public void MeterListener_SeesEverySpanWithItsNameUnitAndValue()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("meter"));
        var durations = new List<double>();
        var allocations = new List<long>();
        using var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, l) =>
            {
                if (instrument.Meter.Name == PerfSpan.MeterName)
                    l.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) =>
        {
            if (instrument.Name == "picollo.span.duration" && HasSpanTag(tags, span.Name))
            {
                instrument.Unit.ShouldBe("s");
                durations.Add(value);
            }
        });
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            if (instrument.Name == "picollo.span.allocated" && HasSpanTag(tags, span.Name))
            {
                instrument.Unit.ShouldBe("By");
                allocations.Add(value);
            }
        });
        listener.Start();

        for (int i = 0; i < 300; i++)
        {
            using (span.Enter())
                s_keep = new byte[1000];
        }

        durations.Count.ShouldBe(300);
        allocations.ShouldAllBe(a => a == 1024);
        allocations.Count.ShouldBe(300);
        span.Counters[0].Histogram.TotalCount.ShouldBe(300UL, "every exported span is a recorded span");
        // The exported seconds are the recorded ticks converted: their extremes fall in the histogram's extreme buckets.
        double secondsPerTick = 1 / Tsc.Frequency.Hertz;
        PerfSpanTests.SameBucket(span.Counters[0].Histogram, (ulong)Math.Round(durations.Max() / secondsPerTick), span.Counters[0].Histogram.GetPercentile(100).Value).ShouldBeTrue();
        PerfSpanTests.SameBucket(span.Counters[0].Histogram, (ulong)Math.Round(durations.Min() / secondsPerTick), span.Counters[0].Histogram.GetPercentile(0).Value).ShouldBeTrue();
    }

    [Fact]
    public void MeterListener_Listening_SpansStillAllocateNothing()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("meter-alloc"));
        long seen = 0;
        using var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, l) =>
            {
                if (instrument.Meter.Name == PerfSpan.MeterName)
                    l.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<double>((_, _, _, _) => seen++);
        listener.SetMeasurementEventCallback<long>((_, _, _, _) => seen++);
        listener.Start();
        span.Enter().Dispose();

        // The least of three windows, as in PerfSpanTests.Enter_SteadyState_AllocatesNothing.
        Enumerable.Range(0, 3).Min(_ => AllocationProbe.Measure(() =>
        {
            for (int i = 0; i < 10_000; i++)
                span.Enter().Dispose();
        })).ShouldBe(0L);
        seen.ShouldBeGreaterThanOrEqualTo(2 * 30_001);
    }

    [Fact]
    public void OpenTelemetrySdk_ExportsHistogramsWhoseCountsAndSumsAreWhatTheSpansRecorded()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("otel"));
        var exported = new List<Metric>();
        double recordedSeconds = 0;
        using var sideListener = new MeterListener
        {
            InstrumentPublished = static (instrument, l) =>
            {
                if (instrument.Name == "picollo.span.duration")
                    l.EnableMeasurementEvents(instrument);
            },
        };
        sideListener.SetMeasurementEventCallback<double>((_, value, tags, _) =>
        {
            if (HasSpanTag(tags, span.Name))
                recordedSeconds += value;
        });
        sideListener.Start();

        using (MeterProvider provider = Sdk.CreateMeterProviderBuilder().AddMeter(PerfSpan.MeterName).AddInMemoryExporter(exported).Build())
        {
            for (int i = 0; i < 250; i++)
            {
                using (span.Enter())
                    s_keep = new byte[1000];
            }

            provider.ForceFlush().ShouldBeTrue();
        }

        MetricPoint allocated = PointOf(exported, "picollo.span.allocated", span.Name);
        allocated.GetHistogramCount().ShouldBe(250L);
        allocated.GetHistogramSum().ShouldBe(250.0 * 1024);

        Metric durationMetric = exported.Last(m => m.Name == "picollo.span.duration");
        durationMetric.Unit.ShouldBe("s");
        MetricPoint duration = PointOf(exported, "picollo.span.duration", span.Name);
        duration.GetHistogramCount().ShouldBe((long)span.Counters[0].Histogram.TotalCount);
        duration.GetHistogramSum().ShouldBe(recordedSeconds, recordedSeconds * 1e-9);

        // The meter's bucket advice reaches the SDK: sub-microsecond boundaries, not its millisecond defaults.
        var bounds = new List<double>();
        foreach (HistogramBucket bucket in duration.GetHistogramBuckets())
            bounds.Add(bucket.ExplicitBound);
        bounds.ShouldContain(1e-6);
    }

    [Fact]
    public void EventListener_ReadsTheSpanDefinitionAndEverySpanEndedWithItsValues()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("events"));
        using var listener = new SpanEventListener(span.Name);

        RecordThenHop(span, 40);

        EventWrittenEventArgs definition = listener.Events.First(e => e.EventName == "SpanDefined");
        definition.PayloadNames.ShouldBe(["SpanId", "Span", "Counters", "Units", "TscTicksPerSecond"]);
        definition.Payload![2].ShouldBe("tsc,allocated-bytes");
        definition.Payload[3].ShouldBe("ticks,bytes");
        ((long)definition.Payload[4]!).ShouldBeInRange((long)Tsc.Frequency.Hertz - 1, (long)Tsc.Frequency.Hertz + 1);

        EventWrittenEventArgs[] ended = [.. listener.Events.Where(e => e.EventName == "SpanEnded")];
        ended.Length.ShouldBe(40);
        ended.ShouldAllBe(e => (string)e.Payload![1]! == span.Name && (int)e.Payload[0]! == (int)definition.Payload![0]!);
        ended.ShouldAllBe(e => (long)e.Payload![2]! > 0 && (long)e.Payload[3]! == 1024);
        ended.ShouldAllBe(e => e.Payload!.Skip(4).All(v => (long)v! == 0), "slots past the span's counters are zero");
        listener.Events.Count(e => e.EventName == "SpanHopped").ShouldBe(1);
    }

    [Fact]
    public void Monitor_PrintsEachSpansCountsPercentilesAndHops_AndDeltasPerInterval()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("report"));
        var monitor = new PerfSpanMonitor();
        monitor.Update();
        RecordThenHop(span, 100);

        monitor.Update();
        string report = monitor.ToMarkdown();
        PerfSpanSnapshot snapshot = monitor.Spans.Single(s => s.Span == span);
        snapshot.Count.ShouldBe(100UL);
        snapshot.ThreadHops.ShouldBe(1);
        string row = report.Split('\n').Single(l => l.StartsWith("| " + span.Name, StringComparison.Ordinal));
        row.ShouldMatch(@"^\| report-\w+ +\| +100 \|");
        row.ShouldContain("1.0 KiB");
        row.TrimEnd().ShouldMatch(@"\| +1 \|$");
        report.ShouldContain("| span ");
        report.ShouldContain("time P50");
        report.ShouldContain("allocated P99");
        report.ShouldContain("- hops: scopes disposed on another thread");

        monitor.Update();
        monitor.Spans.Single(s => s.Span == span).Count.ShouldBe(0UL, "nothing was recorded since the previous update");
        monitor.ToMarkdown().ShouldNotContain("| " + span.Name);
    }

    [Fact]
    public void Monitor_Markdown_ShowsTheExactAllocatedBytesWhereTheBucketHoldsOneObjectSize()
    {
        // byte[120] is 144 bytes (16 header, 8 length, 120 data); its 1 % bucket is [144, 145], whose midpoint is 145.
        PerfSpan span = PerfSpan.Create("bytes-" + Guid.NewGuid().ToString("N")[..8]);
        var monitor = new PerfSpanMonitor(deltas: false);
        for (int i = 0; i < 10; i++)
        {
            using (span.Enter())
                s_keep = new byte[120];
        }

        monitor.Update();
        string[] lines = monitor.ToMarkdown().Split('\n');
        // Spans of tests running alongside may add columns: the cells are found by their header.
        string[] header = [.. lines.First(static l => l.StartsWith("| span", StringComparison.Ordinal)).Split('|').Select(static c => c.Trim())];
        string row = lines.Single(l => l.StartsWith("| " + span.Name, StringComparison.Ordinal));
        string[] cells = [.. row.Split('|').Select(static c => c.Trim())];
        cells[Array.IndexOf(header, "allocated P50")].ShouldBe("144 B", row);
        cells[Array.IndexOf(header, "allocated P99")].ShouldBe("144 B", row);
    }

    [Fact]
    public void Monitor_Markdown_ListsTheCountersThatDoNotCountOnceForEachReason()
    {
        PerfSpan span = PerfSpan.Create("uncounted-" + Guid.NewGuid().ToString("N")[..8], CounterNames.Tsc, CounterNames.TaskClock, "page-faults");
        var monitor = new PerfSpanMonitor(deltas: false);
        using (span.Enter())
            s_keep = new byte[10];

        monitor.Update();
        string[] notCounted = [.. monitor.ToMarkdown().Split('\n').Where(l => l.StartsWith("- not counted:", StringComparison.Ordinal) && l.Contains(span.Name, StringComparison.Ordinal))];

        // Both software counters share one reason, which names neither: one line, the names before it. (Spans of tests running
        // alongside may share the line, so it is matched by its parts.)
        string line = notCounted.ShouldHaveSingleItem();
        line.ShouldStartWith("- not counted: task-clock, page-faults (");
        line.ShouldContain(span.Name + ")", Case.Sensitive);
        line.ShouldEndWith(
            "): kernel software counters have no hardware counter index, so each read is a read() system call (microseconds each, " +
            "two per span); spans count them only when asked: PerfSpanOptions.AllowSyscallReads = true.");
    }

    [Fact]
    public void Monitor_Deltas_TheFirstUpdateHoldsWhatTheSpanRecordedBeforeTheMonitorSawIt()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("before"));
        for (int i = 0; i < 5; i++)
            span.Enter().Dispose();
        var monitor = new PerfSpanMonitor();

        monitor.Update().Single(s => s.Span == span).Count.ShouldBe(5UL);
        for (int i = 0; i < 3; i++)
            span.Enter().Dispose();
        monitor.Update().Single(s => s.Span == span).Count.ShouldBe(3UL);
    }

    [Fact]
    public void Monitor_Totals_KeepCountingAcrossUpdates()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("totals"));
        var monitor = new PerfSpanMonitor(deltas: false);
        span.Enter().Dispose();
        monitor.Update();
        span.Enter().Dispose();
        monitor.Update();

        monitor.Spans.Single(s => s.Span == span).Count.ShouldBe(2UL);
    }

    /// <summary>Records <paramref name="spans"/> spans of a 1,024-byte allocation each, then one scope disposed on another thread.</summary>
    private static void RecordThenHop(PerfSpan span, int spans)
    {
        for (int i = 0; i < spans; i++)
        {
            using (span.Enter())
                s_keep = new byte[1000];
        }

        PerfSpanScope hopping = span.Enter();
        var other = new Thread(() => hopping.Dispose());
        other.Start();
        other.Join();
    }

    private static bool HasSpanTag(ReadOnlySpan<KeyValuePair<string, object?>> tags, string name)
    {
        foreach (KeyValuePair<string, object?> tag in tags)
        {
            if (tag.Key == "picollo.span" && (string?)tag.Value == name)
                return true;
        }

        return false;
    }

    private static MetricPoint PointOf(List<Metric> exported, string metric, string span)
    {
        foreach (MetricPoint point in exported.Last(m => m.Name == metric).GetMetricPoints())
        {
            foreach (KeyValuePair<string, object?> tag in point.Tags)
            {
                if (tag.Key == "picollo.span" && (string?)tag.Value == span)
                    return point;
            }
        }

        throw new ShouldAssertException($"No point of {metric} carries picollo.span = {span}.");
    }

    /// <summary>Collects the Picollo event source's events of one span (and the definitions written when it enables).</summary>
    private sealed class SpanEventListener(string span) : EventListener
    {
        private readonly ConcurrentQueue<EventWrittenEventArgs> _events = new();

        public IReadOnlyCollection<EventWrittenEventArgs> Events => _events;

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == PerfSpan.EventSourceName)
                EnableEvents(eventSource, EventLevel.Informational, (EventKeywords)0x1);
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            // The constructor's base call enables the source before the primary-constructor field is set.
            if (span is not null && eventData.Payload is { Count: > 1 } payload && payload[1] as string == span)
                _events.Enqueue(eventData);
        }
    }
}
