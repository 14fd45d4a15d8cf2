namespace Picollo.Benchmarks;

/// <summary>One run of a <see cref="WriterGroup"/>.</summary>
/// <param name="WallNanos">From the earliest writer's start to the latest writer's stop.</param>
/// <param name="AllocatedBytes">What the writers allocated in their timed regions.</param>
/// <param name="MinOnCpuFraction">
/// The smallest share of <paramref name="WallNanos"/> that a writer spent on a core (its thread CPU time in
/// the timed region ÷ the wall time); below 1 when a writer started late or was preempted. 1 when
/// <see cref="ThreadCpuClock.IsSupported"/> is false.
/// </param>
internal readonly record struct ParallelRun(ulong WallNanos, long AllocatedBytes, double MinOnCpuFraction);
