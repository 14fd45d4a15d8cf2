namespace Picollo.Cli.Ab;

/// <summary>
/// <c>picollo ab</c> could not run (exit code 2): not a git repository, an unknown ref, a revision that does not build,
/// no perf tests. The message is one or a few sentences for the user (what, why, what to do), never a stack trace.
/// </summary>
internal sealed class AbException(string message) : Exception(message);
