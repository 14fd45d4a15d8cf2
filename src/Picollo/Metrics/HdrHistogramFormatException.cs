namespace Picollo.Metrics;

/// <summary>
/// A serialized histogram (JSON or HdrHistogram V2) could not be read. The message says what is wrong,
/// where, and what to do; <see cref="Path"/>, <see cref="LineNumber"/> and <see cref="BytePositionInLine"/>
/// locate JSON errors for tools that report them (e.g. next to a baseline file's name).
/// </summary>
public sealed class HdrHistogramFormatException : FormatException
{
    /// <summary>Creates an exception with a default message.</summary>
    public HdrHistogramFormatException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What is wrong, where, and what to do.</param>
    public HdrHistogramFormatException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and the error that caused it.</summary>
    /// <param name="message">What is wrong, where, and what to do.</param>
    /// <param name="innerException">The underlying error (JSON, base64 or zlib).</param>
    public HdrHistogramFormatException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }

    internal HdrHistogramFormatException(
        string message, string? path, long? lineNumber, long? bytePositionInLine, Exception? innerException = null)
        : base(message, innerException)
    {
        Path = path;
        LineNumber = lineNumber;
        BytePositionInLine = bytePositionInLine;
    }

    /// <summary>The JSON path of the offending element (e.g. <c>$.buckets['19969']</c>); <see langword="null"/> for binary input.</summary>
    public string? Path { get; }

    /// <summary>
    /// The 0-based line of a JSON syntax or type error, as in <see cref="System.Text.Json.JsonException"/>; <see langword="null"/> when
    /// unknown.
    /// </summary>
    public long? LineNumber { get; }

    /// <summary>
    /// The 0-based byte offset within <see cref="LineNumber"/>, as in <see cref="System.Text.Json.JsonException"/>; <see langword="null"/>
    /// when unknown.
    /// </summary>
    public long? BytePositionInLine { get; }
}
