
namespace Picollo.PerfEvents;

/// <summary>Span-shaped entry points to the native rdpmc reader (native/perf_mmap.c).</summary>
internal static class PerfMmapReader
{
    /// <summary>Bytes of struct perf_event_mmap_page the reader looks at (through time_mask).</summary>
    public const int HeaderBytes = 96;

    /// <summary>
    /// The reader's arithmetic on a page image: <see cref="Interop.PerfMmap.Ok"/> or <see cref="Interop.PerfMmap.UseRead"/>.
    /// </summary>
    public static unsafe int Compute(ReadOnlySpan<byte> page, ulong rawPmc, ulong tsc, out Interop.PerfEventValue value)
    {
        if (page.Length < HeaderBytes)
            throw new ArgumentException("A perf_event_mmap_page image needs " + HeaderBytes + " bytes.", nameof(page));
        value = default;
        fixed (byte* p = page)
        fixed (Interop.PerfEventValue* v = &value)
        {
            return Interop.PerfMmap.Compute(p, rawPmc, tsc, v);
        }
    }

    /// <summary>Reads a group from its mapped pages; any status but <see cref="Interop.PerfMmap.Ok"/> means "use read()".</summary>
    public static unsafe int ReadGroup(ReadOnlySpan<nint> pages, Span<Interop.PerfEventValue> values)
    {
        if (values.Length < pages.Length)
            throw new ArgumentException("One value slot per page.", nameof(values));
        fixed (nint* p = pages)
        fixed (Interop.PerfEventValue* v = values)
        {
            return Interop.PerfMmap.ReadGroup(p, pages.Length, v);
        }
    }
}
