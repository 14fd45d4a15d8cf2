using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>The time-stamp counter readers of libpicollo_native (native/tsc.c).</summary>
/// <remarks>
/// SuppressGCTransition: each call is a handful of instructions (lfence, rdtsc[p]) that never block, so the
/// cooperative→preemptive GC-mode switch (several ns, more than the read itself) is pure overhead here
/// (docs/ARCHITECTURE.md, "Platform facts"). Callers must have checked <see cref="PicolloNative.Status"/> first:
/// that is what binds these imports to the version-checked library.
/// </remarks>
internal static partial class Tsc
{
    /// <summary><c>lfence; rdtsc</c>: earlier instructions complete before the counter is read.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_tsc_start")]
    [SuppressGCTransition]
    internal static partial ulong ReadStart();

    /// <summary><c>rdtscp; lfence</c>: earlier instructions complete before, later ones start after the read.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_tsc_end")]
    [SuppressGCTransition]
    internal static partial ulong ReadEnd();
}
