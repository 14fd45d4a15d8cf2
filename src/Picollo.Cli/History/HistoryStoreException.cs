namespace Picollo.Cli.History;

/// <summary>
/// A results-history store that cannot be used as asked: its message names the store, the reason and the fix, and the
/// commands print it and exit 2 with nothing written. Never a stack trace, never a password.
/// </summary>
/// <param name="message">The whole message.</param>
/// <param name="innerException">The driver's error behind it, when there is one.</param>
internal sealed class HistoryStoreException(string message, Exception? innerException = null) : Exception(message, innerException);
