namespace Picollo.Measurement;

/// <summary>
/// A measured body threw: the message says which side of a comparison and what it threw; the inner exception holds the
/// original.
/// </summary>
public sealed class PerfBodyException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="side">Which body threw: "reference" or "candidate".</param>
    /// <param name="message">What happened and what to do.</param>
    /// <param name="inner">What the body threw.</param>
    public PerfBodyException(string side, string message, Exception inner)
        : base(message, inner) => Side = side;

    /// <summary>Which body threw: "reference" or "candidate".</summary>
    public string Side { get; }
}
