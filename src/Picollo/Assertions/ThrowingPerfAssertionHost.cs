namespace Picollo.Assertions;

/// <summary>
/// The default host: an assertion on an unavailable counter throws, with the reason and the remedy; a notice goes to
/// standard error, the one channel every runner shows without an adapter (it must not fail a passing test); the
/// report goes to standard output, where a console app's user reads it.
/// </summary>
internal sealed class ThrowingPerfAssertionHost : IPerfAssertionHost
{
    public void ReportUnavailable(string counterName, string assertion, string reason)
        => throw new PerfCounterUnavailableException(counterName, assertion, reason);

    public void ReportNotice(string assertion, string message)
        => Console.Error.WriteLine($"Picollo notice: {assertion}\n{message}");

    public void ReportOutput(string text)
        => Console.Out.Write(text.EndsWith('\n') ? text : text + "\n");

    // A console has nowhere to attach a file, and the output already printed its path.
    public void ReportAttachment(string path, string description)
    {
    }
}
