using Picollo.Counters;
using Picollo.Metrics;
using Picollo.PerfEvents;

namespace Picollo.Observation;

/// <summary>
/// What creating a <see cref="PerfSpan"/> checks and builds: the requested counter names validated into the span's key
/// (with the options, what makes a second creation the same span), then its counters, their histograms and its perf_event
/// plan. The span itself only enters, exits and records.
/// </summary>
internal static class SpanDefinition
{
    /// <summary>The largest value a span histogram stores in a bucket (2^44); larger ones are counted in its overflow slot.</summary>
    public const ulong MaxTrackableValue = 1UL << 44;

    /// <summary>The histograms of a span's counters and of its IPC, one shard per thread that enters the span.</summary>
    // Every thread that enters a span holds a shard per counter, so the range is bounded: 2^44 is 1.6 hours of a 3 GHz TSC,
    // 16 TiB, 1.7e13 events, and keeps a 1% shard at 20 KB instead of 30 KB for the whole ulong range (docs/OBSERVATION.md,
    // "Memory"). A longer span still counts, in the overflow slot.
    public static HdrHistogramBuilder Histograms(PerfSpanOptions options) =>
        HdrHistogram.Factory
            .WithRelativeError(options.RelativeError)
            .WithMaxTrackableValue(MaxTrackableValue)
            .WithConcurrency(HdrConcurrency.ThreadLocal);

    /// <summary>The requested counters, validated and in slot order: what makes two creations the same span.</summary>
    public static string[] CounterKey(string name, PerfSpanOptions options)
    {
        IReadOnlyList<string> requested =
            options.Counters is null || options.Counters.Count == 0 ? PerfSpanOptions.DefaultCounters : options.Counters;
        bool tsc = false, allocated = false;
        var perf = new List<string>();
        foreach (string raw in requested)
        {
            string counter = raw?.Trim() ?? string.Empty;
            if (counter.Length == 0)
            {
                throw new ArgumentException(
                    $"Span '{name}': a counter name is empty. Name counters such as \"tsc\", \"allocated-bytes\", \"cycles\".",
                    nameof(options));
            }

            if (counter.Equals(CounterNames.Tsc, StringComparison.OrdinalIgnoreCase))
                tsc = true;
            else if (counter.Equals(CounterNames.AllocatedBytes, StringComparison.OrdinalIgnoreCase))
                allocated = true;
            else if (IsProcessWideRuntimeCounter(counter))
                throw new ArgumentException(ObservationMessages.ProcessWideCounterInSpan(name, counter), nameof(options));
            else if (!perf.Contains(counter, StringComparer.OrdinalIgnoreCase))
                perf.Add(counter);
        }

        if (perf.Count > PerfSpan.MaxPerfCounters)
        {
            throw new ArgumentException(
                ObservationMessages.TooManyPerfCounters(name, perf, PerfSpan.MaxPerfCounters),
                nameof(options));
        }

        return [
            .. tsc ? [CounterNames.Tsc] : Array.Empty<string>(),
            .. allocated ? [CounterNames.AllocatedBytes] : Array.Empty<string>(),
            .. perf];
    }

    private static bool IsProcessWideRuntimeCounter(string counter) =>
        counter.Equals(CounterNames.Gen0Collections, StringComparison.OrdinalIgnoreCase)
        || counter.Equals(CounterNames.Gen1Collections, StringComparison.OrdinalIgnoreCase)
        || counter.Equals(CounterNames.Gen2Collections, StringComparison.OrdinalIgnoreCase)
        || counter.Equals(CounterNames.JitMethods, StringComparison.OrdinalIgnoreCase)
        || counter.Equals(CounterNames.JitIlBytes, StringComparison.OrdinalIgnoreCase)
        || counter.Equals(CounterNames.LockContentions, StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// Throws when a span of <paramref name="name"/> exists with another counter key or other options than a new creation
    /// asks for; the same key and options make it the same span, returned to both call sites.
    /// </summary>
    /// <exception cref="ArgumentException">The existing span counts other counters, or with other options.</exception>
    public static void RequireSame(
        string name, string[] existingKey, PerfSpanOptions existingOptions, string[] key, PerfSpanOptions options)
    {
        if (existingKey.SequenceEqual(key, StringComparer.OrdinalIgnoreCase)
            && existingOptions.AllowSyscallReads == options.AllowSyscallReads
            && existingOptions.RelativeError.Equals(options.RelativeError))
        {
            return;
        }

        string message = ObservationMessages.SpanExistsWithOtherCounters(
            name,
            existingKey,
            existingOptions.AllowSyscallReads,
            existingOptions.RelativeError,
            key,
            options.AllowSyscallReads,
            options.RelativeError);
        throw new ArgumentException(message, nameof(name));
    }

    /// <summary>
    /// The span of <paramref name="key"/>: its TSC and allocated-bytes counters, and its perf_event counters resolved into a
    /// plan whose sessions go through <paramref name="syscalls"/>, each with its histogram or the reason it does not count.
    /// </summary>
    /// <exception cref="ArgumentException">A perf_event counter's name is unknown or cannot be per span.</exception>
    public static PerfSpan Build(string name, int id, PerfSpanOptions options, string[] key, IPerfEventSyscalls syscalls)
    {
        HdrHistogramBuilder histograms = Histograms(options);
        var counters = new List<PerfSpanCounter>();
        double secondsPerTick = 0;
        if (key.Contains(CounterNames.Tsc))
        {
            string? reason = Tsc.IsSupported ? null : Tsc.UnsupportedReason;
            if (reason is null)
                secondsPerTick = 1 / Tsc.Frequency.Hertz;
            counters.Add(new PerfSpanCounter(CounterNames.Tsc, "ticks", CounterKind.Tsc, histograms.Create(), reason, false));
        }

        if (key.Contains(CounterNames.AllocatedBytes))
            counters.Add(new PerfSpanCounter(CounterNames.AllocatedBytes, "bytes", CounterKind.Runtime, histograms.Create(), null, false));

        string[] perfNames = [.. key.Where(static k => k != CounterNames.Tsc && k != CounterNames.AllocatedBytes)];
        SpanPerfPlan? plan = null;
        if (perfNames.Length > 0)
        {
            var resolved = new List<(CounterDescriptor Descriptor, string? Reason, bool BySyscall)>();
            try
            {
                plan = SpanPerfPlan.Resolve(perfNames, options.AllowSyscallReads, syscalls, resolved);
            }
            catch (PerfEventNameException ex)
            {
                throw new ArgumentException($"Span '{name}': {ex.Message}", nameof(options), ex);
            }

            foreach ((CounterDescriptor descriptor, string? reason, bool bySyscall) in resolved)
                counters.Add(
                    new PerfSpanCounter(descriptor.Name, descriptor.Unit, descriptor.Kind, histograms.Create(), reason, bySyscall));
        }

        return new PerfSpan(name, id, options, key, counters, plan, secondsPerTick);
    }
}
