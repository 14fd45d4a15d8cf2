using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>sysctlbyname(3) of macOS and the BSDs: named kernel values, such as the CPU's brand string.</summary>
internal static partial class Sysctl
{
    /// <summary>
    /// <c>int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)</c>: 0, or -1 with
    /// errno. With <paramref name="value"/> null it stores the value's size in <paramref name="length"/>.
    /// </summary>
    [LibraryImport(Libraries.Libc, EntryPoint = "sysctlbyname", StringMarshalling = StringMarshalling.Utf8)]
    internal static unsafe partial int ByName(string name, byte* value, nuint* length, void* newValue, nuint newLength);

    /// <summary>A string value by name, or <see langword="null"/> when the kernel has no such value (or it is empty).</summary>
    /// <param name="name">The value's name, e.g. <c>machdep.cpu.brand_string</c>.</param>
    /// <returns>The value without its terminating NUL.</returns>
    internal static unsafe string? ReadString(string name)
    {
        nuint length = 0;
        if (ByName(name, null, &length, null, 0) != 0 || length is 0 or > 4096)
            return null;

        byte* buffer = stackalloc byte[(int)length];
        if (ByName(name, buffer, &length, null, 0) != 0)
            return null;

        string value = Marshal.PtrToStringUTF8((nint)buffer, (int)length).TrimEnd('\0').Trim();
        return value.Length == 0 ? null : value;
    }
}
