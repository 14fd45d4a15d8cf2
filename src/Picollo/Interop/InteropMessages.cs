using Picollo.Text;

namespace Picollo.Interop;

/// <summary>
/// The messages of the native library in one place: why libpicollo_native could not be found, loaded or bound, each
/// with the command that builds it.
/// </summary>
internal static class InteropMessages
{
    // The command that produces the library, quoted in every reason the library is missing or unusable.
    private const string BuildHint =
        "it is compiled from native/*.c by 'dotnet build' (needs gcc; Linux x64 only) and copied next to Picollo.dll: " +
        "run 'dotnet build' on the project that references Picollo, or install Picollo from its package, which ships it under " +
        "runtimes/linux-x64/native/.";

    /// <summary>Given when <paramref name="path"/> exists but dlopen refused it with <paramref name="error"/>.</summary>
    internal static string LibraryNotLoadable(string path, string error) =>
        $"{path} exists but could not be loaded: {Sentences.Ended(error)} Rebuild it: {BuildHint}";

    /// <summary>Given when <paramref name="path"/> exists but is not a loadable library (<paramref name="error"/>).</summary>
    internal static string NotALibrary(string path, string error) =>
        $"{path} exists but is not a loadable library: {Sentences.Ended(error)} Rebuild it: {BuildHint}";

    /// <summary>
    /// Given when <paramref name="fileName"/> is in none of the <paramref name="searched"/> paths (nor found by the
    /// runtime's default probing, when <paramref name="usedDefaultProbing"/>).
    /// </summary>
    internal static string LibraryNotFound(string fileName, IReadOnlyList<string> searched, bool usedDefaultProbing)
    {
        string where = (searched.Count, usedDefaultProbing) switch
        {
            (0, true) => "searched by the runtime's default probing",
            (0, false) => "no folder searched",
            (_, true) => "searched " + string.Join(", ", searched) + ", then the runtime's default probing",
            _ => "searched " + string.Join(", ", searched),
        };
        return $"{fileName} was not found ({where}). Rebuild it: {BuildHint}";
    }

    /// <summary>
    /// Given when another DllImportResolver holds the Picollo assembly, so the imports cannot be bound to the checked
    /// library.
    /// </summary>
    internal static string AnotherResolverRegistered() =>
        "Another DllImportResolver is registered for the Picollo assembly, so libpicollo_native cannot be bound to the checked library; " +
        "route every native library name of Picollo through Interop.PicolloNative's resolver.";

    /// <summary>Given when the library at <paramref name="path"/> does not export <paramref name="versionExport"/>.</summary>
    internal static string NoVersionExport(string path, string versionExport) =>
        $"{path} does not export {versionExport}: it is not libpicollo_native or predates ABI versioning. Rebuild it: {BuildHint}";

    /// <summary>Given when the library at <paramref name="path"/> reports another ABI version than this Picollo expects.</summary>
    internal static string AbiVersionMismatch(string path, int version, int expectedVersion) =>
        $"{path} has ABI version {version} but this Picollo expects {expectedVersion}: a library from another build is being picked up. " +
        $"Rebuild it: {BuildHint}";
}
