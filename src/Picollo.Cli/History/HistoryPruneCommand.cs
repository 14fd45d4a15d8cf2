using Picollo.Cli.History.Store;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary>
/// <c>picollo history prune --keep-histograms &lt;days&gt;</c> (retention): the histograms of runs older than
/// that are dropped, their summaries kept, so a store kept as a CI cache does not grow with every run's histograms.
/// </summary>
internal static class HistoryPruneCommand
{
    /// <summary>The longest retention: a century of days, well inside what <see cref="TimeSpan"/> holds.</summary>
    public const double MaxDays = 36_500;

    /// <summary>
    /// Whether <paramref name="days"/> is a retention <c>--keep-histograms</c> accepts: more than 0, at most <see cref="MaxDays"/>.
    /// </summary>
    public static bool IsDays(double days) => days is > 0 and <= MaxDays;

    /// <summary>Prunes <paramref name="store"/> (default: PICOLLO_HISTORY, else ./picollo-history.db); returns the exit code.</summary>
    public static int Run(IAnsiConsole console, IAnsiConsole errors, string? store, double keepHistograms)
    {
        ArgumentNullException.ThrowIfNull(console);
        ArgumentNullException.ThrowIfNull(errors);
        TextWriter error = errors.Profile.Out.Writer;
        if (!IsDays(keepHistograms))
        {
            error.WriteLine(HistoryMessages.KeepHistogramsNotPositive("prune", keepHistograms));
            return ExitCodes.Error;
        }

        try
        {
            using IHistoryStore history = HistoryStores.Open(store, create: false);
            int pruned = history.Prune(TimeSpan.FromDays(keepHistograms));
            console.Profile.Out.Writer.WriteLine(HistoryMessages.Pruned(pruned, keepHistograms, history.Name));
            return ExitCodes.Success;
        }
        catch (HistoryStoreException e)
        {
            error.WriteLine("picollo history prune: " + e.Message);
            return ExitCodes.Error;
        }
    }
}
