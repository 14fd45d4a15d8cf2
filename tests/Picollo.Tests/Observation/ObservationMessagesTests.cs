using System.Text;
using Picollo.Observation;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Observation;

public sealed class ObservationMessagesTests
{
    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "SpanExistsWithOtherCounters", ObservationMessages.SpanExistsWithOtherCounters(
            "parse", ["tsc", "allocated-bytes"], false, 0.01, ["tsc", "allocated-bytes", "cycles"], true, 0.01));
        Add(text, "ProcessWideCounterInSpan", ObservationMessages.ProcessWideCounterInSpan("parse", "gc-count"));
        Add(text, "TooManyPerfCounters", ObservationMessages.TooManyPerfCounters(
            "parse", ["cycles", "instructions", "branch-misses", "cache-misses", "L1-dcache-load-misses", "LLC-load-misses", "dTLB-load-misses"], 6));
        Add(text, "SoftwareCountersNeedSyscalls", "task-clock, page-faults: " + ObservationMessages.SoftwareCountersNeedSyscalls());
        Add(text, "NoRdpmc: one counter", ObservationMessages.NoRdpmc(["cycles"]));
        Add(text, "NoRdpmc: several counters", ObservationMessages.NoRdpmc(["cycles", "instructions"]));
        Add(text, "UncountedSpans", ObservationMessages.UncountedSpans("parse", 12_345));
        Add(text, "ThreadHops", ObservationMessages.ThreadHops());

        Approvals.Verify(text.ToString(), "ObservationMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
