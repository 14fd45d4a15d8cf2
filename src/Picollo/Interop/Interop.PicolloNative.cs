using System.Runtime.InteropServices;

namespace Picollo.Interop;

/// <summary>
/// Finds, loads and version-checks libpicollo_native once per process, and binds every
/// <see cref="Libraries.Native"/> import to the library it checked. Never throws: a machine without the
/// library gets a <see cref="NativeLibraryStatus"/> whose reason says why and what to do.
/// </summary>
internal static partial class PicolloNative
{
    /// <summary>
    /// The one place the managed side states the ABI it was written against: must equal
    /// <c>PICOLLO_ABI_VERSION</c> in native/picollo_native.h (a test reads the header and checks). A library
    /// reporting any other version is refused, older or newer, because an export may have changed shape.
    /// </summary>
    internal const int ExpectedAbiVersion = 3;

    /// <summary>The file dotnet build produces from native/*.c and copies next to Picollo.dll.</summary>
    internal const string FileName = "libpicollo_native.so";

    private const string VersionExport = "picollo_abi_version";

    private static readonly Lazy<NativeLibraryStatus> s_status = new(LoadForProcess, LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>The library of this process, loaded on first use (then cached; a failure is not retried).</summary>
    internal static NativeLibraryStatus Status => s_status.Value;

    /// <summary>
    /// Loads the library from the first of <paramref name="searchDirectories"/> that has it, then (when
    /// <paramref name="useDefaultProbing"/>) through the runtime's probing for this assembly (deps.json
    /// native assets, the application folder), and checks its ABI version. Does not register anything:
    /// tests call it with directories of their own.
    /// </summary>
    internal static NativeLibraryStatus Load(IEnumerable<string> searchDirectories, bool useDefaultProbing)
    {
        if (!OperatingSystem.IsLinux())
        {
            return NativeLibraryStatus.Failed(
                $"libpicollo_native exists for Linux x64 only; this process runs on {RuntimeInformation.OSDescription}.");
        }

        if (RuntimeInformation.ProcessArchitecture != Architecture.X64)
        {
            return NativeLibraryStatus.Failed(
                $"libpicollo_native exists for Linux x64 only; this process is {RuntimeInformation.ProcessArchitecture}.");
        }


        var searched = new List<string>();
        foreach (string directory in searchDirectories)
        {
            string path = Path.Combine(directory, FileName);
            searched.Add(path);
            if (!File.Exists(path))
                continue;

            try
            {
                return CheckVersion(NativeLibrary.Load(path), path);
            }
            catch (DllNotFoundException e)
            {
                // The file is there but dlopen refused it (wrong architecture, truncated, missing glibc symbol):
                // dlerror's text in the message is the useful part.
                return NativeLibraryStatus.Failed(InteropMessages.LibraryNotLoadable(path, e.Message));
            }
            catch (BadImageFormatException e)
            {
                return NativeLibraryStatus.Failed(InteropMessages.NotALibrary(path, e.Message));
            }
        }

        if (useDefaultProbing
            && NativeLibrary.TryLoad(
                Libraries.Native,
                typeof(PicolloNative).Assembly,
                DllImportSearchPath.AssemblyDirectory | DllImportSearchPath.SafeDirectories,
                out nint handle))
        {
            return CheckVersion(handle, Libraries.Native);
        }

        return NativeLibraryStatus.Failed(InteropMessages.LibraryNotFound(FileName, searched, useDefaultProbing));
    }

    /// <summary>The folders a deployed Picollo keeps the library in: beside the assembly, then the application folder.</summary>
    internal static IEnumerable<string> DefaultSearchDirectories()
    {
        // Location is empty for single-file apps; AppContext.BaseDirectory still names the bundle's folder.
        string assemblyDirectory = Path.GetDirectoryName(typeof(PicolloNative).Assembly.Location) ?? string.Empty;
        if (assemblyDirectory.Length > 0)
            yield return assemblyDirectory;
        if (!string.Equals(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory), assemblyDirectory, StringComparison.Ordinal))
            yield return AppContext.BaseDirectory;
    }

    private static NativeLibraryStatus LoadForProcess()
    {
        NativeLibraryStatus status = Load(DefaultSearchDirectories(), useDefaultProbing: true);
        if (!status.IsLoaded)
            return status;

        try
        {
            // Bind the LibraryImports of Libraries.Native to exactly the handle whose version was checked, not to
            // whatever the default probing would find first. This must stay the assembly's only resolver
            // (SetDllImportResolver accepts one per assembly); every other library name falls through to the
            // default probing by returning 0.
            NativeLibrary.SetDllImportResolver(typeof(PicolloNative).Assembly, (name, _, _) =>
                string.Equals(name, Libraries.Native, StringComparison.Ordinal) ? status.Handle : 0);
            return status;
        }
        catch (InvalidOperationException)
        {
            // Without the resolver the imports could bind to another copy of the library than the one checked:
            // refuse, loudly, rather than read through an unchecked ABI.
            return NativeLibraryStatus.Failed(InteropMessages.AnotherResolverRegistered());
        }
    }

    private static unsafe NativeLibraryStatus CheckVersion(nint handle, string path)
    {
        if (!NativeLibrary.TryGetExport(handle, VersionExport, out nint export))
        {
            NativeLibrary.Free(handle);
            return NativeLibraryStatus.Failed(InteropMessages.NoVersionExport(path, VersionExport));
        }

        int version = ((delegate* unmanaged<int>)export)();
        if (version != ExpectedAbiVersion)
        {
            NativeLibrary.Free(handle);
            return NativeLibraryStatus.Failed(InteropMessages.AbiVersionMismatch(path, version, ExpectedAbiVersion));
        }

        return NativeLibraryStatus.Loaded(handle, path, version);
    }
}
