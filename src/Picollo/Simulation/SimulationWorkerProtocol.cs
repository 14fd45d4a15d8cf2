using System.Collections.Immutable;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Picollo.Measurement.Simulated;

namespace Picollo.Simulation;

/// <summary>
/// The protocol between a perf test's process and its simulation worker (docs/COUNTERS.md, "Simulated counters"): the
/// test's process starts its framework on the one test under callgrind with <see cref="FolderVariable"/> and
/// <see cref="TestVariable"/> set; the worker runs the test and, at each measurement with simulated counters (a region,
/// numbered from 0), waits for <c>go {region}</c> on its standard input, measures, and writes the region's file into the
/// folder (or its failure), written whole and renamed, so the test's process never reads half a file. The end of its
/// standard input ends the worker. A private format between two processes of the same Picollo.
/// </summary>
internal static class SimulationWorkerProtocol
{
    /// <summary>The folder of a simulation worker: callgrind's dumps and log, and the regions' files.</summary>
    public const string FolderVariable = "PICOLLO_SIMULATION_WORKER";

    /// <summary>The test a simulation worker measures (<see cref="TestKey"/>); the framework may run others beside it.</summary>
    public const string TestVariable = "PICOLLO_SIMULATION_TEST";

    /// <summary>The worker's folder in this process, or <see langword="null"/> when it is not a simulation worker.</summary>
    public static string? WorkerFolder(Func<string, string?> getEnvironmentVariable) =>
        getEnvironmentVariable(FolderVariable) is { Length: > 0 } folder ? folder : null;

    /// <summary>How a test is named to its worker: its class, method and case.</summary>
    public static string TestKey(string? typeName, string method, string? caseName) =>
        $"{typeName}.{method}" + (caseName is null ? string.Empty : "|" + caseName);

    /// <summary>Callgrind's <c>--callgrind-out-file</c> in a worker's folder.</summary>
    public static string CallgrindOutput(string folder) => Path.Combine(folder, "callgrind.out");

    /// <summary>Valgrind's <c>--log-file</c> in a worker's folder.</summary>
    public static string ValgrindLog(string folder) => Path.Combine(folder, "valgrind.log");

    /// <summary>The file of a region the worker measured.</summary>
    public static string RegionPath(string folder, int region) =>
        Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"region-{region}.json"));

    /// <summary>The file of a region whose measurement failed in the worker: what happened.</summary>
    public static string FailurePath(string folder, int region) =>
        Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"region-{region}.failure.txt"));

    /// <summary>The line that lets the worker measure <paramref name="region"/>.</summary>
    public static string GoLine(int region) => string.Create(CultureInfo.InvariantCulture, $"go {region}");

    /// <summary>Writes <paramref name="text"/> to <paramref name="path"/> whole: a temporary file renamed over it.</summary>
    public static void WriteWhole(string path, string text)
    {
        File.WriteAllText(path + ".tmp", text, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
        File.Move(path + ".tmp", path, overwrite: true);
    }

    /// <summary>A region's measurement as the worker writes it.</summary>
    public static string ToJson(SimulatedMeasurement measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteNumber("operationsPerSample", measurement.OperationsPerSample);
            writer.WriteNumber("wallMilliseconds", measurement.WallTime.TotalMilliseconds);
            if (measurement.Simulator is { } simulator)
            {
                writer.WriteStartObject("simulator");
                writer.WriteString("tool", simulator.Tool);
                writer.WriteString("architecture", simulator.Architecture);
                writer.WriteStartArray("isaExtensions");
                foreach (string isa in simulator.IsaExtensions)
                    writer.WriteStringValue(isa);
                writer.WriteEndArray();
                writer.WriteString("runtime", simulator.RuntimeVersion);
                writer.WriteBoolean("serverGC", simulator.IsServerGC);
                writer.WriteBoolean("concurrentGC", simulator.IsConcurrentGC);
                writer.WriteEndObject();
            }

            writer.WriteStartArray("counters");
            foreach (SimulatedCounterSamples counter in measurement.Counters)
            {
                writer.WriteStartObject();
                writer.WriteString("name", counter.Name);
                writer.WriteNumber("overhead", counter.Overhead);
                if (counter.UnavailableReason is { } reason)
                    writer.WriteString("unavailable", reason);
                writer.WriteStartArray("samples");
                foreach (ulong sample in counter.Samples)
                    writer.WriteNumberValue(sample);
                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteStartArray("notes");
            foreach (string note in measurement.Notes)
                writer.WriteStringValue(note);
            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    /// <summary>Reads a region's file.</summary>
    /// <param name="path">The file.</param>
    /// <returns>The measurement.</returns>
    /// <exception cref="InvalidDataException">The file is not a region's measurement.</exception>
    public static SimulatedMeasurement Read(string path)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllText(path, Encoding.UTF8));
            JsonElement root = document.RootElement;
            SimulatorInfo? simulator = root.TryGetProperty("simulator", out JsonElement s)
                ? new SimulatorInfo(
                    s.GetProperty("tool").GetString()!,
                    s.GetProperty("architecture").GetString()!,
                    [.. s.GetProperty("isaExtensions").EnumerateArray().Select(static e => e.GetString()!)],
                    s.GetProperty("runtime").GetString()!,
                    s.GetProperty("serverGC").GetBoolean(),
                    s.GetProperty("concurrentGC").GetBoolean())
                : null;
            ImmutableArray<SimulatedCounterSamples> counters =
            [
                .. root.GetProperty("counters").EnumerateArray().Select(static c => new SimulatedCounterSamples(
                    c.GetProperty("name").GetString()!,
                    [.. c.GetProperty("samples").EnumerateArray().Select(static v => v.GetUInt64())],
                    c.GetProperty("overhead").GetUInt64(),
                    c.TryGetProperty("unavailable", out JsonElement why) ? why.GetString() : null)),
            ];
            return new SimulatedMeasurement(
                root.GetProperty("operationsPerSample").GetInt64(),
                counters,
                simulator,
                [.. root.GetProperty("notes").EnumerateArray().Select(static n => n.GetString()!)],
                TimeSpan.FromMilliseconds(root.GetProperty("wallMilliseconds").GetDouble()));
        }
        catch (Exception e)
            when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException or IOException)
        {
            throw new InvalidDataException(SimulationMessages.RegionUnreadable(path, e.Message), e);
        }
    }
}
