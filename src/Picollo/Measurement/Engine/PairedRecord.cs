using System.Text;
using System.Text.Json;
using Picollo.Counters;

namespace Picollo.Measurement.Engine;

/// <summary>
/// What a <c>picollo ab</c> worker hands the tool for one measurement (<see cref="PairedPeer"/>): the key, whether it
/// was paired, and per counter its samples in order (sample k of a paired measurement was taken in the tool's pair k),
/// or a test's failure. A private format between a worker and the tool of the same version, written as JSON.
/// </summary>
/// <param name="Kind">
/// <c>measurement</c>, <c>relative</c> (a comparison inside one build), <c>failure</c> or <c>skipped</c> (nothing measured).
/// </param>
/// <param name="Side"><c>base</c> or <c>head</c>.</param>
/// <param name="Test">The test's display name.</param>
/// <param name="Key">The measurement's key (the test and its order in it); empty for a failure.</param>
/// <param name="IsPaired">Whether the other side measured beside it.</param>
/// <param name="OperationsPerSample">Operations per sample.</param>
/// <param name="Counters">The counters.</param>
/// <param name="Notes">The run's notes.</param>
/// <param name="Message">A failure's message or a skip's reason; <see langword="null"/> for a measurement.</param>
internal sealed record PairedRecord(
    string Kind, string Side, string Test, string Key, bool IsPaired, long OperationsPerSample,
    IReadOnlyList<PairedRecordCounter> Counters, IReadOnlyList<string> Notes, string? Message)
{
    /// <summary>
    /// Whether the measurement ran the body's final code (<see cref="PerfRunInfo.RanFinalCode"/>); the tool sets aside a
    /// pair in which either side did not, and <see cref="Notes"/> say why.
    /// </summary>
    public bool RanFinalCode { get; init; } = true;

    /// <summary>A measurement as JSON.</summary>
    internal static string Json(PairedTurn turn, string side, PerfResult result) => Write(writer =>
    {
        writer.WriteString("kind", "measurement");
        writer.WriteString("side", side);
        writer.WriteString("test", turn.Test);
        writer.WriteString("key", turn.Key);
        writer.WriteBoolean("paired", turn.IsPaired);
        writer.WriteBoolean("final", result.Run.RanFinalCode);
        writer.WriteNumber("operationsPerSample", result.OperationsPerSample);
        writer.WriteStartArray("counters");
        foreach (CounterResult counter in result.Counters)
        {
            writer.WriteStartObject();
            writer.WriteString("name", counter.Name);
            writer.WriteString("unit", counter.Unit);
            writer.WriteString("kind", counter.Kind.ToString());
            if (counter.UnavailableReason is { } reason)
                writer.WriteString("unavailable", reason);
            if (counter.OperationsPerSample != result.OperationsPerSample)
                writer.WriteNumber("operationsPerSample", counter.OperationsPerSample);
            writer.WriteStartArray("samples");
            foreach (ulong sample in counter.Samples)
                writer.WriteNumberValue(sample);
            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteStartArray("notes");
        foreach (string note in result.Run.Notes)
            writer.WriteStringValue(note);
        writer.WriteEndArray();
    });

    /// <summary>A comparison inside one build (<c>Perf.Compare</c>), which the tool does not pair, as JSON.</summary>
    internal static string RelativeJson(string test, string side) => Write(writer =>
    {
        writer.WriteString("kind", "relative");
        writer.WriteString("side", side);
        writer.WriteString("test", test);
    });

    /// <summary>A test's failure as JSON.</summary>
    internal static string FailureJson(string test, string side, string message) => Write(writer =>
    {
        writer.WriteString("kind", "failure");
        writer.WriteString("side", side);
        writer.WriteString("test", test);
        writer.WriteString("message", message);
    });

    /// <summary>A test that measured nothing on this side, and why, as JSON.</summary>
    internal static string SkippedJson(string test, string side, string reason) => Write(writer =>
    {
        writer.WriteString("kind", "skipped");
        writer.WriteString("side", side);
        writer.WriteString("test", test);
        writer.WriteString("message", reason);
    });

    /// <summary>Reads a record a worker wrote.</summary>
    /// <param name="path">The file.</param>
    /// <returns>The record.</returns>
    /// <exception cref="InvalidDataException">The file is not a worker's record.</exception>
    public static PairedRecord Read(string path)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllText(path, Encoding.UTF8));
            JsonElement root = document.RootElement;
            var counters = new List<PairedRecordCounter>();
            if (root.TryGetProperty("counters", out JsonElement list))
            {
                foreach (JsonElement c in list.EnumerateArray())
                {
                    ulong[] samples = [.. c.GetProperty("samples").EnumerateArray().Select(static s => s.GetUInt64())];
                    counters.Add(new PairedRecordCounter(
                        c.GetProperty("name").GetString()!, c.GetProperty("unit").GetString()!,
                        Enum.Parse<CounterKind>(c.GetProperty("kind").GetString()!),
                        c.TryGetProperty("unavailable", out JsonElement why) ? why.GetString() : null, samples)
                    {
                        OperationsPerSample = c.TryGetProperty("operationsPerSample", out JsonElement own) ? own.GetInt64() : null,
                    });
                }
            }

            return new PairedRecord(
                root.GetProperty("kind").GetString()!, root.GetProperty("side").GetString()!, root.GetProperty("test").GetString()!,
                root.TryGetProperty("key", out JsonElement key) ? key.GetString()! : string.Empty,
                root.TryGetProperty("paired", out JsonElement paired) && paired.GetBoolean(),
                root.TryGetProperty("operationsPerSample", out JsonElement ops) ? ops.GetInt64() : 0,
                counters,
                root.TryGetProperty("notes", out JsonElement notes) ? [.. notes.EnumerateArray().Select(static n => n.GetString()!)] : [],
                root.TryGetProperty("message", out JsonElement message) ? message.GetString() : null)
            {
                RanFinalCode = !root.TryGetProperty("final", out JsonElement final) || final.GetBoolean(),
            };
        }
        catch (Exception e)
            when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException or ArgumentException)
        {
            throw new InvalidDataException(MeasurementMessages.AbRecordUnreadable(path, e.Message), e);
        }
    }

    private static string Write(Action<Utf8JsonWriter> body)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            body(writer);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }
}
