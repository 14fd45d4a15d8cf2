namespace Picollo.Assertions;

/// <summary>The default host: an assertion on an unavailable counter throws, with the reason and the remedy.</summary>
internal sealed class ThrowingPerfAssertionHost : IPerfAssertionHost
{
    public void ReportUnavailable(string counterName, string assertion, string reason)
        => throw new PerfCounterUnavailableException(counterName, assertion, reason);
}
