namespace Picollo.Interop;

/// <summary>The outcome of loading libpicollo_native.</summary>
/// <param name="Handle">The dlopen handle; 0 when not loaded.</param>
/// <param name="Path">
/// The file (or library name, when found by default probing) that was loaded; <see langword="null"/> when not loaded.
/// </param>
/// <param name="AbiVersion">The version the library reported; <see langword="null"/> when not loaded.</param>
/// <param name="FailureReason">Why the library cannot be used and how to fix it; <see langword="null"/> when loaded.</param>
internal sealed record NativeLibraryStatus(nint Handle, string? Path, int? AbiVersion, string? FailureReason)
{
    /// <summary><see langword="true"/> when the library is loaded with the expected ABI version.</summary>
    public bool IsLoaded => FailureReason is null;

    /// <summary>A loaded library.</summary>
    public static NativeLibraryStatus Loaded(nint handle, string path, int version) => new(handle, path, version, null);

    /// <summary>No usable library, for <paramref name="reason"/>.</summary>
    public static NativeLibraryStatus Failed(string reason) => new(0, null, null, reason);
}
