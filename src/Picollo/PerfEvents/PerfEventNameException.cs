namespace Picollo.PerfEvents;

/// <summary>
/// A perf event name that does not resolve: unknown (the message lists the closest valid names and where to look)
/// or malformed (the message names the bad term and its position).
/// </summary>
public sealed class PerfEventNameException : ArgumentException
{
    /// <summary>Creates the exception with a default message.</summary>
    public PerfEventNameException()
        : this("The perf event name does not resolve.")
    {
    }

    /// <summary>Creates the exception with a message.</summary>
    /// <param name="message">What is wrong and how to fix it.</param>
    public PerfEventNameException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and its cause.</summary>
    /// <param name="message">What is wrong and how to fix it.</param>
    /// <param name="innerException">The cause.</param>
    public PerfEventNameException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    internal PerfEventNameException(string message, string eventName, IReadOnlyList<string> suggestions, int? position)
        : base(message)
    {
        EventName = eventName;
        Suggestions = suggestions;
        Position = position;
    }

    /// <summary>The name as the caller wrote it.</summary>
    public string EventName { get; } = "";

    /// <summary>The closest valid names (by edit distance, nearest first); empty for malformed terms.</summary>
    public IReadOnlyList<string> Suggestions { get; } = [];

    /// <summary>
    /// Whether the name is simply none this machine knows (not a malformed term, an unknown PMU, a hybrid CPU's two events):
    /// a caller that knows other names too (Picollo's own counters) suggests from all of them.
    /// </summary>
    internal bool IsUnknownName { get; init; }

    /// <summary>The 0-based index in <see cref="EventName"/> of the malformed term, or <see langword="null"/>.</summary>
    public int? Position { get; }
}
