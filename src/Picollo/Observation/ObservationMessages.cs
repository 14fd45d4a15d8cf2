using System.Globalization;

namespace Picollo.Observation;

/// <summary>
/// The messages of spans in one place: a span created twice with other counters or asking for counters it cannot count,
/// counters a span leaves out and why, and the notes of the span monitor's report.
/// </summary>
internal static class ObservationMessages
{
    /// <summary>
    /// Given when a span named <paramref name="name"/> already exists with other counters or options than those this call
    /// asks for.
    /// </summary>
    internal static string SpanExistsWithOtherCounters(
        string name,
        IEnumerable<string> existingCounters,
        bool existingAllowsSyscallReads,
        double existingRelativeError,
        IEnumerable<string> counters,
        bool allowsSyscallReads,
        double relativeError) =>
        $"A span named '{name}' already exists with counters [{string.Join(", ", existingCounters)}] " +
        $"(syscall reads {(existingAllowsSyscallReads ? "allowed" : "not allowed")}, " +
        $"relative error {existingRelativeError.ToString(CultureInfo.InvariantCulture)}); " +
        $"this call asks for [{string.Join(", ", counters)}] (syscall reads {(allowsSyscallReads ? "allowed" : "not allowed")}, " +
        $"relative error {relativeError.ToString(CultureInfo.InvariantCulture)}). " +
        "A name is one span with one set of counters: give this one another name, or create it once in a static field and share it.";

    /// <summary>
    /// Given when span <paramref name="name"/> asks for <paramref name="counter"/>, a .NET runtime counter of the whole
    /// process, which a span cannot attribute to its thread.
    /// </summary>
    internal static string ProcessWideCounterInSpan(string name, string counter) =>
        $"Span '{name}': '{counter}' is a .NET runtime counter of the whole process (or of JIT activity), not of the thread that " +
        "runs the span, so a span cannot attribute it. " +
        "Spans count tsc, allocated-bytes and perf_event counters ('picollo list' shows this machine's); the runtime publishes " +
        "its own counters to dotnet-counters (System.Runtime).";

    /// <summary>Given when span <paramref name="name"/> asks for more perf_event counters than <paramref name="max"/>.</summary>
    internal static string TooManyPerfCounters(string name, IReadOnlyList<string> counters, int max) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"Span '{name}' asks for {counters.Count} perf_event counters ({string.Join(", ", counters)}); a span counts at most {max}. ") +
        "A core PMU has 4 to 8 programmable counters, beyond which the kernel multiplexes them: split the counters over two spans.";

    /// <summary>Why a span leaves out the kernel software counters it was asked for, unless syscall reads are allowed.</summary>
    internal static string SoftwareCountersNeedSyscalls() =>
        "kernel software counters have no hardware counter index, so each read is a read() system call (microseconds each, " +
        "two per span); spans count them only when asked: PerfSpanOptions.AllowSyscallReads = true.";

    /// <summary>Why a span leaves out the hardware counters <paramref name="names"/>: this thread cannot read them with rdpmc.</summary>
    internal static string NoRdpmc(IReadOnlyList<string> names) =>
        string.Join(", ", names) + ": the kernel does not let this thread read " + (names.Count == 1 ? "it" : "them") +
        " with rdpmc (the mmap page has cap_user_rdpmc = 0: /sys/bus/event_source/devices/cpu/rdpmc is 0, or an event is not " +
        "a CPU PMU event), so each read would be a read() system call (microseconds each). Allow rdpmc with " +
        "'echo 1 | sudo tee /sys/bus/event_source/devices/cpu/rdpmc', or pay the system call with " +
        "PerfSpanOptions.AllowSyscallReads = true.";

    /// <summary>The monitor's note on span <paramref name="name"/>, which did not record <paramref name="uncounted"/> spans.</summary>
    internal static string UncountedSpans(string name, long uncounted) =>
        "- " + name + ": " + uncounted.ToString("N0", CultureInfo.InvariantCulture) +
        " spans not recorded: a value could not be trusted (the thread could not open or read the span's perf_event group, " +
        "a counter was multiplexed out for the whole span, or the TSC went backwards); PerfSpan.UncountedSpans counts them.\n";

    /// <summary>The monitor's note when scopes were disposed on another thread than the one that entered them.</summary>
    internal static string ThreadHops() =>
        "- hops: scopes disposed on another thread than the one that entered them (an await resumed elsewhere); counted, " +
        "not recorded.\n";
}
