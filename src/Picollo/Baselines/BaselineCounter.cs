using Picollo.Counters;
using Picollo.Metrics;

namespace Picollo.Baselines;

/// <summary>One counter's measured distribution, as stored in a baseline or compared with one.</summary>
/// <param name="Name">The counter's canonical name, e.g. <c>task-clock</c>; the key within an entry.</param>
/// <param name="Unit">The unit of one count, e.g. <c>ns</c>, <c>bytes</c>, <c>events</c>.</param>
/// <param name="Kind">The source family; decides portability and the default verdict rule.</param>
/// <param name="Histogram">The per-operation values (or per-sample means when <paramref name="OperationsPerSample"/> &gt; 1).</param>
/// <param name="OperationsPerSample">
/// Operations per sample: 1 means the histogram is a distribution of single operations; more means a
/// distribution of per-sample means, which is narrower and must not be compared with the former.
/// </param>
public sealed record BaselineCounter(string Name, string Unit, CounterKind Kind, HdrHistogram Histogram, double OperationsPerSample);
