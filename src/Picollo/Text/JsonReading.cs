using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace Picollo.Text;

/// <summary>
/// What every reader of Picollo's JSON files (histograms, baselines) does the same way: skip a byte order mark, turn a
/// serializer exception into the caller's own format exception, and say where the reader stopped in words a person
/// can follow (the JSON path, the line and the byte) instead of the serializer's CLR type names.
/// </summary>
internal static class JsonReading
{
    private static ReadOnlySpan<byte> Utf8ByteOrderMark => [0xEF, 0xBB, 0xBF];

    /// <summary>Deserializes UTF-8 JSON with a source-generated contract; a leading byte order mark is skipped.</summary>
    /// <param name="utf8Json">The document.</param>
    /// <param name="typeInfo">The source-generated contract of the model.</param>
    /// <param name="malformed">Turns the serializer's exception into the exception to throw (with the file and advice).</param>
    /// <returns>The model, or <see langword="null"/> for a document that is the literal <c>null</c>.</returns>
    public static T? Deserialize<T>(ReadOnlySpan<byte> utf8Json, JsonTypeInfo<T> typeInfo, Func<JsonException, Exception> malformed)
    {
        // Editors on Windows save UTF-8 with a byte order mark, which the JSON reader rejects as a token.
        if (utf8Json.StartsWith(Utf8ByteOrderMark))
            utf8Json = utf8Json[Utf8ByteOrderMark.Length..];

        try
        {
            return JsonSerializer.Deserialize(utf8Json, typeInfo);
        }
        catch (JsonException ex)
        {
            throw malformed(ex);
        }
    }

    /// <summary>Where the reader stopped: <c>$.path (line 3, after byte 7)</c>, lines counted from 1.</summary>
    /// <param name="ex">The serializer's exception.</param>
    /// <returns>The location.</returns>
    /// <remarks>
    /// BytePositionInLine counts the bytes of the line consumed when the error was found, so the offending token ends at or just before it.
    /// </remarks>
    public static string Location(JsonException ex)
    {
        ArgumentNullException.ThrowIfNull(ex);
        return ex.LineNumber is { } line && ex.BytePositionInLine is { } position
            ? string.Create(CultureInfo.InvariantCulture, $"{ex.Path ?? "$"} (line {line + 1}, after byte {position})")
            : ex.Path ?? "$";
    }

    /// <summary>
    /// The serializer's message without the location suffix it ends with (" Path: … | LineNumber: … | BytePositionInLine: ….").
    /// </summary>
    /// <param name="ex">The serializer's exception.</param>
    /// <returns>The message, to be stated after <see cref="Location"/>.</returns>
    public static string Detail(JsonException ex)
    {
        ArgumentNullException.ThrowIfNull(ex);
        int suffix = ex.Message.IndexOf(" Path: ", StringComparison.Ordinal);
        return suffix > 0 ? ex.Message[..suffix] : ex.Message;
    }
}
