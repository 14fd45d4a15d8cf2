using System.Diagnostics.CodeAnalysis;
using Picollo.Cli.History.ChangePoints;
using Picollo.Cli.History.Reports;
using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>What the history's reading commands share: open the store, analyse it, and say why when it cannot be read.</summary>
internal static class HistoryCommandLine
{
    /// <summary>
    /// Opens the store and finds every series' change points; on a store that cannot be read, says why on
    /// <paramref name="errors"/> and returns <see langword="false"/>.
    /// </summary>
    public static bool TryAnalyze(
        IAnsiConsole errors, string? storeText, string? test, string? branch,
        [NotNullWhen(true)] out IReadOnlyList<HistorySeriesAnalysis>? analyses, out string store)
    {
        analyses = null;
        store = storeText ?? "(default store)";
        try
        {
            using IHistoryStore opened = HistoryStores.Open(storeText, create: false);
            store = opened.Name;
            TestNameFilter? filter = string.IsNullOrWhiteSpace(test) ? null : new TestNameFilter(test);
            analyses = HistoryAnalyzer.Analyze(opened, filter, branch, ChangePointOptions.Default);
            return true;
        }
        catch (HistoryStoreException e)
        {
            errors.Profile.Out.Writer.WriteLine(e.Message);
            return false;
        }
    }
}
