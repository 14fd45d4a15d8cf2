using System.Text;
using Picollo.Cli.History.ChangePoints;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.History;

/// <summary>
/// What the change-point detector says about a series it cannot read (issue 52): every kind
/// <see cref="ChangePointMessages"/> builds, in the golden file <c>Approved/ChangePointMessages.approved.md</c>.
/// </summary>
public sealed class ChangePointMessagesTests
{
    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, nameof(ChangePointMessages.NotFinite), ChangePointMessages.NotFinite(17, double.NaN));
        Case(text, nameof(ChangePointMessages.NotFinite) + " (infinite)", ChangePointMessages.NotFinite(3, double.PositiveInfinity));

        Approvals.Verify(text.ToString(), "ChangePointMessages");
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
