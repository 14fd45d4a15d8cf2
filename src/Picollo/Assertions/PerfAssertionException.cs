namespace Picollo.Assertions;

/// <summary>
/// A performance assertion failed: the message shows the assertion, what was expected, what was measured and the counter's summary table.
/// </summary>
public sealed class PerfAssertionException : Exception
{
    /// <summary>Creates an exception with no message.</summary>
    public PerfAssertionException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">The failure, formatted like Shouldly's.</param>
    public PerfAssertionException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and a cause.</summary>
    /// <param name="message">The failure.</param>
    /// <param name="innerException">The cause.</param>
    public PerfAssertionException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
