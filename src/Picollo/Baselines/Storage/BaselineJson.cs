using System.Text;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage.Serialization;

namespace Picollo.Baselines.Storage;

/// <summary>
/// A baseline file's committed JSON form, read and written (docs/ARCHITECTURE.md, "Baselines and verdicts"): the records
/// are plain data, and this is where they meet the file format.
/// </summary>
internal static class BaselineJson
{
    /// <summary>Writes the committed JSON form (BaselineJsonCodec).</summary>
    /// <param name="file">The file.</param>
    /// <returns>The JSON text, ending with "\n".</returns>
    public static string ToJson(this BaselineFile file) => BaselineJsonCodec.ToJson(file);

    /// <summary>Reads the JSON of <see cref="ToJson(BaselineFile)"/>.</summary>
    /// <param name="json">The JSON text.</param>
    /// <param name="filePath">The file it came from, named in errors.</param>
    /// <returns>The file.</returns>
    /// <exception cref="BaselineFormatException">The JSON is malformed or a field is missing or invalid; the message
    /// gives the file, JSON path, line and byte.</exception>
    public static BaselineFile Parse(string json, string? filePath = null)
    {
        ArgumentNullException.ThrowIfNull(json);
        return BaselineJsonCodec.Parse(Encoding.UTF8.GetBytes(json), filePath);
    }

    /// <summary>Reads the UTF-8 JSON of <see cref="ToJson(BaselineFile)"/>; a leading byte order mark is skipped.</summary>
    /// <param name="utf8Json">The UTF-8 JSON.</param>
    /// <param name="filePath">The file it came from, named in errors.</param>
    /// <returns>The file.</returns>
    /// <exception cref="BaselineFormatException">The JSON is not a valid baseline file.</exception>
    public static BaselineFile Parse(ReadOnlySpan<byte> utf8Json, string? filePath = null) => BaselineJsonCodec.Parse(utf8Json, filePath);

    /// <summary>Reads a baseline file.</summary>
    /// <param name="path">The baseline path.</param>
    /// <returns>The file, or <see langword="null"/> when it does not exist.</returns>
    /// <exception cref="BaselineFormatException">The file is not a valid baseline; the message names it and the JSON position.</exception>
    public static BaselineFile? Read(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (FileNotFoundException)
        {
            return null;
        }
        catch (DirectoryNotFoundException)
        {
            return null;
        }

        return BaselineJson.Parse(bytes, Path.GetFullPath(path));
    }
}
