namespace Picollo.Baselines;

/// <summary>
/// A baseline file could not be read. The message names the file, the JSON location and the fix; the file is
/// never rewritten by Picollo while it is in this state (not even when updating, which would lose the other
/// machines' entries).
/// </summary>
public sealed class BaselineFormatException : FormatException
{
    /// <summary>Creates an exception with a default message.</summary>
    public BaselineFormatException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    /// <param name="message">What is wrong, where, and what to do.</param>
    public BaselineFormatException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and the error that caused it.</summary>
    /// <param name="message">What is wrong, where, and what to do.</param>
    /// <param name="innerException">The underlying error.</param>
    public BaselineFormatException(string message, Exception? innerException)
        : base(message, innerException)
    {
    }

    internal BaselineFormatException(
        string message, string? filePath, string? jsonPath, long? lineNumber, long? bytePositionInLine, Exception? innerException)
        : base(message, innerException)
    {
        FilePath = filePath;
        JsonPath = jsonPath;
        LineNumber = lineNumber;
        BytePositionInLine = bytePositionInLine;
    }

    /// <summary>The full path of the baseline file; <see langword="null"/> when parsed from text.</summary>
    public string? FilePath { get; }

    /// <summary>The JSON path of the offending element, e.g. <c>$.entries['…'].counters['task-clock'].unit</c>.</summary>
    public string? JsonPath { get; }

    /// <summary>The 1-based line of a syntax or type error; <see langword="null"/> for errors found after parsing.</summary>
    public long? LineNumber { get; }

    /// <summary>The 0-based byte offset within <see cref="LineNumber"/>; <see langword="null"/> when unknown.</summary>
    public long? BytePositionInLine { get; }
}
