using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Picollo.Tests.Support;

/// <summary>
/// Runs code as a user who cannot write a read-only folder. A plain user is already one: the folder's mode bits stop them.
/// Root ignores mode bits, so for root the code runs on a thread whose file-system uid is <c>nobody</c>: setfsuid(2) is
/// per thread, and changing the fsuid away from 0 drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from that thread's
/// effective set, so the kernel checks its file access like any other user's. The thread ends with the code.
/// </summary>
[SupportedOSPlatform("linux")]
internal static partial class OtherUser
{
    private const int Nobody = 65534;

    /// <summary>Makes <paramref name="folder"/> readable and searchable, writable by nobody; returns an action that restores it.</summary>
    public static IDisposable MakeReadOnly(string folder)
    {
        UnixFileMode previous = File.GetUnixFileMode(folder);
        File.SetUnixFileMode(folder, UnixFileMode.UserRead | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
        return new Restore(() => File.SetUnixFileMode(folder, previous));
    }

    /// <summary>Makes <paramref name="folder"/> writable by everyone (where the other user must write, e.g. reports).</summary>
    public static string MakeWritableByAll(string folder)
    {
        Directory.CreateDirectory(folder);
        File.SetUnixFileMode(folder, (UnixFileMode)0b111_111_111);
        return folder;
    }

    /// <summary>Runs <paramref name="action"/> as a user without write access to read-only folders; rethrows what it throws.</summary>
    public static T Run<T>(Func<T> action)
    {
        T result = default!;
        ExceptionDispatchInfo? failure = null;
        var thread = new Thread(() =>
        {
            try
            {
                if (geteuid() == 0)
                {
                    _ = setfsuid(Nobody);
                    if (setfsuid(-1) != Nobody)
                        throw new InvalidOperationException("setfsuid(nobody) did not take effect: cannot run as another user.");
                }

                result = action();
            }
            catch (Exception e)
            {
                failure = ExceptionDispatchInfo.Capture(e);
            }
        });
        thread.Start();
        thread.Join();
        failure?.Throw();
        return result;
    }

    /// <summary>Runs <paramref name="action"/> as a user without write access to read-only folders.</summary>
    public static void Run(Action action) => Run(() =>
    {
        action();
        return 0;
    });

    [LibraryImport("libc")]
    private static partial uint geteuid();

    // Returns the previous fsuid; an invalid id (-1) changes nothing, which makes it a query.
    [LibraryImport("libc")]
    private static partial int setfsuid(int fsuid);

    private sealed class Restore(Action restore) : IDisposable
    {
        public void Dispose() => restore();
    }
}
