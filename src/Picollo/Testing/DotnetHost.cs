using System.Runtime.InteropServices;

namespace Picollo.Testing;

/// <summary>The <c>dotnet</c> host that runs this process's runtime, for starting a test assembly in a fresh process.</summary>
internal static class DotnetHost
{
    /// <summary>
    /// The host's path: <c>DOTNET_HOST_PATH</c> (the SDK sets it for the processes <c>dotnet test</c> starts); this process's
    /// own program when it is the host (NUnit's testhost runs under it); else the host of the runtime folder this process
    /// runs on (<c>{root}/shared/Microsoft.NETCore.App/{version}/</c> → <c>{root}/dotnet</c>), as an xunit.v3 test
    /// assembly runs from its own executable; else <c>dotnet</c> from the PATH.
    /// </summary>
    public static string Path { get; } = Find();

    private static string Find()
    {
        string name = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
        if (System.Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host))
            return host;
        if (System.Environment.ProcessPath is { } own
            && string.Equals(System.IO.Path.GetFileName(own), name, StringComparison.OrdinalIgnoreCase))
        {
            return own;
        }

        string runtime = RuntimeEnvironment.GetRuntimeDirectory();
        string root = System.IO.Path.GetFullPath(System.IO.Path.Combine(runtime, "..", "..", ".."));
        string candidate = System.IO.Path.Combine(root, name);
        return File.Exists(candidate) ? candidate : name;
    }
}
