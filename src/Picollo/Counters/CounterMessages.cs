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

    /// <summary>Why <c>tsc</c> does not count in a process of <paramref name="architecture"/>, and what measures time instead.</summary>
    /// <param name="architecture">The process architecture, e.g. <c>Arm64</c>.</param>
    internal static string TscNeedsX64(string architecture) =>
        $"The time-stamp counter is an x86-64 register; this process is {architecture}. Time is measured here by the clock " +
        "counter (the runtime's high-resolution clock, in the default set where tsc cannot count): name clock instead of tsc, " +
        "e.g. Counters = \"clock,allocated-bytes\", with budgets in nanoseconds (tsc's are in ticks).";

    /// <summary>Why <c>tsc</c> does not count on an OS other than Linux, and what measures time instead.</summary>
    /// <param name="osDescription">The OS, e.g. <c>Microsoft Windows 10.0.26100</c>.</param>
    internal static string TscNeedsLinux(string osDescription) =>
        $"tsc reads the time-stamp counter through libpicollo_native, which exists for Linux x64 only; this process runs on " +
        $"{osDescription}. Time is measured here by the clock counter (the runtime's high-resolution clock, in the default set " +
        "where tsc cannot count): name clock instead of tsc, e.g. Counters = \"clock,allocated-bytes\", with budgets in " +
        "nanoseconds (tsc's are in ticks).";
}
