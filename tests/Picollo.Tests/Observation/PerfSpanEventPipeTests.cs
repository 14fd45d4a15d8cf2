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

    private static async Task WaitUntil(Func<bool> condition)
    {
        for (int i = 0; i < 500 && !condition(); i++)
            await Task.Delay(10, TestContext.Current.CancellationToken);
        condition().ShouldBeTrue("the EventPipe session enabled the Picollo event source within 5 s");
    }
}
