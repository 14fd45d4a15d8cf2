// TEMPORARY stand-ins for the store's and detector's types (helpers' branches); deleted at merge.
namespace Picollo.Cli.History
{
    internal sealed record HistorySeriesKey(string MachineKey, string Test, string Counter, string Unit, bool Exact);
    internal sealed record HistoryPoint(long RunId, string? Commit, string? Branch, DateTime TimeUtc, double Value, double P50, double Mean);
    internal sealed record HistoryAcknowledgement(string MachineKey, string Test, string Counter, string Commit, string Note, DateTime TimeUtc);
    internal sealed class HistoryStoreException(string message) : Exception(message);
}

namespace Picollo.Cli.History.Store
{
    internal interface IHistoryStore : IDisposable
    {
        IReadOnlyList<HistorySeriesKey> SeriesKeys(string? testFilter);
        IReadOnlyList<HistoryPoint> Series(HistorySeriesKey key, string? branch);
        void Acknowledge(HistoryAcknowledgement acknowledgement);
        IReadOnlyList<HistoryAcknowledgement> Acknowledgements(HistorySeriesKey key);
    }

    internal static class HistoryStores
    {
        public const string Variable = "PICOLLO_HISTORY";
        public static IHistoryStore Open(string? store) => throw new NotImplementedException(store);
    }
}

