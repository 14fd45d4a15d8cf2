using System.Text;
using Picollo.Metrics;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Metrics;

public sealed class MetricsMessagesTests
{
    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "MinAboveMax", MetricsMessages.MinAboveMax(1_000_000, 1_000));
        Add(text, "WriterUsedOnAnotherThread", MetricsMessages.WriterUsedOnAnotherThread(12, 15));

        Approvals.Verify(text.ToString(), "MetricsMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
