using Picollo.Counters;
using Picollo.Observation;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Observation;

/// <summary>
/// Spans on many short-lived threads, on the real kernel: the counts of exited threads are kept, each thread's
/// perf_event session is closed once it has exited, and a monitor reading meanwhile sees consistent snapshots.
/// </summary>
[Collection(Name)]
public sealed class PerfSpanThreadChurnTests
{
    /// <summary>
    /// A collection of its own that runs after the parallel ones, alone: 64 busy threads would slow the perf measurements of
    /// other tests (whose verdicts then stay unjudged), and other tests' perf fds would disturb the fd count.
    /// </summary>
    public const string Name = "span thread churn";

    private const int Threads = 64;
    private const int SpansPerThread = 200;

    [Fact]
    public void SixtyFourThreadsEnteringSpansWhileExiting_NoCountIsLostAndNoFdLeaks()
    {
        // task-clock needs a read() per boundary, so every thread opens a real perf_event fd of its own.
        PerfSpan span = PerfSpan.Create(
            PerfSpanTests.UniqueName("churn"),
            new PerfSpanOptions { Counters = [CounterNames.Tsc, CounterNames.AllocatedBytes, CounterNames.TaskClock], AllowSyscallReads = true });
        span.Counters.ShouldAllBe(c => c.IsAvailable);
        SpanSessionSweeper.Sweep();
        int fdsBefore = OpenPerfEventFds();

        var monitor = new PerfSpanMonitor(deltas: true);
        ulong seenByMonitor = 0;
        using var start = new Barrier(Threads);
        var threads = new Thread[Threads];
        for (int t = 0; t < Threads; t++)
        {
            threads[t] = new Thread(() =>
            {
                start.SignalAndWait();
                for (int i = 0; i < SpansPerThread; i++)
                {
                    using (span.Enter())
                        Thread.SpinWait(50);
                }
            });
            threads[t].Start();
        }

        // A monitor polls while threads record and exit (their shards are folded into the histogram's totals meanwhile).
        while (threads.Any(static t => t.IsAlive))
            seenByMonitor += monitor.Update().Single(s => s.Span == span).Count;
        foreach (Thread thread in threads)
            thread.Join();
        seenByMonitor += monitor.Update().Single(s => s.Span == span).Count;

        foreach (PerfSpanCounter counter in span.Counters)
            counter.Histogram.TotalCount.ShouldBe((ulong)(Threads * SpansPerThread), counter.Name);
        seenByMonitor.ShouldBe((ulong)(Threads * SpansPerThread), "the deltas of a polling monitor add up to every span");
        span.UncountedSpans.ShouldBe(0);
        span.ThreadHops.ShouldBe(0);

        SpanSessionSweeper.Sweep();
        OpenPerfEventFds().ShouldBe(fdsBefore, "every exited thread's session is closed");
    }

    /// <summary>fds of this process that are perf events (/proc/self/fd/N -> anon_inode:[perf_event]).</summary>
    private static int OpenPerfEventFds() => Directory.GetFiles("/proc/self/fd")
        .Count(path => new FileInfo(path).LinkTarget is "anon_inode:[perf_event]");
}

/// <summary>The collection of <see cref="PerfSpanThreadChurnTests"/>: never run beside another test.</summary>
[CollectionDefinition(PerfSpanThreadChurnTests.Name, DisableParallelization = true)]
public sealed class PerfSpanThreadChurnTestGroup;
