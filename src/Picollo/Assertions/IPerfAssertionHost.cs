namespace Picollo.Assertions;

/// <summary>
/// Where assertions report what they could not check. The test-framework adapters implement it to turn an assertion on
/// an unavailable counter into a warning (and, when no assertion of a test could run, a dynamic skip); the default
/// host (<see cref="PerfAssertionHost.Throwing"/>) throws <see cref="PerfCounterUnavailableException"/>, so nothing
/// ever passes silently.
/// </summary>
public interface IPerfAssertionHost
{
    /// <summary>An assertion did not run because a counter it needs did not count on this machine.</summary>
    /// <param name="counterName">The unavailable counter.</param>
    /// <param name="assertion">The assertion as written, e.g. <c>result.Cycles.ShouldHaveP99AtMost(20,000)</c>.</param>
    /// <param name="reason">Why the counter is unavailable and the remedy, as the counter source explains it.</param>
    void ReportUnavailable(string counterName, string assertion, string reason);

    /// <summary>
    /// An assertion passed with something the reader must see: a missing baseline (and the received file written for it),
    /// an improvement, or a baseline updated. Adapters print it as a warning; it never fails the test.
    /// </summary>
    /// <param name="assertion">The assertion as written, e.g. <c>result.ShouldNotRegress()</c>.</param>
    /// <param name="message">What happened and what to do, one or more lines.</param>
    void ReportNotice(string assertion, string message);
}
