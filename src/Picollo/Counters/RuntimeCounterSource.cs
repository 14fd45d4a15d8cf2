using System.Collections.ObjectModel;
using System.Runtime;

namespace Picollo.Counters;

/// <summary>
/// The .NET runtime counters, deterministic and available on every OS. <see cref="ReadCumulative"/> writes them
/// in this order (the order of <see cref="Descriptors"/>):
/// <list type="number">
/// <item><c>allocated-bytes</c> (bytes): <see cref="GC.GetAllocatedBytesForCurrentThread"/>, the calling thread only.</item>
/// <item><c>gen0-collections</c>, <c>gen1-collections</c>, <c>gen2-collections</c> (collections):
/// <see cref="GC.CollectionCount"/>, process-wide (a collection of generation N also counts for every lower one).</item>
/// <item><c>jit-methods</c> (methods) and <c>jit-il-bytes</c> (bytes): <see cref="JitInfo"/>, methods
/// compiled on the calling thread only (tiered recompilation happens on a background thread and is not counted).</item>
/// <item><c>lock-contentions</c> (contentions): <see cref="Monitor.LockContentionCount"/>, process-wide.</item>
/// </list>
/// </summary>
/// <remarks>
/// <para>
/// Allocated bytes are exact only without background GC. A background (concurrent) collection voids the threads'
/// allocation contexts, and the unused rest of a voided context then shows up in
/// <see cref="GC.GetAllocatedBytesForCurrentThread"/> as phantom bytes (up to the context size, kilobytes) that
/// were never allocated. Set <c>&lt;ConcurrentGarbageCollection&gt;false&lt;/ConcurrentGarbageCollection&gt;</c> in the
/// project that runs the measurements (or <c>DOTNET_gcConcurrent=0</c>) for exact counts, and use
/// <see cref="AllocatedBytesCaveat"/> to warn in reports when it is on. With it off, <c>new byte[64]</c> measures
/// 88 bytes every time.
/// </para>
/// <para>Reads allocate nothing, so measuring allocations does not disturb them.</para>
/// </remarks>
public sealed class RuntimeCounterSource : ICounterSource
{
    /// <summary>How many counters this source reads.</summary>
    public const int CounterCount = 7;

    // Names and units come from the traits table, in the order ReadCumulative writes them.
    private static readonly ReadOnlyCollection<CounterDescriptor> s_descriptors = Array.AsReadOnly(
        [.. new[]
        {
            CounterNames.AllocatedBytes,
            CounterNames.Gen0Collections,
            CounterNames.Gen1Collections,
            CounterNames.Gen2Collections,
            CounterNames.JitMethods,
            CounterNames.JitIlBytes,
            CounterNames.LockContentions,
        }.Select(static name => new CounterDescriptor(name, KnownCounters.Get(name).Unit, CounterKind.Runtime))]);

    private static readonly bool s_isBackgroundGCEnabled = DetectBackgroundGC();

    /// <inheritdoc/>
    public IReadOnlyList<CounterDescriptor> Descriptors => s_descriptors;

    /// <summary><see langword="true"/> when the process runs the server GC (<see cref="GCSettings.IsServerGC"/>).</summary>
    public static bool IsServerGC => GCSettings.IsServerGC;

    /// <summary>
    /// <see langword="true"/> when background (concurrent) GC is on, so <c>allocated-bytes</c> may include phantom bytes.
    /// Decided by <see cref="GCSettings.LatencyMode"/> (<see cref="GCLatencyMode.Batch"/> means no concurrent GC, which
    /// also reflects <c>DOTNET_gcConcurrent</c>), or by the <c>System.GC.Concurrent</c> setting (default on) when the
    /// application has switched to a mode that does not tell.
    /// </summary>
    public static bool IsBackgroundGCEnabled => s_isBackgroundGCEnabled;

    /// <summary>
    /// A sentence for reports when allocated bytes may be inexact (background GC on), with the setting that makes
    /// them exact; <see langword="null"/> when they are exact.
    /// </summary>
    public static string? AllocatedBytesCaveat =>
        s_isBackgroundGCEnabled ? CounterMessages.BackgroundGCMakesAllocatedBytesInexact() : null;

    /// <inheritdoc/>
    public void ReadCumulative(Span<ulong> destination)
    {
        // Highest index first: one bounds check covers the rest.
        destination[6] = (ulong)Monitor.LockContentionCount;
        destination[5] = (ulong)JitInfo.GetCompiledILBytes(currentThread: true);
        destination[4] = (ulong)JitInfo.GetCompiledMethodCount(currentThread: true);
        destination[3] = (ulong)GC.CollectionCount(2);
        destination[2] = (ulong)GC.CollectionCount(1);
        destination[1] = (ulong)GC.CollectionCount(0);
        destination[0] = (ulong)GC.GetAllocatedBytesForCurrentThread();
    }

    /// <summary>Nothing to release: the counters belong to the runtime.</summary>
    public void Dispose()
    {
    }

    private static bool DetectBackgroundGC()
    {
        switch (GCSettings.LatencyMode)
        {
            case GCLatencyMode.Batch:
                return false;
            case GCLatencyMode.Interactive:
            case GCLatencyMode.SustainedLowLatency:
                return true;
            default:
                // LowLatency or a no-GC region: chosen by the application, says nothing about concurrency.
                return AppContext.GetData("System.GC.Concurrent") switch
                {
                    bool enabled => enabled,
                    string text when bool.TryParse(text, out bool enabled) => enabled,
                    _ => true,
                };
        }
    }
}
