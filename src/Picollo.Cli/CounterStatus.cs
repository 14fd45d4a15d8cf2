namespace Picollo.Cli;

/// <summary>One counter as <c>picollo doctor</c> reports it: whether it counts on this machine, and why not.</summary>
/// <param name="Name">The counter's canonical name.</param>
/// <param name="Kind">tsc, clock, runtime, software or hardware (cache events are hardware).</param>
/// <param name="InDefaultSet">Whether a measurement counts it when no counters are named.</param>
/// <param name="Counts">Whether it counts here.</param>
/// <param name="Reason">Why it does not count, with the remedy; null when it counts.</param>
internal sealed record CounterStatus(string Name, string Kind, bool InDefaultSet, bool Counts, string? Reason);
