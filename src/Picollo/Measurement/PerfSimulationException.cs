namespace Picollo.Measurement;

/// <summary>
/// The simulated part of a measurement failed (docs/COUNTERS.md, "Simulated counters"): the body threw, hung or ran out of
/// time in the simulation worker, or the worker ended before measuring. The message says what happened and quotes the
/// worker's last words; nothing was recorded, and the worker is gone.
/// </summary>
public sealed class PerfSimulationException : Exception
{
    /// <summary>Creates the exception.</summary>
    public PerfSimulationException()
    {
    }

    /// <summary>Creates the exception with its message.</summary>
    /// <param name="message">What happened, and the worker's last words.</param>
    public PerfSimulationException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its message and cause.</summary>
    /// <param name="message">What happened.</param>
    /// <param name="innerException">The cause.</param>
    public PerfSimulationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
