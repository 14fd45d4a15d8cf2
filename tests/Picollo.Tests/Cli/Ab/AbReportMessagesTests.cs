using System.Text;
using Picollo.Cli.Ab;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary>
/// The sentences of <c>picollo ab</c>'s report (issue 28): every kind <see cref="AbReportMessages"/> builds, in the golden
/// file <c>Approved/AbReportMessages.approved.md</c>.
/// </summary>
public sealed class AbReportMessagesTests
{
    [Fact]
    public void EverySentence_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, "Headline: a regression among unchanged tests",
            AbReportMessages.Headline(["**1 regressed**", "3 unchanged"], 0.03, 0.99, 14, TimeSpan.FromSeconds(212.4)));
        Case(text, "Headline: a run with a custom threshold and confidence",
            AbReportMessages.Headline(["2 improved", "1 new"], 0.05, 0.995, 7, TimeSpan.FromSeconds(95)));
        Case(text, "Headline: no tests", AbReportMessages.Headline([], 0.03, 0.99, 0, TimeSpan.Zero));
        Case(text, "TimeIsPaired: the default threshold", AbReportMessages.TimeIsPaired(0.03, 10));
        Case(text, "TimeIsPaired: --threshold 2.5 --max-pairs 20", AbReportMessages.TimeIsPaired(0.025, 20));

        Approvals.Verify(text.ToString(), "AbReportMessages");
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
