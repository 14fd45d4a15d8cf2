namespace Picollo.Interop;

/// <summary>Native declarations, one file per function family (as dotnet/runtime lays them out).</summary>
internal static partial class Interop
{
    /// <summary>The libraries the declarations bind to.</summary>
    internal static class Libraries
    {
        /// <summary>libpicollo_native.so, built from native/ next to Picollo.dll.</summary>
        internal const string Native = "picollo_native";

        /// <summary>The C library (syscall, read, ioctl, mmap, clock_gettime, …).</summary>
        internal const string Libc = "libc";
    }
}
