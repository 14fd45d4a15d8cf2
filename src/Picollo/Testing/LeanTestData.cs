using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Picollo.Testing;

/// <summary>
/// A test case's data carried to a lean simulation worker (<see cref="LeanTestHost"/>) as text: values of the types attribute
/// data can hold (strings, numbers, booleans, characters, enums, null, and one-dimensional arrays of them), each with its
/// type, so the worker calls the method with equal values. Anything else is not carried: the test then runs in its test
/// framework's own worker.
/// </summary>
internal static class LeanTestData
{
    /// <summary>The data as JSON, or <see langword="null"/> when a value is of a type that is not carried.</summary>
    public static string? Write(IReadOnlyList<object?> data)
    {
        ArgumentNullException.ThrowIfNull(data);
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartArray();
            foreach (object? value in data)
            {
                if (!WriteValue(writer, value))
                    return null;
            }

            writer.WriteEndArray();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    /// <summary>Reads data written by <see cref="Write"/>; types are resolved among the loaded assemblies (enums).</summary>
    /// <exception cref="InvalidDataException">The text is not such data.</exception>
    public static object?[] Read(string json)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(json);
            return [.. document.RootElement.EnumerateArray().Select(ReadValue)];
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or FormatException or KeyNotFoundException
            or ArgumentException or OverflowException)
        {
            throw new InvalidDataException(PerfTestMessages.LeanDataUnreadable(e.Message), e);
        }
    }

    private static bool WriteValue(Utf8JsonWriter writer, object? value)
    {
        writer.WriteStartObject();
        if (value is null)
        {
            writer.WriteNull("v");
        }
        else if (value is Array array && value.GetType().GetElementType() is { } element && array.Rank == 1)
        {
            writer.WriteString("a", element.AssemblyQualifiedName);
            writer.WriteStartArray("v");
            foreach (object? item in array)
            {
                if (!WriteValue(writer, item))
                    return false;
            }

            writer.WriteEndArray();
        }
        else if (Scalar(value) is { } text)
        {
            writer.WriteString("t", value.GetType().AssemblyQualifiedName);
            writer.WriteString("v", text);
        }
        else
        {
            return false;
        }

        writer.WriteEndObject();
        return true;
    }

    // The invariant text of a value whose type round-trips through it; null for any other value.
    private static string? Scalar(object value) => value switch
    {
        string s => s,
        char c => ((int)c).ToString(CultureInfo.InvariantCulture),
        bool b => b ? "true" : "false",
        Enum e => Convert.ToInt64(e, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        float f => f.ToString("R", CultureInfo.InvariantCulture),
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        decimal m => m.ToString(CultureInfo.InvariantCulture),
        sbyte or byte or short or ushort or int or uint or long or ulong =>
            ((IFormattable)value).ToString(null, CultureInfo.InvariantCulture),
        _ => null,
    };

    private static object? ReadValue(JsonElement element)
    {
        JsonElement v = element.GetProperty("v");
        if (v.ValueKind == JsonValueKind.Null)
            return null;
        if (element.TryGetProperty("a", out JsonElement arrayType))
        {
            Type type = Resolve(arrayType.GetString()!);
            object?[] items = [.. v.EnumerateArray().Select(ReadValue)];
            var array = Array.CreateInstance(type, items.Length);
            for (int i = 0; i < items.Length; i++)
                array.SetValue(items[i], i);
            return array;
        }

        Type scalar = Resolve(element.GetProperty("t").GetString()!);
        string text = v.GetString()!;
        CultureInfo invariant = CultureInfo.InvariantCulture;
        return scalar.IsEnum ? Enum.ToObject(scalar, long.Parse(text, invariant))
            : scalar == typeof(string) ? text
            : scalar == typeof(char) ? (char)int.Parse(text, invariant)
            : scalar == typeof(bool) ? text == "true"
            : Convert.ChangeType(text, scalar, invariant);
    }

    private static Type Resolve(string name) =>
        Type.GetType(name, throwOnError: false) ?? throw new InvalidOperationException(PerfTestMessages.LeanTypeNotFound(name));
}
