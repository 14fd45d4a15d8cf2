using Picollo.Assertions;

namespace Picollo.Testing;

/// <summary>
/// A test framework's channels for one running perf test, implemented by each adapter: the assertion channels (an
/// unavailable counter and a notice become warnings, the report the test's output, files attachments) and the test's
/// cancellation.
/// </summary>
internal interface IPerfTestHost : IPerfAssertionHost
{
    /// <summary>The test's cancellation: a measurement stops between samples when it fires.</summary>
    CancellationToken CancellationToken { get; }
}
