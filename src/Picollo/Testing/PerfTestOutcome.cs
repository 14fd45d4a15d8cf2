using Picollo.Measurement;

namespace Picollo.Testing;

/// <summary>
/// How a perf test ended when it did not fail (a failure is the exception the assertion threw): passed, or skipped with the
/// reason (nothing could be checked on this machine, or the code was not optimized). Adapters turn a skip into their
/// framework's dynamic skip.
/// </summary>
internal sealed class PerfTestOutcome
{
    internal PerfTestOutcome(string? skipReason, IReadOnlyList<PerfResult> results, IReadOnlyList<string> warnings)
    {
        SkipReason = skipReason;
        Results = results;
        Warnings = warnings;
    }

    /// <summary>Why the test is skipped, or <see langword="null"/> when it passed.</summary>
    public string? SkipReason { get; }

    /// <summary>Whether the test is skipped.</summary>
    public bool IsSkipped => SkipReason is not null;

    /// <summary>The measurements the test took, in order.</summary>
    public IReadOnlyList<PerfResult> Results { get; }

    /// <summary>The warnings given to the host (unavailable counters, notices), in order.</summary>
    public IReadOnlyList<string> Warnings { get; }
}
