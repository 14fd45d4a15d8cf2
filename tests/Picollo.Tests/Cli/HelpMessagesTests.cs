using System.Text;
using Picollo.Cli;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli;

/// <summary>
/// What <c>picollo --help</c> and each command's help say (issue 28): every description <see cref="HelpMessages"/> builds,
/// in the golden file <c>Approved/HelpMessages.approved.md</c>.
/// </summary>
public sealed class HelpMessagesTests
{
    [Fact]
    public void EveryHelpText_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, nameof(HelpMessages.Tool), HelpMessages.Tool());
        Case(text, nameof(HelpMessages.Doctor), HelpMessages.Doctor());
        Case(text, nameof(HelpMessages.List), HelpMessages.List());
        Case(text, nameof(HelpMessages.Baselines), HelpMessages.Baselines());
        Case(text, nameof(HelpMessages.Accept), HelpMessages.Accept());
        Case(text, nameof(HelpMessages.AcceptTestOption), HelpMessages.AcceptTestOption());
        Case(text, nameof(HelpMessages.Compare), HelpMessages.Compare());
        Case(text, nameof(HelpMessages.Report), HelpMessages.Report());
        Case(text, nameof(HelpMessages.Ab), HelpMessages.Ab());
        Case(text, nameof(HelpMessages.AbBaseOption), HelpMessages.AbBaseOption());
        Case(text, nameof(HelpMessages.AbProjectOption), HelpMessages.AbProjectOption());
        Case(text, nameof(HelpMessages.AbFilterOption), HelpMessages.AbFilterOption());
        Case(text, nameof(HelpMessages.Bisect), HelpMessages.Bisect());
        Case(text, nameof(HelpMessages.BisectGoodOption), HelpMessages.BisectGoodOption());
        Case(text, nameof(HelpMessages.BisectBadOption), HelpMessages.BisectBadOption());
        Case(text, nameof(HelpMessages.BisectTestOption), HelpMessages.BisectTestOption());
        Case(text, nameof(HelpMessages.History), HelpMessages.History());
        Case(text, nameof(HelpMessages.HistoryAdd), HelpMessages.HistoryAdd());
        Case(text, nameof(HelpMessages.HistoryPrune), HelpMessages.HistoryPrune());
        Case(text, nameof(HelpMessages.HistoryStoreOption), HelpMessages.HistoryStoreOption());
        Case(text, nameof(HelpMessages.HistoryKeepHistogramsOption), HelpMessages.HistoryKeepHistogramsOption());
        Case(text, nameof(HelpMessages.HistoryMachineOption), HelpMessages.HistoryMachineOption());
        Case(text, nameof(HelpMessages.HistoryReport), HelpMessages.HistoryReport());
        Case(text, nameof(HelpMessages.HistoryCheck), HelpMessages.HistoryCheck());
        Case(text, nameof(HelpMessages.HistoryAcknowledge), HelpMessages.HistoryAcknowledge());
        Case(text, nameof(HelpMessages.HistoryBisectOption), HelpMessages.HistoryBisectOption());

        Approvals.Verify(text.ToString(), "HelpMessages");
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
