using Picollo.Assertions;

namespace Picollo.Testing;

/// <summary>
/// The assertion host of a running perf test: forwards to the adapter's channels, applies the unavailable-counter policy
/// (<see cref="UnavailableCounterPolicy.Fail"/> throws), and remembers what could not run and what was said, for the
/// outcome.
/// </summary>
internal sealed class PerfTestHostBridge(IPerfAssertionHost host, UnavailableCounterPolicy policy) : IPerfAssertionHost
{
    private readonly Lock _gate = new();
    private readonly List<string> _unavailable = [];
    private readonly List<string> _warnings = [];

    /// <summary>Each assertion that did not run, as "assertion: counter is unavailable: reason".</summary>
    public IReadOnlyList<string> Unavailable
    {
        get
        {
            lock (_gate)
                return [.. _unavailable];
        }
    }

    /// <summary>Every warning given to the host.</summary>
    public IReadOnlyList<string> Warnings
    {
        get
        {
            lock (_gate)
                return [.. _warnings];
        }
    }

    /// <inheritdoc/>
    public void ReportUnavailable(string counterName, string assertion, string reason)
    {
        if (policy == UnavailableCounterPolicy.Fail)
            throw new PerfCounterUnavailableException(counterName, assertion, reason + " (the test's WhenUnavailable is Fail)");

        lock (_gate)
        {
            _unavailable.Add($"{assertion}: {counterName} is unavailable: {reason}");
            _warnings.Add($"{assertion} did not run: the counter '{counterName}' is unavailable on this machine. {reason}");
        }

        host.ReportUnavailable(counterName, assertion, reason);
    }

    /// <inheritdoc/>
    public void ReportNotice(string assertion, string message)
    {
        lock (_gate)
            _warnings.Add($"{assertion}: {message}");
        host.ReportNotice(assertion, message);
    }

    /// <inheritdoc/>
    public void ReportOutput(string text) => host.ReportOutput(text);

    /// <inheritdoc/>
    public void ReportAttachment(string path, string description) => host.ReportAttachment(path, description);
}
