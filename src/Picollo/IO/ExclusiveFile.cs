namespace Picollo.IO;

/// <summary>Opens a file exclusively across threads and processes, waiting while someone else has it open that way.</summary>
/// <remarks>
/// On Unix .NET implements <see cref="FileShare.None"/> with <c>flock(LOCK_EX | LOCK_NB)</c>, which conflicts per open
/// file description, so it excludes other threads of this process as well as other processes; on Windows it is a
/// sharing-mode lock with the same effect. A conflicting open throws <see cref="IOException"/> and is retried after a
/// small random back-off until the timeout. The kernel releases the lock when a process dies.
/// </remarks>
internal static class ExclusiveFile
{
    /// <summary>Opens <paramref name="path"/> with <see cref="FileShare.None"/>, retrying while another holder has it.</summary>
    /// <param name="path">The file.</param>
    /// <param name="mode">How to open it.</param>
    /// <param name="access">The access wanted.</param>
    /// <param name="timeout">How long to keep retrying.</param>
    /// <returns>The open, exclusively held stream.</returns>
    /// <exception cref="IOException">
    /// Still held by someone else after <paramref name="timeout"/> (the last attempt's exception), or an error no retry can
    /// mend (a missing directory, a path too long): thrown at once.
    /// </exception>
    /// <exception cref="UnauthorizedAccessException">The file cannot be opened for <paramref name="access"/>.</exception>
    public static FileStream Open(string path, FileMode mode, FileAccess access, TimeSpan timeout)
    {
        long deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        while (true)
        {
            try
            {
                return new FileStream(path, mode, access, FileShare.None);
            }
            catch (IOException e) when (e is not (DirectoryNotFoundException or PathTooLongException) && Environment.TickCount64 < deadline)
            {
                Thread.Sleep(Random.Shared.Next(2, 20));
            }
        }
    }
}
