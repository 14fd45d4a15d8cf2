namespace Picollo.Counters;

/// <summary>The messages of counters in one place.</summary>
internal static class CounterMessages
{
    /// <summary>
    /// The caveat reports give when background GC is on, so allocated bytes may be inexact, with the setting that makes
    /// them exact.
    /// </summary>
    internal static string BackgroundGCMakesAllocatedBytesInexact() =>
        "Background GC is on: allocated-bytes can include phantom bytes when a background collection voids allocation contexts. " +
        "Set <ConcurrentGarbageCollection>false</ConcurrentGarbageCollection> in the measuring project (or DOTNET_gcConcurrent=0) " +
        "for exact counts.";
}
