namespace Picollo.Assertions;

/// <summary>
/// Where assertions report what the test's reader must see. The test-framework adapters implement it to turn an
/// assertion on an unavailable counter into a warning (and, when no assertion of a test could run, a dynamic skip),
/// the report into the test's output and its files into attachments; the default host
/// (<see cref="PerfAssertionHost.Throwing"/>) throws <see cref="PerfCounterUnavailableException"/>, so nothing ever
/// passes silently, and prints the rest to the console.
/// </summary>
/// <remarks>
/// Every member is required rather than defaulted: a default (say, the console) would be the wrong channel inside a
/// test runner that does not capture it, and an adapter that compiles without routing a channel would lose it quietly.
/// </remarks>
public interface IPerfAssertionHost
{
    /// <summary>An assertion did not run because a counter it needs did not count on this machine.</summary>
    /// <param name="counterName">The unavailable counter.</param>
    /// <param name="assertion">The assertion as written, e.g. <c>result.Cycles.ShouldHaveP99AtMost(20,000)</c>.</param>
    /// <param name="reason">Why the counter is unavailable and the remedy, as the counter source explains it.</param>
    void ReportUnavailable(string counterName, string assertion, string reason);

    /// <summary>
    /// An assertion passed with something the reader must see: a missing baseline (and the received file written for it),
    /// an improvement, a baseline updated, or a report that could not be written. Adapters print it as a warning; it
    /// never fails the test.
    /// </summary>
    /// <param name="assertion">The assertion as written, e.g. <c>result.ShouldNotRegress()</c>.</param>
    /// <param name="message">What happened and what to do, one or more lines.</param>
    void ReportNotice(string assertion, string message);

    /// <summary>
    /// Routine output of a test, whatever its outcome: the report (summary and diff tables, verdict lines, operations per
    /// sample, overhead) and the paths of the files written. Adapters write it to the test's output; unlike a notice it
    /// is not a warning.
    /// </summary>
    /// <param name="text">Markdown text, one or more lines, "\n" line ends.</param>
    void ReportOutput(string text);

    /// <summary>
    /// A file the test wrote that belongs with its result (the JSON result, the SVG plot). Adapters attach it to the test
    /// result; its path has already been given to <see cref="ReportOutput"/>.
    /// </summary>
    /// <param name="path">The file's full path.</param>
    /// <param name="description">What the file is, for the runner's list of attachments.</param>
    void ReportAttachment(string path, string description);
}
