using Picollo.Assertions;

namespace Picollo.Tests.Support;

/// <summary>
/// An assertion host that keeps what it is told, installed for one test by <see cref="Install"/> through the public
/// <see cref="PerfAssertionHost.Use"/>, as a user's own host would be.
/// </summary>
internal sealed class RecordingHost : IPerfAssertionHost, IDisposable
{
    private IDisposable? _installed;

    private RecordingHost()
    {
    }

    public List<(string Assertion, string Message)> Notices { get; } = [];

    public List<(string Counter, string Assertion, string Reason)> Unavailable { get; } = [];

    public List<string> Output { get; } = [];

    public List<(string Path, string Description)> Attachments { get; } = [];

    public static RecordingHost Install()
    {
        var host = new RecordingHost();
        host._installed = PerfAssertionHost.Use(host);
        return host;
    }

    public void ReportUnavailable(string counterName, string assertion, string reason) => Unavailable.Add((counterName, assertion, reason));

    public void ReportNotice(string assertion, string message) => Notices.Add((assertion, message));

    public void ReportOutput(string text) => Output.Add(text);

    public void ReportAttachment(string path, string description) => Attachments.Add((path, description));

    public void Dispose() => _installed?.Dispose();
}
