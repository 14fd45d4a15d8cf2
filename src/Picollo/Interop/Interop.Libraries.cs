namespace Picollo.Interop;

/// <summary>The libraries the declarations of this folder bind to.</summary>
/// <remarks>
/// One file per function family (Interop.Fd.cs, Interop.Errno.cs, …), as dotnet/runtime lays them out. Callers
/// outside this namespace name the family through the namespace, <c>Interop.Fd.Read(…)</c>, so every native call
/// reads the same way and is easy to find.
/// </remarks>
internal static partial class Libraries
{
    /// <summary>libpicollo_native.so, built from native/ next to Picollo.dll.</summary>
    internal const string Native = "picollo_native";

    /// <summary>The C library (syscall, read, ioctl, mmap, clock_gettime, …).</summary>
    internal const string Libc = "libc";
}
