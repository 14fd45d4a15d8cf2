using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Picollo.Observation;
using Picollo.Tests.PerfEvents;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Observation;

/// <summary>
/// The span events on the path dotnet-trace and PerfView take: an EventPipe session opened on this process through its
/// diagnostic port, its stream parsed by TraceEvent. Writing them allocates nothing while the session listens.
/// </summary>
[Collection(PerfKernelTestGroup.Name)]
public sealed class PerfSpanEventPipeTests
{
    private static byte[]? s_keep;

    [Fact]
    public async Task EventPipeSession_ReceivesEverySpanEndedWithItsPayload_AndWritingAllocatesNothing()
    {
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("eventpipe"));
        using (span.Enter())
        {
        }

        var client = new DiagnosticsClient(Environment.ProcessId);
        var ended = new ConcurrentQueue<(string Span, long Value0, long Value1, long Value2)>();
        var defined = new ConcurrentQueue<string>();
        long allocated;
        int probed = 0;
        using (EventPipeSession session = client.StartEventPipeSession(
            [new EventPipeProvider(PerfSpan.EventSourceName, EventLevel.Informational, 0x1)], requestRundown: false))
        {
            Task reader = Task.Run(() =>
            {
                using var source = new EventPipeEventSource(session.EventStream);
                source.Dynamic.All += e =>
                {
                    if (e.ProviderName != PerfSpan.EventSourceName || (string)e.PayloadByName("Span") != span.Name)
                        return;
                    if (e.EventName == "SpanEnded")
                        ended.Enqueue(((string)e.PayloadByName("Span"), (long)e.PayloadByName("Value0"), (long)e.PayloadByName("Value1"), (long)e.PayloadByName("Value2")));
                    else if (e.EventName == "SpanDefined")
                        defined.Enqueue((string)e.PayloadByName("Counters"));
                };
                source.Process();
            }, TestContext.Current.CancellationToken);

            await WaitUntil(static () => Picollo.Observation.PerfSpanEventSource.Log.SpansEnabled);
            for (int i = 0; i < 30; i++)
            {
                using (span.Enter())
                    s_keep = new byte[1000];
            }

            // The probe measures again when a collection interrupted its window: count the spans it ran.
            allocated = AllocationProbe.Measure(() =>
            {
                for (int i = 0; i < 1_000; i++)
                    span.Enter().Dispose();
                probed += 1_000;
            });

            await session.StopAsync(TestContext.Current.CancellationToken);
            await reader;
        }

        allocated.ShouldBe(0L, "SpanEnded is written from stack buffers while an EventPipe session listens");
        defined.ShouldContain("tsc,allocated-bytes", "the definitions are written when the session enables the source");
        ended.Count.ShouldBe(30 + probed);
        ended.Take(30).ShouldAllBe(e => e.Value0 > 0 && e.Value1 == 1024 && e.Value2 == 0);
        ended.Skip(30).ShouldAllBe(e => e.Value1 == 0);
    }

    [Fact]
    public async Task MetricsEventPipeSession_AsDotnetCountersOpensIt_PublishesTheSpanHistogramsWithTheirCountsAndSums()
    {
        // What `dotnet-counters monitor --counters Picollo` does: an EventPipe session on System.Diagnostics.Metrics naming the
        // meter; the runtime's own aggregator listens to the instruments and publishes each histogram's quantiles, count and
        // sum once per refresh interval.
        PerfSpan span = PerfSpan.Create(PerfSpanTests.UniqueName("counters"));
        string tag = "picollo.span=" + span.Name;
        var client = new DiagnosticsClient(Environment.ProcessId);
        var reporting = new ConcurrentQueue<string>();
        var published = new ConcurrentQueue<(string Instrument, string Unit, string Quantiles, int Count, double Sum)>();
        var arguments = new Dictionary<string, string>
        {
            ["SessionId"] = Guid.NewGuid().ToString("N"),
            ["Metrics"] = PerfSpan.MeterName,
            ["RefreshInterval"] = "0.5",
            ["MaxTimeSeries"] = "1000",
            ["MaxHistograms"] = "100",
        };
        using (EventPipeSession session = client.StartEventPipeSession(
            [new EventPipeProvider("System.Diagnostics.Metrics", EventLevel.Informational, 0x2, arguments)], requestRundown: false))
        {
            Task reader = Task.Run(() =>
            {
                using var source = new EventPipeEventSource(session.EventStream);
                source.Dynamic.All += e =>
                {
                    if (e.ProviderName != "System.Diagnostics.Metrics" || e.PayloadByName("meterName") as string != PerfSpan.MeterName)
                        return;
                    if (e.EventName == "BeginInstrumentReporting")
                        reporting.Enqueue((string)e.PayloadByName("instrumentName"));
                    else if (e.EventName == "HistogramValuePublished" && ((string)e.PayloadByName("tags")).Contains(tag, StringComparison.Ordinal))
                        published.Enqueue(((string)e.PayloadByName("instrumentName"), (string)e.PayloadByName("unit"), (string)e.PayloadByName("quantiles"), (int)e.PayloadByName("count"), (double)e.PayloadByName("sum")));
                };
                source.Process();
            }, TestContext.Current.CancellationToken);

            await WaitUntil(() => reporting.Contains("picollo.span.allocated"), "the metrics session subscribed to the Picollo instruments");
            for (int i = 0; i < 200; i++)
            {
                using (span.Enter())
                    s_keep = new byte[1000];
            }

            await WaitUntil(() => Allocated(published).Sum(static p => p.Count) >= 200, "the session published the span's allocated-bytes histogram");
            await WaitUntil(() => published.Any(static p => p.Instrument == "picollo.span.duration"), "the session published the span's duration histogram");
            await session.StopAsync(TestContext.Current.CancellationToken);
            await reader;
        }

        var allocated = Allocated(published).ToList();
        allocated.Sum(static p => p.Count).ShouldBe(200);
        allocated.Sum(static p => p.Sum).ShouldBe(200 * 1024.0, "byte[1000] is 1,024 bytes, and the aggregator sums the exact values");
        allocated.ShouldAllBe(static p => p.Unit == "By");
        allocated.First(static p => p.Count > 0).Quantiles.ShouldContain("0.5=1024");
        published.First(static p => p.Instrument == "picollo.span.duration").Unit.ShouldBe("s");
    }

    private static IEnumerable<(string Instrument, string Unit, string Quantiles, int Count, double Sum)> Allocated(
        IEnumerable<(string Instrument, string Unit, string Quantiles, int Count, double Sum)> published) =>
        published.Where(static p => p.Instrument == "picollo.span.allocated");

    private static async Task WaitUntil(Func<bool> condition, string what = "the EventPipe session enabled the Picollo event source")
    {
        for (int i = 0; i < 1_000 && !condition(); i++)
            await Task.Delay(10, TestContext.Current.CancellationToken);
        condition().ShouldBeTrue(what + " within 10 s");
    }
}
