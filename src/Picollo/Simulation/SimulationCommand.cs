namespace Picollo.Simulation;

/// <summary>
/// How a simulation worker is started (docs/COUNTERS.md, "Simulated counters"): the test's own worker command (the
/// adapter's, which runs the one test through its framework) under <c>valgrind --tool=callgrind</c>, with the runtime
/// settings that make the counts repeat from one process to the next.
/// </summary>
internal static class SimulationCommand
{
    /// <summary>
    /// The cache geometry callgrind simulates, fixed rather than read from the host's CPU, so that cache misses (and the
    /// cycle estimate) do not change with the host: 32 KB 8-way first-level instruction and data caches and an 8 MB 16-way
    /// last level, 64-byte lines.
    /// </summary>
    public static readonly IReadOnlyList<string> CacheGeometry = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

    /// <summary>
    /// The environment a worker needs beside the protocol's variables, and why each:
    /// <list type="bullet">
    /// <item><c>DOTNET_EnableWriteXorExecute=0</c>: the runtime's double mapping of code pages, which Valgrind cannot
    /// follow.</item>
    /// <item><c>DOTNET_TieredCompilation=0</c>: every method is compiled once, fully optimized, at its first call (the
    /// framework's precompiled code is used as it is), so the code measured is final from the first call and is laid out
    /// in the same order, at the same addresses, in every process. With tiering, code is replaced from a background thread
    /// in an order that depends on timing: instruction counts still repeated, but simulated branch misses of one dictionary
    /// lookup read 70 in three processes and 198 in a fourth, and dynamic PGO compiled one word count to two layouts in six
    /// processes (533 and 545 instructions per operation).</item>
    /// <item><c>DOTNET_GCgen0size=0x4000000</c>: a fixed 64 MB generation-0 budget, rather than one derived from the host's
    /// caches: the allocator's refills, whose instructions each sample counts, land at the same places in every process
    /// (a LINQ body read 10,335 or 10,355 instructions per operation by process without it).</item>
    /// <item><c>DOTNET_JitEnableOptionalRelocs=0</c>: compiled code addresses static data with full 64-bit addresses
    /// rather than 32-bit offsets from the instruction. Under Valgrind the runtime's memory does not land where the
    /// runtime expects it to, so the optimizing compiler, promised that an address was within 32 bits and finding it
    /// was not, gave up and compiled the method again unoptimized: without this setting most methods, the measured body
    /// among them, ran unoptimized (a word count of a 71-character sentence read 3,325 instructions per operation
    /// instead of 1,288). The cost is one instruction more on some accesses to statics, the same in every
    /// process.</item>
    /// </list>
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> Environment = new Dictionary<string, string>
    {
        ["DOTNET_EnableWriteXorExecute"] = "0",
        ["DOTNET_TieredCompilation"] = "0",
        ["DOTNET_GCgen0size"] = "0x4000000",
        ["DOTNET_JitEnableOptionalRelocs"] = "0",
    };

    /// <summary>Valgrind's arguments before the worker's program and its arguments.</summary>
    /// <param name="folder">The worker's folder.</param>
    /// <returns>The arguments, each one argument.</returns>
    public static IReadOnlyList<string> ValgrindArguments(string folder) =>
    [
        "--tool=callgrind",

        // Unsimulated until the first measurement (several times faster), collecting only between the region's requests,
        // simulating branches and caches for the misses, each thread's counts apart.
        "--instr-atstart=no",
        "--collect-atstart=no",
        "--branch-sim=yes",
        "--cache-sim=yes",
        .. CacheGeometry,
        "--separate-threads=yes",
        "--callgrind-out-file=" + SimulationWorkerProtocol.CallgrindOutput(folder),
        "--log-file=" + SimulationWorkerProtocol.ValgrindLog(folder),
    ];
}
