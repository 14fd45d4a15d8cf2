namespace Picollo.Measurement.Engine;

/// <summary>How a warmup went.</summary>
/// <param name="Operations">Body invocations.</param>
/// <param name="Duration">Its wall time.</param>
/// <param name="End">What ended it.</param>
/// <param name="Note">A sentence for <see cref="PerfRunInfo.Notes"/> when it ended before the code was known to be final.</param>
/// <param name="BudgetExtension">
/// How long it ran past half the time budget waiting for the body's tier-1 code (<see cref="Warmup.TierUpWait"/>): the pilot
/// and the samples get their share of the budget after that.
/// </param>
internal readonly record struct WarmupOutcome(long Operations, TimeSpan Duration, WarmupEnd End, string? Note, TimeSpan BudgetExtension);
