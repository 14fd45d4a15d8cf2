using Picollo.Observation;

namespace TextKit.ObservedService;

/// <summary>The service's spans. In a real service they are static readonly fields; here the counters come from the command line.</summary>
internal sealed class IndexerSpans
{
    public IndexerSpans(string[] extraCounters)
    {
        var options = new PerfSpanOptions { Counters = [.. PerfSpanOptions.DefaultCounters, .. extraCounters] };
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

    /// <summary>Counting term frequencies in the worker's dictionary.</summary>
    public PerfSpan Index { get; }
}
