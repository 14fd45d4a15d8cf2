using System.Text.Json.Serialization;

namespace Picollo.Metrics.Serialization;

/// <summary>Source-generated (reflection-free, trimming-safe) serialization of <see cref="HdrHistogramJsonModel"/>.</summary>
/// <remarks>
/// The output is meant to be committed and reviewed: "\n" line ends on every OS, two-space indents,
/// one bucket per line. Duplicate fields are rejected rather than silently keeping the last one.
/// </remarks>
[JsonSourceGenerationOptions(
    WriteIndented = true,
    IndentSize = 2,
    NewLine = "\n",
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    AllowDuplicateProperties = false)]
[JsonSerializable(typeof(HdrHistogramJsonModel))]
internal sealed partial class HdrHistogramJsonContext : JsonSerializerContext;
