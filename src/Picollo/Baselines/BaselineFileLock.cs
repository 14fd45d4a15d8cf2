using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Picollo.IO;

namespace Picollo.Baselines;

/// <summary>
/// An exclusive, cross-process lock for one baseline path: a lock file opened with <see cref="FileShare.None"/>.
/// </summary>
/// <remarks>
/// <para>
/// The lock is <see cref="ExclusiveFile"/>'s: an exclusive open of the lock file, released by the kernel when a
/// process dies.
/// </para>
/// <para>
/// The lock file is never deleted: deleting it on release would let a waiter lock the unlinked file while a
/// newcomer locks a fresh one at the same path, and both would enter. The files are tiny, live in the temp
/// directory (keyed by a hash of the baseline's full path) and are reused by every later run.
/// </para>
/// </remarks>
internal sealed class BaselineFileLock : IDisposable
{
    private readonly FileStream _stream;

    private BaselineFileLock(FileStream stream) => _stream = stream;

    public static BaselineFileLock Acquire(string baselinePath, string? lockDirectory, TimeSpan timeout)
    {
        string directory = lockDirectory ?? Path.Combine(Path.GetTempPath(), "picollo-locks");
        Directory.CreateDirectory(directory);
        string key = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(Path.GetFullPath(baselinePath))), 0, 16);
        string lockPath = Path.Combine(directory, $"{Path.GetFileName(baselinePath)}.{key}.lock");
        try
        {
            return new BaselineFileLock(ExclusiveFile.Open(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, timeout));
        }
        catch (IOException ex) when (ex is not (DirectoryNotFoundException or PathTooLongException))
        {
            throw new TimeoutException(
                string.Create(CultureInfo.InvariantCulture, $"Another test or process held the lock of the baseline '{baselinePath}' ({lockPath}) for more than {timeout.TotalSeconds:0.#} s."),
                ex);
        }
    }

    public void Dispose() => _stream.Dispose();
}
