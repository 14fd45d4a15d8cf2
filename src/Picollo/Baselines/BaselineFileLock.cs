using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Picollo.Baselines;

/// <summary>
/// An exclusive, cross-process lock for one baseline path: a lock file opened with <see cref="FileShare.None"/>.
/// </summary>
/// <remarks>
/// <para>
/// On Unix .NET implements <see cref="FileShare.None"/> with <c>flock(LOCK_EX | LOCK_NB)</c>, which conflicts per open
/// file description, so it excludes other threads of this process as well as other processes; on Windows it is a
/// sharing-mode lock with the same effect. A conflicting open throws <see cref="IOException"/>, and the lock is
/// retried with a small random back-off until the timeout. The kernel releases it when a process dies.
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
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (true)
        {
            try
            {
                return new BaselineFileLock(new FileStream(lockPath, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None));
            }
            catch (IOException) when (Environment.TickCount64 < deadline)
            {
                Thread.Sleep(Random.Shared.Next(2, 20));
            }
            catch (IOException ex)
            {
                throw new TimeoutException(
                    string.Create(CultureInfo.InvariantCulture, $"Another test or process held the lock of the baseline '{baselinePath}' ({lockPath}) for more than {timeout.TotalSeconds:0.#} s."),
                    ex);
            }
        }
    }

    public void Dispose() => _stream.Dispose();
}
