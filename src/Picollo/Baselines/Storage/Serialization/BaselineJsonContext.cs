using System.Text.Json.Serialization;

namespace Picollo.Baselines.Storage.Serialization;

/// <summary>Source-generated (reflection-free, trimming-safe) serialization of baseline files.</summary>
/// <remarks>
/// Committed and reviewed like the histogram JSON it embeds: "\n" line ends on every OS, two-space indents,
/// duplicate keys rejected, counter kinds as names.
/// </remarks>
[JsonSourceGenerationOptions(
    WriteIndented = true,
    IndentSize = 2,
    NewLine = "\n",
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    UseStringEnumConverter = true,
    AllowDuplicateProperties = false)]
[JsonSerializable(typeof(BaselineFileModel))]
[JsonSerializable(typeof(BaselineEntryModel))]
internal sealed partial class BaselineJsonContext : JsonSerializerContext;
