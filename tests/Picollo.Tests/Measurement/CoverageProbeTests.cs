using System.Reflection;
using System.Reflection.Emit;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.InteropServices;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// What tells code instrumented for code coverage: the tracker type coverlet injects into a module it rewrites (read from
/// real metadata, of assemblies emitted here and never loaded, so this process stays uninstrumented), and a CLR profiler
/// that the profiling variables named and the runtime mapped into the process.
/// </summary>
public sealed class CoverageProbeTests
{
    private const string Subject = "The perf test WordsPerf.Count";
    private const string Clsid = "{324F817A-7420-4E6D-B3C1-143FBED6D855}";

    [Fact]
    public void CoverletTracker_TheTypeCoverletInjects_IsFoundByItsNamespaceAndHitsArray()
    {
        // coverlet names the type <module>_<guid>; a module name without a dot, as Reflection.Emit splits a name's namespace at
        // its last dot (Cecil, which coverlet writes with, keeps the two apart).
        using PEReader pe = Emit("Words", ("Coverlet.Core.Instrumentation.Tracker", "Words_0a1b2c3d", "HitsArray"), ("Words", "Counter", "s_cache"));

        CoverageProbe.CoverletTracker(pe.GetMetadataReader()).ShouldBe("Coverlet.Core.Instrumentation.Tracker.Words_0a1b2c3d");
    }

    [Fact]
    public void CoverletTracker_ATypeWithoutHitsArray_OrHitsArrayElsewhere_IsNone()
    {
        using PEReader namespaceOnly = Emit("Words", ("Coverlet.Core.Instrumentation.Tracker", "Words_0a1b2c3d", "Counts"));
        using PEReader fieldOnly = Emit("Words", ("Words.Tracking", "Hits", "HitsArray"));

        CoverageProbe.CoverletTracker(namespaceOnly.GetMetadataReader()).ShouldBeNull();
        CoverageProbe.CoverletTracker(fieldOnly.GetMetadataReader()).ShouldBeNull();
    }

    [Fact]
    public void CoverletTracker_TheAssembliesOfThisRun_AreNotInstrumented()
    {
        foreach (Assembly assembly in new[] { typeof(Perf).Assembly, typeof(CoverageProbeTests).Assembly, typeof(ShouldlyConfiguration).Assembly })
        {
            using var pe = new PEReader(File.OpenRead(assembly.Location));
            CoverageProbe.CoverletTracker(pe.GetMetadataReader()).ShouldBeNull(assembly.Location);
        }
    }

    [Fact]
    public void ThisProcess_NotUnderCoverage_SaysNothing_AfterLoadingTheTestAssemblysReferences()
    {
        // This run is not a coverage run: neither a profiler nor any assembly it loaded (or the test assembly references)
        // may read as instrumented, or every perf test of a plain run would be skipped.
        CoverageProbe.ThisProcess.Reason(Subject, "WordsPerf.Count", typeof(CoverageProbeTests).Assembly).ShouldBeNull();
    }

    [Fact]
    public void Coverlet_ModulesRewritten_NamesThemTheTrackerAndTheFix()
    {
        var probe = new CoverageProbe(static _ => null, static () => [], static _ =>
            [("Acme.Text.dll", FakeCoverage.Tracker), ("Acme.Core.dll", "Coverlet.Core.Instrumentation.Tracker.Acme.Core_1")]);

        probe.Reason(Subject, "WordsPerf.Count").ShouldBe(
            "The perf test WordsPerf.Count runs code instrumented for code coverage: coverlet rewrote Acme.Core.dll, Acme.Text.dll "
            + "to count every line and branch it runs (Coverlet.Core.Instrumentation.Tracker.Acme.Core_1), so its numbers are not what the shipped code "
            + "does. Run perf tests without coverage, or leave them out of the coverage run: "
            + "`dotnet test --collect:\"XPlat Code Coverage\" --filter Category!=Performance`.");
        probe.Reason(null, "WordsPerf.Count").ShouldNotBeNull().ShouldStartWith("The measured body WordsPerf.Count runs code instrumented");
    }

    [Fact]
    public void Profiler_EnabledAndMapped_IsNamedWithItsVariableAndClsid()
    {
        string variable = "CORECLR_PROFILER_PATH" + ArchitectureSuffix();
        CoverageProbe probe = Profiler(
            new() { ["CORECLR_ENABLE_PROFILING"] = "1", ["CORECLR_PROFILER"] = Clsid, [variable] = "/opt/cover/libCoverProfiler.so" },
            "/usr/lib/libc.so.6", "/opt/cover/libCoverProfiler.so");

        probe.Reason(Subject, "WordsPerf.Count").ShouldBe(
            $"The perf test WordsPerf.Count runs under the CLR profiler /opt/cover/libCoverProfiler.so ({variable}, {Clsid}), which "
            + "CORECLR_ENABLE_PROFILING=1 loaded into this process: a code-coverage collector (or any profiler) rewrites the "
            + "methods it instruments, so its numbers are not what the shipped code does. Run perf tests without the profiler, "
            + "or leave them out of the run that loads it: add `--filter Category!=Performance` to its `dotnet test`.");
    }

    [Fact]
    public void Profiler_TheArchitecturesVariable_ComesBeforeThePlainOne_AndDotnetPrefixCounts()
    {
        string variable = "DOTNET_PROFILER_PATH" + ArchitectureSuffix();
        CoverageProbe probe = Profiler(
            new() { ["DOTNET_ENABLE_PROFILING"] = "1", ["DOTNET_PROFILER_PATH"] = "/opt/a/libA.so", [variable] = "/opt/b/libB.so" },
            "/opt/a/libA.so", "/opt/b/libB.so");

        string reason = probe.Reason(Subject, "WordsPerf.Count").ShouldNotBeNull();
        reason.ShouldContain($"the CLR profiler /opt/b/libB.so ({variable}), which DOTNET_ENABLE_PROFILING=1 loaded");
    }

    [Fact]
    public void Profiler_NotMapped_OrNotEnabled_IsNone()
    {
        // The runtime could not load it (no such library, or its initialization failed): nothing was rewritten.
        Profiler(new() { ["CORECLR_ENABLE_PROFILING"] = "1", ["CORECLR_PROFILER"] = Clsid, ["CORECLR_PROFILER_PATH"] = "/opt/cover/libCoverProfiler.so" }, "/usr/lib/libc.so.6")
            .Reason(Subject, "WordsPerf.Count").ShouldBeNull();
        Profiler(new() { ["CORECLR_ENABLE_PROFILING"] = "0", ["CORECLR_PROFILER_PATH"] = "/opt/cover/libCoverProfiler.so" }, "/opt/cover/libCoverProfiler.so")
            .Reason(Subject, "WordsPerf.Count").ShouldBeNull();
    }

    [Fact]
    public void Profiler_ASymbolicLink_IsFoundByTheFileItNames()
    {
        if (OperatingSystem.IsWindows())
            Assert.Skip("Symbolic links need a privilege on Windows.");
        using var temp = new TempDirectory();
        string real = temp.Combine("libCoverProfiler.so.1.2");
        File.WriteAllText(real, "not a library: only its name is compared");
        string link = temp.Combine("libCoverProfiler.so");
        File.CreateSymbolicLink(link, real);

        Profiler(new() { ["CORECLR_ENABLE_PROFILING"] = "1", ["CORECLR_PROFILER_PATH"] = link }, "/elsewhere/libCoverProfiler.so.1.2")
            .Reason(Subject, "WordsPerf.Count").ShouldNotBeNull().ShouldContain($"the CLR profiler {link} (CORECLR_PROFILER_PATH)");
    }

    private static CoverageProbe Profiler(Dictionary<string, string> environment, params string[] mapped) =>
        new(name => environment.GetValueOrDefault(name), () => mapped, static _ => []);

    private static string ArchitectureSuffix() => RuntimeInformation.ProcessArchitecture switch
    {
        System.Runtime.InteropServices.Architecture.X86 => "_32",
        System.Runtime.InteropServices.Architecture.Arm => "_ARM32",
        System.Runtime.InteropServices.Architecture.Arm64 => "_ARM64",
        _ => "_64",
    };

    // An assembly with the given types, each with one static field, saved as a PE image and read back, never loaded.
    private static PEReader Emit(string name, params (string Namespace, string Type, string Field)[] types)
    {
        var assembly = new PersistedAssemblyBuilder(new AssemblyName(name), typeof(object).Assembly);
        ModuleBuilder module = assembly.DefineDynamicModule(name + ".dll");
        foreach ((string ns, string type, string field) in types)
        {
            TypeBuilder builder = module.DefineType($"{ns}.{type}", TypeAttributes.Public | TypeAttributes.Abstract | TypeAttributes.Sealed);
            builder.DefineField(field, typeof(int[]), FieldAttributes.Public | FieldAttributes.Static);
            builder.CreateType();
        }

        var stream = new MemoryStream();
        assembly.Save(stream);
        stream.Position = 0;
        return new PEReader(stream);
    }
}
