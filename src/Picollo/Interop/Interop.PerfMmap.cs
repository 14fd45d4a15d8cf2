using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>
/// The rdpmc self-monitoring reader of libpicollo_native (native/perf_mmap.c). Both calls are a few
/// loads and at most one rdpmc + rdtsc per counter, never block and never fault (they refuse to run
/// rdpmc when a page forbids it), so they skip the GC transition.
/// </summary>
internal static partial class PerfMmap
{
    /// <summary>PICOLLO_PERF_OK: every value was written.</summary>
    internal const int Ok = 0;

    /// <summary>PICOLLO_PERF_USE_READ: a page has cap_user_rdpmc == 0 or index == 0; read() must be used.</summary>
    internal const int UseRead = 1;

    /// <summary>PICOLLO_PERF_CONTENDED: the seqlock never settled; read() must be used.</summary>
    internal const int Contended = 2;

    /// <summary>PICOLLO_PERF_NOT_SUPPORTED: not x86-64.</summary>
    internal const int NotSupported = 3;

    /// <summary>PICOLLO_PERF_INVALID: null pointer or negative count.</summary>
    internal const int Invalid = 4;

    /// <summary>picollo_perf_mmap_compute: the reader's arithmetic on a page with a given raw pmc and TSC.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_perf_mmap_compute")]
    [SuppressGCTransition]
    internal static unsafe partial int Compute(void* page, ulong rawPmc, ulong tsc, PerfEventValue* value);

    /// <summary>picollo_perf_mmap_read_group: counts of <paramref name="count"/> events from their mmap'ed pages.</summary>
    [LibraryImport(Libraries.Native, EntryPoint = "picollo_perf_mmap_read_group")]
    [SuppressGCTransition]
    internal static unsafe partial int ReadGroup(nint* pages, int count, PerfEventValue* values);
}
