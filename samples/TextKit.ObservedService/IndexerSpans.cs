using Picollo.Observation;

namespace TextKit.ObservedService;

/// <summary>The service's spans. In a real service they are static readonly fields; here the counters come from the command line.</summary>
internal sealed class IndexerSpans
{
    /// <summary>Creates the four spans, each counting the TSC, allocated bytes and <paramref name="extraCounters"/>.</summary>
    /// <exception cref="ArgumentException">A counter name is unknown or cannot be counted per span.</exception>
    public IndexerSpans(string[] extraCounters)
    {
        // Counters named on the command line were asked for explicitly, so software ones (task-clock, page-faults) are read
        // with a system call at each boundary (≈ 2.4 µs each, docs/OBSERVATION.md) rather than left out.
        var options = new PerfSpanOptions
        {
            Counters = [.. PerfSpanOptions.DefaultCounters, .. extraCounters],
            AllowSyscallReads = extraCounters.Length > 0,
        };
        Document = PerfSpan.Create("document", options);
        Tokenize = PerfSpan.Create("tokenize", options);
        Hash = PerfSpan.Create("hash", options);
        Index = PerfSpan.Create("index", options);
    }

    /// <summary>One whole document: the three stages and their spans' boundaries.</summary>
    public PerfSpan Document { get; }

    /// <summary>Splitting the text into words (allocates the token list and strings).</summary>
    public PerfSpan Tokenize { get; }

    /// <summary>FNV-1a over each token's UTF-8 bytes (allocates nothing).</summary>
    public PerfSpan Hash { get; }

    /// <summary>Counting the document's terms into a new dictionary (allocates) and merging it into the worker's.</summary>
    public PerfSpan Index { get; }
}
