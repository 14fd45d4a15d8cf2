using System.Text;
using Picollo.Counters;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Counters;

public sealed class CounterMessagesTests
{
    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        Add(text, "BackgroundGCMakesAllocatedBytesInexact", CounterMessages.BackgroundGCMakesAllocatedBytesInexact());
        Add(text, "TscNeedsX64", CounterMessages.TscNeedsX64("Arm64"));
        Add(text, "TscNeedsLinux", CounterMessages.TscNeedsLinux("Darwin 24.1.0 Darwin Kernel Version 24.1.0"));

        Approvals.Verify(text.ToString(), "CounterMessages");
    }

    private static void Add(StringBuilder text, string name, string message) =>
        text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");
}
