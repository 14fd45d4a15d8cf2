namespace Picollo.Measurement.Conditions;

/// <summary>
/// When the references are timed between the samples: the core loop (<see cref="MachineSpeed"/>) after every
/// <see cref="Every"/>th sample of every body, the allocation reference (<see cref="AllocationSpeed"/>) beside it for a
/// body that allocates; and how their timings are read.
/// </summary>
/// <remarks>
/// Probes timed right beside the samples follow what the samples went through; probes timed before or after the whole
/// measurement missed the allocation episodes and caught bursts the samples' floor never saw (docs/VERDICTS.md,
/// "Machines"). Every counter is read again after a probe and what the probe counted is taken out of the readings
/// (<see cref="Engine.SampleReadings.RemoveProbeGaps"/>), so no sample counts one.
/// </remarks>
internal static class ReferenceProbes
{
    /// <summary>
    /// A probe after every this many samples: the core loop (about 55 µs at the 1.1 ns per step this VM measures) adds
    /// about 14 µs per sample, 5–14 % of a 100–300 µs sample.
    /// </summary>
    public const int Every = 4;

    /// <summary>The probes a run of <paramref name="samples"/> samples takes.</summary>
    public static int ProbesFor(int samples) => samples / Every;

    /// <summary>
    /// The index of the floor (P10, the quantile time verdicts judge by) among <paramref name="count"/> sorted timings.
    /// </summary>
    public static int FloorIndex(int count) => (int)(0.1 * (count - 1));

    /// <summary>
    /// Times a reference <see cref="Repeats"/> times in a row and keeps the floor: for a run too short to interleave
    /// probes with its samples.
    /// </summary>
    /// <param name="time">One timing of the reference, in <see cref="System.Diagnostics.Stopwatch"/> ticks.</param>
    /// <returns>The floor of the timings, in ticks.</returns>
    public static long Floor(Func<long> time)
    {
        ArgumentNullException.ThrowIfNull(time);
        Span<long> timings = stackalloc long[Repeats];
        for (int i = 0; i < Repeats; i++)
            timings[i] = time();
        timings.Sort();
        return timings[FloorIndex(Repeats)];
    }

    /// <summary>Timings <see cref="Floor"/> takes.</summary>
    private const int Repeats = 11;
}
