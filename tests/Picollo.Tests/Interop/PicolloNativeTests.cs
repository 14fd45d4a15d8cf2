using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Interop;

public sealed partial class PicolloNativeTests
{
    [Fact]
    public void Status_OnThisMachine_IsLoadedWithTheExpectedAbiVersion()
    {
        var status = Picollo.Interop.PicolloNative.Status;

        status.FailureReason.ShouldBeNull();
        status.IsLoaded.ShouldBeTrue();
        status.Handle.ShouldNotBe(0);
        status.AbiVersion.ShouldBe(Picollo.Interop.PicolloNative.ExpectedAbiVersion);
    }

    [Fact]
    public void ExpectedAbiVersion_MatchesTheNativeHeader()
    {
        // The one managed constant must follow the header whenever the ABI is bumped.
        string header = File.ReadAllText(Path.Combine(RepositoryRoot(), "native", "picollo_native.h"));
        Match match = AbiVersionDefine().Match(header);

        match.Success.ShouldBeTrue("picollo_native.h defines PICOLLO_ABI_VERSION");
        int.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture).ShouldBe(Picollo.Interop.PicolloNative.ExpectedAbiVersion);
    }

    [Fact]
    public void Load_FromTheBuildOutput_FindsTheLibraryBesideTheAssembly()
    {
        var status = Picollo.Interop.PicolloNative.Load([AppContext.BaseDirectory], useDefaultProbing: false);

        status.IsLoaded.ShouldBeTrue(status.FailureReason);
        status.Path.ShouldBe(Path.Combine(AppContext.BaseDirectory, Picollo.Interop.PicolloNative.FileName));
    }

    [Fact]
    public void Load_FromAFolderWithoutTheLibrary_SaysWhereItLookedAndHowToBuildIt()
    {
        using var folder = new TempFolder();

        var status = Picollo.Interop.PicolloNative.Load([folder.Path], useDefaultProbing: false);

        status.IsLoaded.ShouldBeFalse();
        status.Handle.ShouldBe(0);
        status.FailureReason.ShouldNotBeNull();
        status.FailureReason.ShouldContain(Path.Combine(folder.Path, Picollo.Interop.PicolloNative.FileName));
        status.FailureReason.ShouldContain("'dotnet build'");
        status.FailureReason.ShouldContain("gcc");
    }

    [Fact]
    public void Load_AFileThatIsNotALibrary_ReportsTheLoaderErrorAndHowToRebuild()
    {
        using var folder = new TempFolder();
        string path = Path.Combine(folder.Path, Picollo.Interop.PicolloNative.FileName);
        File.WriteAllText(path, "not an ELF file");

        var status = Picollo.Interop.PicolloNative.Load([folder.Path], useDefaultProbing: false);

        status.IsLoaded.ShouldBeFalse();
        status.FailureReason.ShouldNotBeNull();
        status.FailureReason.ShouldContain($"{path} exists but");
        status.FailureReason.ShouldContain("'dotnet build'");
    }

    [Fact]
    public void Load_ALibraryWithAnotherAbiVersion_IsRefusedNamingBothVersions()
    {
        using var folder = new TempFolder();
        int otherVersion = Picollo.Interop.PicolloNative.ExpectedAbiVersion + 41;
        CompileStub(folder.Path, $"int picollo_abi_version(void) {{ return {otherVersion}; }}");

        var status = Picollo.Interop.PicolloNative.Load([folder.Path], useDefaultProbing: false);

        status.IsLoaded.ShouldBeFalse();
        status.FailureReason.ShouldNotBeNull();
        status.FailureReason.ShouldContain($"ABI version {otherVersion} but this Picollo expects {Picollo.Interop.PicolloNative.ExpectedAbiVersion}");
        status.FailureReason.ShouldContain("'dotnet build'");
    }

    [Fact]
    public void Load_ALibraryWithoutTheVersionExport_IsRefused()
    {
        using var folder = new TempFolder();
        CompileStub(folder.Path, "int something_else(void) { return 1; }");

        var status = Picollo.Interop.PicolloNative.Load([folder.Path], useDefaultProbing: false);

        status.IsLoaded.ShouldBeFalse();
        status.FailureReason.ShouldNotBeNull();
        status.FailureReason.ShouldContain("does not export picollo_abi_version");
    }

    private static void CompileStub(string folder, string source)
    {
        string sourcePath = Path.Combine(folder, "stub.c");
        File.WriteAllText(sourcePath, source);
        var startInfo = new ProcessStartInfo("gcc", ["-shared", "-fPIC", "-o", Path.Combine(folder, Picollo.Interop.PicolloNative.FileName), sourcePath])
        {
            RedirectStandardError = true,
        };
        using var gcc = Process.Start(startInfo)!;
        string errors = gcc.StandardError.ReadToEnd();
        gcc.WaitForExit();
        gcc.ExitCode.ShouldBe(0, errors);
    }

    private static string RepositoryRoot([CallerFilePath] string callerFile = "")
        => Path.GetFullPath(Path.Combine(Path.GetDirectoryName(callerFile)!, "..", "..", ".."));

    [GeneratedRegex(@"#define\s+PICOLLO_ABI_VERSION\s+(\d+)")]
    private static partial Regex AbiVersionDefine();

    private sealed class TempFolder : IDisposable
    {
        public TempFolder() => Directory.CreateDirectory(Path);

        public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "picollo-native-" + Guid.NewGuid().ToString("N"));

        public void Dispose() => Directory.Delete(Path, recursive: true);
    }
}
