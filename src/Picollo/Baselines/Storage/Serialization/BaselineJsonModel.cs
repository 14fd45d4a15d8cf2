using System.Text.Json.Serialization;
using Picollo.Baselines.Records;
using Picollo.Counters;
using Picollo.Metrics.Serialization;

namespace Picollo.Baselines.Storage.Serialization;

// The JSON shapes of a baseline file. Members are nullable so that a missing field is reported by the codec
// with its JSON path and a fix rather than by the serializer naming these internal types. Maps are written
// from SortedDictionary instances with the ordinal comparer, so keys come out sorted on every machine.

/// <summary>The whole file: a format version and one entry per machine id.</summary>
internal sealed class BaselineFileModel
{
    [JsonPropertyOrder(0)]
    public int? Version { get; set; }

    [JsonPropertyOrder(1)]
    public IDictionary<string, BaselineEntryModel>? Entries { get; set; }
}

/// <summary>One machine's entry; also the shape of one of its process levels, which has no machine and no levels of its own.</summary>
internal sealed class BaselineEntryModel
{
    [JsonPropertyOrder(0)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public BaselineMachineModel? Machine { get; set; }

    [JsonPropertyOrder(1)]
    public DateTime? RecordedUtc { get; set; }

    [JsonPropertyOrder(2)]
    public IDictionary<string, string>? Options { get; set; }

    // How fast the machine ran at recording (ns per 1,000 steps of the reference loop); absent in older entries.
    [JsonPropertyOrder(3)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? MachineSpeed { get; set; }

    // How fast the process allocated at recording (ns per small allocation); only for bodies that allocate.
    [JsonPropertyOrder(4)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? AllocationSpeed { get; set; }

    // How fast branchy code ran at recording (ns per 1,000 characters of the reference word count); absent in older entries.
    [JsonPropertyOrder(5)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? BranchSpeed { get; set; }

    // How many cores other processes kept busy while the kept measurement ran; only for an entry recorded beside them.
    [JsonPropertyOrder(6)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? OtherProcessesCores { get; set; }

    // Last: the counters are the long part, the short facts stay on top.
    [JsonPropertyOrder(7)]
    public IDictionary<string, BaselineCounterModel>? Counters { get; set; }

    // Recordings of other processes at another time level, as files written before the spread was stored held them; read
    // into the spread (TimeSpread), never written.
    [JsonPropertyOrder(8)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IList<BaselineEntryModel>? Levels { get; set; }
}

/// <summary>The fields of <see cref="MachineFingerprint"/>.</summary>
internal sealed class BaselineMachineModel
{
    [JsonPropertyOrder(0)]
    public string? CpuModel { get; set; }

    [JsonPropertyOrder(1)]
    public string? Architecture { get; set; }

    [JsonPropertyOrder(2)]
    public IList<string>? IsaExtensions { get; set; }

    [JsonPropertyOrder(3)]
    public bool? Pmu { get; set; }

    [JsonPropertyOrder(4)]
    public int? LogicalCores { get; set; }

    [JsonPropertyOrder(5)]
    public string? Os { get; set; }

    [JsonPropertyOrder(6)]
    public string? Kernel { get; set; }

    [JsonPropertyOrder(7)]
    public string? Runtime { get; set; }

    [JsonPropertyOrder(8)]
    public bool? ServerGC { get; set; }

    [JsonPropertyOrder(9)]
    public bool? ConcurrentGC { get; set; }

    // Absent in entries written before the TSC rate was recorded (their id does not include it).
    [JsonPropertyOrder(10)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? TscMHz { get; set; }

    // Only on a machine without a TSC rate, where the portable clock measures time (MachineFingerprint.ClockHertz).
    [JsonPropertyOrder(11)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? ClockHz { get; set; }
}

/// <summary>One counter: what it is, the numbers a reviewer reads, and the histogram the verdict uses.</summary>
internal sealed class BaselineCounterModel
{
    [JsonPropertyOrder(0)]
    public string? Unit { get; set; }

    [JsonPropertyOrder(1)]
    public CounterKind? Kind { get; set; }

    [JsonPropertyOrder(2)]
    public double? OperationsPerSample { get; set; }

    // The exact per-operation statistics verdicts compare (and reviewers read). Absent in files written before they were
    // stored: the codec then takes them from the histogram, within its precision.
    [JsonPropertyOrder(3)]
    public BaselinePerOperationModel? PerOperation { get; set; }

    // How steady the recording was; absent for exact counters and for entries written before recordings were checked.
    [JsonPropertyOrder(4)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public BaselineRecordingModel? Recording { get; set; }

    [JsonPropertyOrder(5)]
    public BaselineHistogramModel? Histogram { get; set; }
}

/// <summary>
/// A counter's histogram: the fields of <see cref="HdrHistogramJsonModel"/> (version 2 leaves out the range, storage and
/// overflow when they are the defaults every recording uses: 0 to ulong.MaxValue, "uint64", 0), then the counts either as
/// HdrHistogram's compressed V2 base64 (version 2) or as buckets keyed by their start (version 1, and histograms the V2
/// encoding cannot hold without loss).
/// </summary>
internal sealed class BaselineHistogramModel
{
    [JsonPropertyOrder(0)]
    public double? RelativeError { get; set; }

    [JsonPropertyOrder(1)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public ulong? MinTrackableValue { get; set; }

    [JsonPropertyOrder(2)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public ulong? MaxTrackableValue { get; set; }

    [JsonPropertyOrder(3)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Storage { get; set; }

    [JsonPropertyOrder(4)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public ulong? OverflowCount { get; set; }

    // HdrHistogram's compressed V2 encoding (a log line's base64, "HISTF…"), which HdrHistogram's own tools decode.
    [JsonPropertyOrder(5)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? HdrV2 { get; set; }

    [JsonPropertyOrder(6)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    [JsonConverter(typeof(HdrJsonBucketsConverter))]
    public IReadOnlyList<HdrJsonBucket>? Buckets { get; set; }
}

/// <summary>How steady a counter's recording was (<see cref="RecordingQuality"/>).</summary>
internal sealed class BaselineRecordingModel
{
    [JsonPropertyOrder(0)]
    public int? Runs { get; set; }

    [JsonPropertyOrder(1)]
    public double? Drift { get; set; }

    // The processes the recording measured, and the slowest level among them over the fastest (RecordingQuality); absent in
    // files written before recordings measured other processes (1 each).
    [JsonPropertyOrder(2)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public int? Processes { get; set; }

    [JsonPropertyOrder(3)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? Spread { get; set; }

    // For review: the smallest change later verdicts detect, as the policy stood; recomputed by every verdict.
    [JsonPropertyOrder(4)]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public double? Detects { get; set; }
}

/// <summary>
/// A counter's per-operation statistics, rounded to <see cref="PerOperationSummary.SignificantDigits"/> significant
/// digits.
/// </summary>
internal sealed class BaselinePerOperationModel
{
    [JsonPropertyOrder(0)]
    public long? Samples { get; set; }

    [JsonPropertyOrder(1)]
    public double? P0 { get; set; }

    [JsonPropertyOrder(2)]
    public double? P10 { get; set; }

    [JsonPropertyOrder(3)]
    public double? P25 { get; set; }

    [JsonPropertyOrder(4)]
    public double? P50 { get; set; }

    [JsonPropertyOrder(5)]
    public double? P90 { get; set; }

    [JsonPropertyOrder(6)]
    public double? P99 { get; set; }

    [JsonPropertyOrder(7)]
    public double? P100 { get; set; }

    [JsonPropertyOrder(8)]
    public double? Mean { get; set; }
}
