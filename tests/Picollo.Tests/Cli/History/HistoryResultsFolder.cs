using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;
using Picollo.Tests.Assertions;

namespace Picollo.Tests.Cli.History;

/// <summary>Results folders as perf tests write them (the library's own report), for <c>picollo history add</c>.</summary>
internal static class HistoryResultsFolder
{
    /// <summary>
    /// Writes <paramref name="tests"/> result files (<c>Suite.Test000</c>, …) into <paramref name="folder"/>, each with a
    /// time counter (tsc, P10 about <paramref name="ticks"/> per operation) and an exact one (allocated-bytes, 88 per operation).
    /// </summary>
    public static string Write(string folder, int tests, ulong ticks = 300)
    {
        Directory.CreateDirectory(folder);
        for (int i = 0; i < tests; i++)
        {
            string test = $"Suite.Test{i:000}";
            PerfResult result = SyntheticResults.Result(Tsc(ticks), Allocations(88));
            File.WriteAllText(Path.Combine(folder, test + ".result.json"), new PerfReport(test, result).ToJson());
        }

        return folder;
    }

    /// <summary>100 samples of 1,000 operations from <paramref name="ticks"/> per operation up, 1 tick per operation apart.</summary>
    public static CounterResult Tsc(ulong ticks) =>
        SyntheticResults.Counter("tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 100).Select(i => (ticks * 1_000) + (ulong)(i * 1_000)));

    /// <summary>Exactly <paramref name="bytes"/> per operation in every sample.</summary>
    public static CounterResult Allocations(ulong bytes) =>
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(bytes * 1_000, 100));
}
