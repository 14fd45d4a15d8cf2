using System.Collections.Immutable;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;

namespace Picollo.Counters;

/// <summary>
/// The facts that decide whether <c>tsc</c> counts on a machine, and so which time counter the default set measures there:
/// <c>tsc</c> on Linux x64 with libpicollo_native, the portable <c>clock</c> everywhere else (docs/COUNTERS.md, "The
/// portable clock"). <see cref="Current"/> is this process's; tests describe another platform (Windows, macOS, Arm64, Linux
/// without the native library) and see what it would measure.
/// </summary>
/// <param name="IsLinux">Whether the OS is Linux.</param>
/// <param name="OSDescription">The OS as <see cref="RuntimeInformation.OSDescription"/> names it, for messages.</param>
/// <param name="Architecture">The process architecture.</param>
/// <param name="HasX86Base">Whether the runtime exposes the x86 base instructions (CPUID), which the TSC's detection uses.</param>
/// <param name="NativeLibraryFailure">
/// Why libpicollo_native cannot be used on Linux x64 (not built, wrong ABI), or <see langword="null"/> when it loaded; not
/// consulted elsewhere, where the library does not exist.
/// </param>
internal sealed record TimePlatform(
    bool IsLinux, string OSDescription, Architecture Architecture, bool HasX86Base, string? NativeLibraryFailure)
{
    private static readonly Lazy<TimePlatform> s_current = new(Capture, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>This process's platform, captured once (loading libpicollo_native on Linux x64).</summary>
    public static TimePlatform Current => s_current.Value;

    /// <summary>
    /// Why <c>tsc</c> cannot count on this platform and what measures time instead; <see langword="null"/> when it counts.
    /// </summary>
    public string? TscUnsupportedReason =>
        !HasX86Base || Architecture != Architecture.X64 ? CounterMessages.TscNeedsX64(Architecture.ToString())
        : !IsLinux ? CounterMessages.TscNeedsLinux(OSDescription)
        : NativeLibraryFailure;

    /// <summary>The counters a run that names none measures on this platform (<see cref="KnownCounters.DefaultSetFor"/>).</summary>
    public ImmutableArray<string> DefaultCounters => KnownCounters.DefaultSetFor(TscUnsupportedReason is null);

    private static TimePlatform Capture()
    {
        Architecture architecture = RuntimeInformation.ProcessArchitecture;
        bool isLinux = OperatingSystem.IsLinux();

        // The library exists for Linux x64 only: elsewhere it is not even looked for.
        string? nativeFailure = isLinux && architecture == Architecture.X64 ? Interop.PicolloNative.Status.FailureReason : null;
        return new TimePlatform(isLinux, RuntimeInformation.OSDescription, architecture, X86Base.IsSupported, nativeFailure);
    }
}
