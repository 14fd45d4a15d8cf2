using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Picollo.Text;

/// <summary>
/// Lays out JSON for files people review in pull requests (baselines): an object or array that holds only numbers,
/// strings and literals goes on one line, everything that nests is indented by two spaces per level, one member per
/// line. A reviewer reads a counter's statistics on one line instead of ten, and a re-recording changes a few lines
/// per counter (docs/TESTING.md, "The baseline file").
/// </summary>
/// <remarks>
/// The layout is a pure function of the serializer's compact output: the same document always gives the same text
/// (members in the order written, numbers as the serializer spelled them, "\n" line ends), so a file written twice
/// from the same data does not change. Strings are escaped only where JSON requires it (quotes, backslashes, control
/// characters): a base64 histogram keeps its '+' and a message its '≥', where the serializer's default escapes them
/// for HTML pages these files never enter.
/// </remarks>
internal static class ReviewableJson
{
    /// <summary>Lays out <paramref name="utf8Json"/> (any valid JSON document) as described on the type.</summary>
    /// <param name="utf8Json">The document, typically the serializer's compact output.</param>
    /// <returns>The laid-out text, without a final newline.</returns>
    public static string Format(ReadOnlySpan<byte> utf8Json)
    {
        var reader = new Utf8JsonReader(utf8Json);
        using JsonDocument document = JsonDocument.ParseValue(ref reader);
        var text = new StringBuilder(utf8Json.Length + (utf8Json.Length / 4));
        Write(text, document.RootElement, 0);
        return text.ToString();
    }

    private static void Write(StringBuilder text, JsonElement element, int depth)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object when HoldsOnlyScalars(element):
                WriteInlineObject(text, element);
                break;
            case JsonValueKind.Array when HoldsOnlyScalars(element):
                WriteInlineArray(text, element);
                break;
            case JsonValueKind.Object:
                text.Append('{');
                bool first = true;
                foreach (JsonProperty property in element.EnumerateObject())
                {
                    text.Append(first ? "\n" : ",\n");
                    first = false;
                    Indent(text, depth + 1);
                    AppendName(text, property);
                    Write(text, property.Value, depth + 1);
                }

                text.Append('\n');
                Indent(text, depth);
                text.Append('}');
                break;
            case JsonValueKind.Array:
                text.Append('[');
                bool firstItem = true;
                foreach (JsonElement item in element.EnumerateArray())
                {
                    text.Append(firstItem ? "\n" : ",\n");
                    firstItem = false;
                    Indent(text, depth + 1);
                    Write(text, item, depth + 1);
                }

                text.Append('\n');
                Indent(text, depth);
                text.Append(']');
                break;
            default:
                AppendScalar(text, element);
                break;
        }
    }

    // An empty object or array counts as scalar-only: "{}" and "[]" stay on their member's line.
    private static bool HoldsOnlyScalars(JsonElement container)
    {
        if (container.ValueKind == JsonValueKind.Object)
        {
            foreach (JsonProperty property in container.EnumerateObject())
            {
                if (property.Value.ValueKind is JsonValueKind.Object or JsonValueKind.Array)
                    return false;
            }

            return true;
        }

        foreach (JsonElement item in container.EnumerateArray())
        {
            if (item.ValueKind is JsonValueKind.Object or JsonValueKind.Array)
                return false;
        }

        return true;
    }

    private static void WriteInlineObject(StringBuilder text, JsonElement element)
    {
        text.Append('{');
        bool first = true;
        foreach (JsonProperty property in element.EnumerateObject())
        {
            text.Append(first ? " " : ", ");
            first = false;
            AppendName(text, property);
            AppendScalar(text, property.Value);
        }

        text.Append(first ? "}" : " }");
    }

    private static void WriteInlineArray(StringBuilder text, JsonElement element)
    {
        text.Append('[');
        bool first = true;
        foreach (JsonElement item in element.EnumerateArray())
        {
            if (!first)
                text.Append(", ");
            first = false;
            AppendScalar(text, item);
        }

        text.Append(']');
    }

    private static void AppendName(StringBuilder text, JsonProperty property) =>
        AppendString(text, property.Name).Append(": ");

    private static void AppendScalar(StringBuilder text, JsonElement element)
    {
        if (element.ValueKind == JsonValueKind.String)
            AppendString(text, element.GetString()!);
        else
            text.Append(element.GetRawText());
    }

    private static StringBuilder AppendString(StringBuilder text, string value) =>
        text.Append('"').Append(JsonEncodedText.Encode(value, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).Value).Append('"');

    private static void Indent(StringBuilder text, int depth) => text.Append(' ', depth * 2);
}
