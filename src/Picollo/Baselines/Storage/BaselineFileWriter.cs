using System.Text;
using Picollo.Text;

namespace Picollo.Baselines.Storage;

/// <summary>
/// Writes a baseline's files so that nothing is ever half-written, and turns a folder that refuses a write into a sentence
/// with the folder, the reason and the fix (docs/ARCHITECTURE.md, "Files").
/// </summary>
internal static class BaselineFileWriter
{
    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Writes <paramref name="content"/> to a hidden temporary file beside <paramref name="path"/>, then renames it over
    /// the target: a reader never sees half a file.</summary>
    /// <param name="path">The target.</param>
    /// <param name="content">The text, written as UTF-8 without a byte-order mark.</param>
    public static void WriteAtomically(string path, string content)
    {
        string directory = Path.GetDirectoryName(path)!;
        Directory.CreateDirectory(directory);
        string temp = Path.Combine(directory, $".{Path.GetFileName(path)}.{Guid.NewGuid():N}.tmp");
        try
        {
            using (var stream = new FileStream(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                stream.Write(s_utf8.GetBytes(content));
                stream.Flush(flushToDisk: true);
            }

            File.Move(temp, path, overwrite: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            TryDelete(temp);
            throw NamingTheTarget(e, temp, path);
        }
        catch
        {
            TryDelete(temp);
            throw;
        }
    }

    // The runtime's message names the file it failed to open, our hidden temporary one; the user knows the target. The
    // same exception type, so WriteFailure still tells a folder that is missing from one that is not writable.
    private static Exception NamingTheTarget(Exception e, string temp, string path)
    {
        string message = e.Message.Replace(temp, path, StringComparison.Ordinal);
        return e switch
        {
            DirectoryNotFoundException => new DirectoryNotFoundException(message, e),
            UnauthorizedAccessException => new UnauthorizedAccessException(message, e),
            _ => new IOException(message, e.HResult),
        };
    }

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Nothing was created there (a read-only folder), or it goes with the folder: the write's own failure is what
            // the user needs to read.
        }
    }

    // Runs a write; a folder that cannot take it becomes a sentence with the reason and the fix, never an exception
    // naming a hidden temporary file. WriteAtomically leaves nothing half-written behind.
    /// <summary>Runs <paramref name="write"/>; a folder that cannot take it becomes the sentence of <see cref="WriteFailure"/>.</summary>
    /// <param name="write">The write.</param>
    /// <param name="action">What it does, e.g. <c>write the received file</c>.</param>
    /// <param name="path">The file.</param>
    /// <returns>The sentence, or <see langword="null"/> when it was written.</returns>
    public static string? TryWrite(Action write, string action, string path)
    {
        try
        {
            write();
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or TimeoutException)
        {
            return WriteFailure(action, path, e);
        }
    }

    /// <summary>The sentence for a baseline folder that could not be written: what, where, why, and the fix.</summary>
    /// <param name="action">What was attempted, e.g. <c>write the received file</c>.</param>
    /// <param name="path">The file.</param>
    /// <param name="e">The failure.</param>
    /// <returns>One sentence.</returns>
    public static string WriteFailure(string action, string path, Exception e)
    {
        string folder = Path.GetDirectoryName(path) ?? path;
        string reason = e switch
        {
            DirectoryNotFoundException => $"the folder {folder} does not exist",
            UnauthorizedAccessException => $"the folder {folder} is not writable for this user",
            IOException when e.HResult == ReadOnlyFileSystem =>
                $"the folder {folder} is on a read-only file system (a read-only mount or volume)",
            TimeoutException => e.Message,
            _ => Sentences.Unended(e.Message),
        };
        return BaselineFileMessages.CouldNotWrite(action, path, reason);
    }

    // EROFS: the runtime puts the errno of a failed open in the IOException's HResult on Linux and macOS.
    private const int ReadOnlyFileSystem = 30;
}
