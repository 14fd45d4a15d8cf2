using System.Text;
using Picollo.PerfEvents;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.PerfEvents;

public sealed class PerfEventNameMessagesTests
{
    private const string Sysfs = "/sys/bus/event_source/devices";

    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "UnknownEvent: a typo", PerfEventNameMessages.UnknownEvent("cyclse", ["cycles", "cycles-ct", "cycles-t"], Sysfs));
        Add(text, "UnknownEvent: with a perf modifier", PerfEventNameMessages.UnknownEvent("cycles:u", ["cycles"], Sysfs));
        Add(text, "UnknownEvent: nothing close", PerfEventNameMessages.UnknownEvent("zzzz", [], Sysfs));
        Add(text, "ScalesDiffer", PerfEventNameMessages.ScalesDiffer(
            "energy-pkg", "power/energy-pkg/ (2.3283064365386963E-10 Joules), power_core/energy-pkg/ (1 Joules)"));
        Add(text, "MapsToSeveralEvents", PerfEventNameMessages.MapsToSeveralEvents("cycles", 2, "cpu_core/cycles/, cpu_atom/cycles/"));
        Add(text, "Malformed: a value too wide", PerfEventNameMessages.Malformed(
            "cpu/event=0x1ff/", 4, $"the value 0x1ff of 'event' does not fit in its 8 bits ({Sysfs}/cpu/format/event)"));
        Add(text, "TextAfterClosingSlash", PerfEventNameMessages.Malformed(
            "cpu/event=0x3c/u", 15, PerfEventNameMessages.TextAfterClosingSlash("u")));
        Add(text, "ParameterMissing", PerfEventNameMessages.Malformed(
            "hv_24x7/PM_PB_CYC/", 0, PerfEventNameMessages.ParameterMissing("domain", "PM_PB_CYC", "hv_24x7", $"{Sysfs}/hv_24x7/events/")));
        Add(text, "UnknownPmu", PerfEventNameMessages.UnknownPmu("cpuu", "cpuu/event=0x3c/", ["cpu", "msr", "power", "software"], Sysfs));
        Add(text, "UnknownPmu: none listed", PerfEventNameMessages.UnknownPmu("cpu", "cpu/event=0x3c/", [], Sysfs));
        Add(text, "UnknownTerm: a typo", PerfEventNameMessages.UnknownTerm(
            "umsk", 15, "cpu/event=0x3c,umsk=0x01/", "", "cpu", ["umask", "cmask", "name"], "any, cmask, edge, event, inv, umask", $"{Sysfs}/cpu/events/"));
        Add(text, "UnknownTerm: in a sysfs event, nothing close", PerfEventNameMessages.UnknownTerm(
            "period", 4, "cpu/mem-loads/", $" (in sysfs event 'mem-loads': {Sysfs}/cpu/events/mem-loads)", "cpu", [], "event, umask",
            $"{Sysfs}/cpu/events/"));

        Approvals.Verify(text.ToString(), "PerfEventNameMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
