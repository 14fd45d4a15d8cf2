using System.Globalization;

namespace Picollo.Metrics;

/// <summary>The messages of histograms misconfigured or misused, in one place.</summary>
internal static class MetricsMessages
{
    /// <summary>Given when a histogram is built with a min trackable value above its max trackable value.</summary>
    internal static string MinAboveMax(ulong minTrackableValue, ulong maxTrackableValue) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"MinTrackableValue ({minTrackableValue:N0}) is greater than MaxTrackableValue ({maxTrackableValue:N0}): ") +
        "swap them, or drop WithMinTrackableValue to track from 0.";

    /// <summary>
    /// Given (by Debug builds) when the writer of thread <paramref name="ownerThreadId"/> records on thread
    /// <paramref name="currentThreadId"/>.
    /// </summary>
    internal static string WriterUsedOnAnotherThread(int ownerThreadId, int currentThreadId) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"An HdrHistogramWriter of thread {ownerThreadId} was used on thread {currentThreadId}: a writer belongs to the thread " +
            $"that called GetWriter(); call GetWriter() on each recording thread.");
}
