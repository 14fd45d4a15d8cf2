using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>
/// Valgrind's client requests to callgrind, from libpicollo_native (native/callgrind.c): natively they do nothing; under
/// <c>valgrind --tool=callgrind</c> they say what is counted (docs/COUNTERS.md, "Simulated counters").
/// </summary>
/// <remarks>
/// <see cref="Begin"/> and <see cref="End"/> bound the counted region and run inside it, so they are SuppressGCTransition:
/// a GC-mode switch is instructions the region would count, and one that finds a suspension pending runs more of them.
/// <see cref="Dump"/> writes a file and may take milliseconds: an ordinary call, outside the region. Callers must have
/// checked <see cref="PicolloNative.Status"/> first.
/// </remarks>
internal static partial class Callgrind
{
    /// <summary>RUNNING_ON_VALGRIND: 0 natively, else the number of Valgrinds running this process.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_running")]
    [SuppressGCTransition]
    internal static partial int Running();

    /// <summary>Starts simulation (with <c>--instr-atstart=no</c> the process ran unsimulated until here).</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_start_instrumentation")]
    internal static partial void StartInstrumentation();

    /// <summary>Stops simulation: what follows runs unsimulated, several times faster.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_stop_instrumentation")]
    internal static partial void StopInstrumentation();

    /// <summary>Zeroes the calling thread's counts and starts collecting.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_begin")]
    [SuppressGCTransition]
    internal static partial void Begin();

    /// <summary>Stops collecting.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_end")]
    [SuppressGCTransition]
    internal static partial void End();

    /// <summary>
    /// Writes the calling thread's counts since <see cref="Begin"/> to callgrind's output, under <paramref name="name"/>.
    /// </summary>
    /// <param name="name">The dump's name, ASCII.</param>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_sim_dump", StringMarshalling = StringMarshalling.Utf8)]
    internal static partial void Dump(string name);
}
