using System.Runtime.CompilerServices;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// A fixed allocation reference timed between the samples of an allocating body: how fast this process allocated while
/// the samples ran. An allocating body on a cloud VM runs at two speeds about 1.7× apart in episodes of 10–60 s, with the
/// core reference loop (<see cref="MachineSpeed"/>), its collections and page faults unchanged; this reference slowed
/// 1.82× in the same seconds (bench episodes, docs/VERDICTS.md "Allocation speed"), and a time verdict of an allocating
/// body is scaled by this reference's ratio to the recording's, with the scaling's uncertainty in σ.
/// </summary>
/// <remarks>
/// Timed right beside the samples (<see cref="ReferenceProbes"/>), because probes timed before or after the whole
/// measurement did not follow the episodes reliably. Each probe allocates <see cref="Allocations"/> small arrays
/// (<see cref="BytesPerProbe"/> bytes): its collections land in the samples in proportion to the bytes, so the body's
/// collections per operation keep their expected value.
/// </remarks>
internal static class AllocationSpeed
{
    /// <summary>Allocations per probe: about 10 µs, an eighth of a typical sample.</summary>
    public const int Allocations = 1_000;

    /// <summary>
    /// What one probe allocates: <c>new byte[8]</c> is 32 bytes on a 64-bit runtime (header, method table, length,
    /// data).
    /// </summary>
    public const long BytesPerProbe = Allocations * 32L;

    /// <summary>Allocates the probe's arrays into <paramref name="sink"/> (16 slots, so they die young like most garbage).</summary>
    /// <param name="sink">A 16-slot array that keeps the allocations observable.</param>
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    public static void Allocate(object[] sink)
    {
        for (int i = 0; i < Allocations; i++)
            sink[i & 15] = new byte[8];
    }
}
