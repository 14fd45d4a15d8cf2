using System.Diagnostics;
using Xunit;

namespace Picollo.Tests.Support;

/// <summary>
/// A read-only file system over a folder (an empty tmpfs mounted <c>ro</c>), as a container's read-only volume is: the
/// kernel refuses writes with EROFS even to root. Needs root (CI and the development VM run as root); elsewhere the test
/// is skipped with the reason, never passed.
/// </summary>
internal sealed class ReadOnlyMount : IDisposable
{
    private readonly string _folder;

    private ReadOnlyMount(string folder) => _folder = folder;

    /// <summary>Mounts an empty read-only tmpfs over <paramref name="folder"/>; dispose to unmount.</summary>
    public static ReadOnlyMount Over(string folder)
    {
        (int code, string output) = Run("mount", "-t", "tmpfs", "-o", "ro,size=64k", "picollo-test-ro", folder);
        if (code != 0)
            Assert.Skip($"Could not mount a read-only tmpfs over {folder} (needs root): {output.Trim()}");
        return new ReadOnlyMount(folder);
    }

    /// <inheritdoc/>
    public void Dispose() => Run("umount", _folder);

    private static (int Code, string Output) Run(string file, params string[] arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        using Process process = Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd() + process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output);
    }
}
