namespace Picollo.Counters;

/// <summary>
/// How far a counter's values travel between machines. Each level includes the requirements of the one before,
/// so a stricter rule never matches a machine a looser one rejects.
/// </summary>
internal enum CounterPortability
{
    /// <summary>
    /// Same .NET runtime major.minor, architecture and GC mode (.NET runtime counters: allocated bytes, GC counts, JIT).
    /// Patch releases are deliberately not compared: servicing rarely changes allocation sizes, and a CI image
    /// update must not orphan every baseline. Object layout depends on the architecture; phantom allocated bytes
    /// and collection counts depend on the GC mode.
    /// </summary>
    SameRuntime,

    /// <summary>
    /// <see cref="SameRuntime"/> and the same ISA extensions (instructions, branches): the JIT emits different
    /// instructions for, say, AVX2 and AVX-512 machines, but the same on any CPU model that has the same extensions.
    /// </summary>
    SameIsaAndRuntime,

    /// <summary>
    /// <see cref="SameIsaAndRuntime"/> and the same CPU model (cycles, time, TSC, cache and branch misses): these
    /// depend on the micro-architecture and its clock.
    /// </summary>
    SameCpuModel,

    /// <summary>
    /// <see cref="SameCpuModel"/>, the same OS and the same clock rate (the <c>clock</c> counter): the runtime's clock is the
    /// OS's (a 10 MHz counter on Windows, 1 GHz on Linux and macOS), so time read through it compares only on the same OS
    /// with the same rate, and a Windows developer's entry never stands in for a Linux runner's.
    /// </summary>
    SameClock,

    /// <summary>
    /// Simulated counters: the same simulator (Valgrind's version), runtime version, architecture, instruction set as the
    /// runtime saw it under the simulator, and GC mode; the host's CPU model, speed and cores do not matter. Outside the
    /// chain above: such a counter is stored in an entry of its own, keyed by the simulator rather than the host.
    /// </summary>
    SameSimulator,
}
