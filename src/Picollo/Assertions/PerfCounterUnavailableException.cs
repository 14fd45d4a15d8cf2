namespace Picollo.Assertions;

/// <summary>
/// An assertion could not run because its counter did not count on this machine; thrown by the default
/// <see cref="IPerfAssertionHost"/>. Distinct from <see cref="PerfAssertionException"/> so a test framework adapter can
/// turn it into a warning or a skip rather than a failure.
/// </summary>
public sealed class PerfCounterUnavailableException : Exception
{
    /// <summary>Creates an exception with no details.</summary>
    public PerfCounterUnavailableException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">The message.</param>
    public PerfCounterUnavailableException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and a cause.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public PerfCounterUnavailableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates the exception for an assertion that did not run.</summary>
    /// <param name="counterName">The unavailable counter.</param>
    /// <param name="assertion">The assertion as written.</param>
    /// <param name="reason">Why the counter is unavailable, with the remedy.</param>
    public PerfCounterUnavailableException(string counterName, string assertion, string reason)
        : base($"{assertion} did not run: the counter '{counterName}' is unavailable on this machine. {reason}")
    {
        CounterName = counterName;
        Assertion = assertion;
        Reason = reason;
    }

    /// <summary>The unavailable counter.</summary>
    public string? CounterName { get; }

    /// <summary>The assertion that did not run.</summary>
    public string? Assertion { get; }

    /// <summary>Why the counter is unavailable, with the remedy.</summary>
    public string? Reason { get; }
}
