using System.Text.Json.Serialization;

namespace Picollo.Reporting.Serialization;

/// <summary>Source-generated (reflection-free, trimming-safe) serialization of result files.</summary>
/// <remarks>
/// Named floating-point literals are allowed because a change from a zero baseline is infinite, and that is the
/// truth to report, not a reason to fail writing the file.
/// </remarks>
[JsonSourceGenerationOptions(
    WriteIndented = true,
    IndentSize = 2,
    NewLine = "\n",
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    UseStringEnumConverter = true,
    NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(PerfReportModel))]
[JsonSerializable(typeof(PerfComparisonModel))]
internal sealed partial class PerfReportJsonContext : JsonSerializerContext;
