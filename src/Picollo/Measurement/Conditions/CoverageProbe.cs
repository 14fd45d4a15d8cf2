using System.Collections.Concurrent;
using System.Diagnostics;
using System.Reflection;
using System.Reflection.Metadata;
using System.Runtime.InteropServices;
using System.Runtime.Loader;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// Tells whether the code a measurement runs is instrumented for code coverage, and by what: instrumented code counts every
/// line and branch it runs, so its numbers must never pass for those of the shipped code, as unoptimized code's must not
/// (<see cref="CodeOptimization"/>; docs/TROUBLESHOOTING.md, "Skipped tests").
/// </summary>
/// <remarks>
/// <para>
/// Two kinds of collector, two pieces of evidence. coverlet (its VSTest collector, <c>--collect:"XPlat Code Coverage"</c>,
/// and its MSBuild and console forms) rewrites each module it covers on disk before the test host loads it, and injects a
/// type <c>Coverlet.Core.Instrumentation.Tracker.&lt;Module&gt;_&lt;guid&gt;</c> whose static <c>HitsArray</c> the rewritten
/// code increments (coverlet's <c>Instrumenter.AddCustomModuleTrackerToModule</c>; its in-process collector finds the type
/// by that namespace). The probe reads each loaded assembly's metadata for that type, once per assembly: no type is
/// loaded, and the runtime's own assemblies are never instrumented, so they are not read.
/// </para>
/// <para>
/// Collectors that are CLR profilers (Microsoft's Code Coverage in its dynamic mode, dotCover, others) rewrite methods as
/// the JIT compiles them; the runtime loads one at startup when <c>CORECLR_ENABLE_PROFILING=1</c> (from .NET 11 also
/// <c>DOTNET_ENABLE_PROFILING=1</c>) names a profiler (docs: "Run-time configuration options for debugging and profiling").
/// The probe says so only when that profiler's library is mapped into this process: a profiler that failed to load
/// changes nothing.
/// </para>
/// </remarks>
internal sealed class CoverageProbe
{
    /// <summary>The namespace of the type coverlet injects into every module it instruments.</summary>
    internal const string CoverletTrackerNamespace = "Coverlet.Core.Instrumentation.Tracker";

    // The tracker's field the rewritten code increments: with the namespace, no other type matches by accident.
    private const string HitsArrayField = "HitsArray";

    // The runtime reads the profiler's settings under these prefixes: CORECLR_ always, DOTNET_ from .NET 11.
    private static readonly string[] s_prefixes = ["CORECLR_", "DOTNET_"];

    // Per loaded assembly, its tracker type's full name or null; and the measured assemblies whose references are loaded.
    private static readonly ConcurrentDictionary<Assembly, string?> s_trackers = new();
    private static readonly ConcurrentDictionary<Assembly, bool> s_referencesLoaded = new();

    private readonly Func<string, string?> _environment;
    private readonly Func<IEnumerable<string>> _nativeModules;
    private readonly Func<Assembly?, IReadOnlyList<(string Module, string Tracker)>> _instrumented;
    private readonly Lazy<(string Profiler, string EnabledBy)?> _profiler;

    /// <summary>A probe over the given facts; <see cref="ThisProcess"/> reads this process's.</summary>
    /// <param name="environment">Reads an environment variable.</param>
    /// <param name="nativeModules">The paths of the native libraries mapped into the process.</param>
    /// <param name="instrumented">
    /// The loaded assemblies coverlet rewrote (their file and the tracker type it injected), after loading the references of
    /// the assembly given, if any.
    /// </param>
    internal CoverageProbe(
        Func<string, string?> environment,
        Func<IEnumerable<string>> nativeModules,
        Func<Assembly?, IReadOnlyList<(string Module, string Tracker)>> instrumented)
    {
        _environment = environment;
        _nativeModules = nativeModules;
        _instrumented = instrumented;

        // The runtime reads these variables once, at startup: the answer holds for the process's life.
        _profiler = new Lazy<(string, string)?>(FindProfiler);
    }

    /// <summary>This process's probe: its environment, its mapped libraries, its loaded assemblies.</summary>
    public static CoverageProbe ThisProcess { get; } = new(Environment.GetEnvironmentVariable, MappedLibraries, LoadedInstrumented);

    /// <summary>
    /// The probe the engine and the adapters ask: <see cref="ThisProcess"/>. Tests of the non-parallel measurement group
    /// put a probe over made-up facts in its place, as they do with the baseline options.
    /// </summary>
    internal static CoverageProbe Current { get; set; } = ThisProcess;

    /// <summary>
    /// Why the measured code is instrumented for code coverage; <see langword="null"/> when it is not.
    /// </summary>
    /// <param name="subject">
    /// What the sentence names, e.g. <c>The perf test Parsing.Parse</c>; the body when <see langword="null"/>.
    /// </param>
    /// <param name="body">The measured body as a user wrote it, e.g. <c>Parsing.Parse</c>.</param>
    /// <param name="measured">
    /// An assembly whose references are loaded first, so that a library it calls counts before its first call (a test
    /// adapter asks before anything runs); <see langword="null"/> after a warmup, which loaded what the body calls.
    /// </param>
    /// <returns>A sentence that names the subject, the collector and what it changed, and what to do.</returns>
    public string? Reason(string? subject, string body, Assembly? measured = null)
    {
        if (_profiler.Value is { } profiler)
            return MeasurementMessages.InstrumentedByProfiler(subject, body, profiler.Profiler, profiler.EnabledBy);

        IReadOnlyList<(string Module, string Tracker)> instrumented = _instrumented(measured);
        if (instrumented.Count == 0)
            return null;
        (string Module, string Tracker)[] sorted = [.. instrumented.OrderBy(static m => m.Module, StringComparer.Ordinal)];
        return MeasurementMessages.InstrumentedByCoverlet(subject, body, [.. sorted.Select(static m => m.Module)], sorted[0].Tracker);
    }

    /// <summary>
    /// The full name of the type coverlet injected into the module <paramref name="reader"/> reads, or <see langword="null"/>.
    /// </summary>
    internal static string? CoverletTracker(MetadataReader reader)
    {
        foreach (TypeDefinitionHandle handle in reader.TypeDefinitions)
        {
            TypeDefinition type = reader.GetTypeDefinition(handle);
            if (!reader.StringComparer.Equals(type.Namespace, CoverletTrackerNamespace))
                continue;
            foreach (FieldDefinitionHandle field in type.GetFields())
            {
                if (reader.StringComparer.Equals(reader.GetFieldDefinition(field).Name, HitsArrayField))
                    return CoverletTrackerNamespace + "." + reader.GetString(type.Name);
            }
        }

        return null;
    }

    // The loaded assemblies coverlet rewrote, each read once (an assembly's metadata never changes once loaded); the
    // measured assembly's references loaded first, once.
    private static List<(string Module, string Tracker)> LoadedInstrumented(Assembly? measured)
    {
        if (measured is not null && s_referencesLoaded.TryAdd(measured, true))
            LoadReferences(measured);

        var instrumented = new List<(string, string)>();
        foreach (Assembly assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            if (s_trackers.GetOrAdd(assembly, FindTracker) is { } tracker)
                instrumented.Add((assembly.GetName().Name + ".dll", tracker));
        }

        return instrumented;
    }

    // Dynamic assemblies have no stored metadata; the runtime's own are never rewritten, so they are not read.
    private static unsafe string? FindTracker(Assembly assembly)
    {
        if (assembly.IsDynamic || IsRuntimeAssembly(assembly) || !assembly.TryGetRawMetadata(out byte* blob, out int length))
            return null;
        return CoverletTracker(new MetadataReader(blob, length));
    }

    private static bool IsRuntimeAssembly(Assembly assembly) =>
        assembly.Location.Length > 0
        && assembly.Location.StartsWith(RuntimeEnvironment.GetRuntimeDirectory(), StringComparison.OrdinalIgnoreCase);

    // The test assembly's own references, loaded as its first call would load them. One that cannot load is no evidence.
    private static void LoadReferences(Assembly measured)
    {
        AssemblyLoadContext context = AssemblyLoadContext.GetLoadContext(measured) ?? AssemblyLoadContext.Default;
        foreach (AssemblyName reference in measured.GetReferencedAssemblies())
        {
            try
            {
                context.LoadFromAssemblyName(reference);
            }
            catch (Exception e) when (e is FileNotFoundException or FileLoadException or BadImageFormatException)
            {
                // Not there, or not loadable here: the measurement would meet the same, and nothing of it is measured.
            }
        }
    }

    // The profiler the runtime loaded at startup, and the variable that enabled it; null when none is mapped.
    private (string Profiler, string EnabledBy)? FindProfiler()
    {
        foreach (string prefix in s_prefixes)
        {
            string enable = prefix + "ENABLE_PROFILING";
            if (_environment(enable)?.Trim() != "1")
                continue;
            string? clsid = _environment(prefix + "PROFILER") is { Length: > 0 } id ? id.Trim() : null;
            (string Variable, string Path)? library = ProfilerPath(prefix);

            // On Windows the runtime may find the profiler by its CLSID in the registry, with no path to look for.
            if (library is null)
            {
                if (clsid is not null && OperatingSystem.IsWindows())
                    return ($"{clsid} ({prefix}PROFILER)", enable + "=1");
                continue;
            }

            if (IsMapped(library.Value.Path))
            {
                string named = $"{library.Value.Path} ({library.Value.Variable}{(clsid is null ? string.Empty : ", " + clsid)})";
                return (named, enable + "=1");
            }
        }

        return null;
    }

    // The runtime takes the variable of the process's architecture before the plain one (docs, "Profiler location").
    private (string Variable, string Path)? ProfilerPath(string prefix)
    {
        string architecture = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X86 => "_32",
            Architecture.Arm => "_ARM32",
            Architecture.Arm64 => "_ARM64",
            _ => "_64",
        };
        foreach (string variable in new[] { prefix + "PROFILER_PATH" + architecture, prefix + "PROFILER_PATH" })
        {
            if (_environment(variable) is { } path && !string.IsNullOrWhiteSpace(path))
                return (variable, path.Trim());
        }

        return null;
    }

    // Compared by file name, and by the name a symbolic link resolves to: the process's map lists the file it opened.
    private bool IsMapped(string path)
    {
        var names = new HashSet<string>(OperatingSystem.IsLinux() ? StringComparer.Ordinal : StringComparer.OrdinalIgnoreCase)
        {
            Path.GetFileName(path),
        };
        try
        {
            if (new FileInfo(path).ResolveLinkTarget(returnFinalTarget: true) is { } target)
                names.Add(target.Name);
        }
        catch (IOException)
        {
            // A link that cannot be read names no other file.
        }

        return _nativeModules().Any(module => names.Contains(Path.GetFileName(module)));
    }

    private static List<string> MappedLibraries()
    {
        using Process self = Process.GetCurrentProcess();
        var paths = new List<string>();
        foreach (ProcessModule module in self.Modules)
        {
            using (module)
                paths.Add(module.FileName);
        }

        return paths;
    }
}
