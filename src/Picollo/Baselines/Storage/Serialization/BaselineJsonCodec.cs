using System.Globalization;
using System.Text.Json;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Metrics;
using Picollo.Metrics.Serialization;
using Picollo.Text;

namespace Picollo.Baselines.Storage.Serialization;

/// <summary>
/// Converts between <see cref="BaselineFile"/> and its JSON form, and turns every way the JSON can be wrong into a
/// <see cref="BaselineFormatException"/> naming the file, the JSON location and the fix.
/// </summary>
internal static class BaselineJsonCodec
{
    // HdrHistogram's V2 encoding holds at most five significant digits: 2^18 sub-buckets, a block size of 2^17.
    private const int MaxV2BlockSize = 131072;

    // What recordings use (the whole ulong range, 64-bit counts): left out of the file, and assumed when absent.
    private const ulong DefaultMinTrackableValue = 0;
    private const ulong DefaultMaxTrackableValue = ulong.MaxValue;

    public static string ToJson(BaselineFile file)
    {
        var entries = new SortedDictionary<string, BaselineEntryModel>(StringComparer.Ordinal);
        foreach (BaselineEntry entry in file.Entries)
            entries.Add(entry.Machine.Id, ToModel(entry));

        var model = new BaselineFileModel { Version = BaselineFile.FormatVersion, Entries = entries };

        // Laid out for review (a counter's statistics on one line, its histogram on another), and a final newline: editors
        // add one, and a file without it shows as changed in every diff.
        return ReviewableJson.Format(JsonSerializer.SerializeToUtf8Bytes(model, BaselineJsonContext.Default.BaselineFileModel)) + "\n";
    }

    /// <summary>The JSON of one entry: equal text means equal entries (used to tell pending received entries from stale ones).</summary>
    public static string EntryToJson(BaselineEntry entry) =>
        JsonSerializer.Serialize(ToModel(entry), BaselineJsonContext.Default.BaselineEntryModel);

    public static BaselineFile Parse(ReadOnlySpan<byte> utf8Json, string? filePath) =>
        FromModel(
            JsonReading.Deserialize(utf8Json, BaselineJsonContext.Default.BaselineFileModel, ex => Malformed(ex, filePath)), filePath);

    private static BaselineEntryModel ToModel(BaselineEntry entry)
    {
        MachineFingerprint m = entry.Machine;
        BaselineEntryModel model = RecordToModel(entry.Record);
        model.Machine = new BaselineMachineModel
        {
            CpuModel = m.CpuModel,
            Architecture = m.Architecture,
            IsaExtensions = [.. m.IsaExtensions],
            Pmu = m.HasPmu,
            LogicalCores = m.LogicalCores,
            Os = m.OperatingSystem,
            Kernel = m.KernelVersion,
            Runtime = m.RuntimeVersion,
            ServerGC = m.IsServerGC,
            ConcurrentGC = m.IsConcurrentGC,
            TscMHz = m.TscMegahertz,
            ClockHz = m.ClockHertz,
        };
        return model;
    }

    // A record's fields: an entry's without its machine.
    private static BaselineEntryModel RecordToModel(BaselineRecord record)
    {
        var counters = new SortedDictionary<string, BaselineCounterModel>(StringComparer.Ordinal);
        foreach (BaselineCounter counter in record.Counters)
        {
            PerOperationSummary perOperation = counter.PerOperation.Rounded();
            counters.Add(counter.Name, new BaselineCounterModel
            {
                Unit = counter.Unit,
                Kind = counter.Kind,
                OperationsPerSample = counter.OperationsPerSample,
                PerOperation = new BaselinePerOperationModel
                {
                    Samples = perOperation.Samples,
                    P0 = perOperation.P0,
                    P10 = perOperation.P10,
                    P25 = perOperation.P25,
                    P50 = perOperation.P50,
                    P90 = perOperation.P90,
                    P99 = perOperation.P99,
                    P100 = perOperation.P100,
                    Mean = perOperation.Mean,
                },
                Recording = counter.Recording is { } recording
                    ? new BaselineRecordingModel
                    {
                        Runs = recording.Runs,

                        // Four decimals of a relative drift (0.0042 = 0.42 %) and three of the detectable change: what a
                        // reviewer reads, and a re-recording of the same machine does not rewrite noise digits. A simulated
                        // counter's difference between processes is far smaller (0.00015 = 0.015 %): two significant digits.
                        Drift = counter.Kind == CounterKind.Simulated && recording.Drift is > 0 and < 0.001
                            ? Math.Round(recording.Drift, 1 - (int)Math.Floor(Math.Log10(recording.Drift)))
                            : Math.Round(recording.Drift, 4),
                        // Only for a recording that measured other processes: files of one process stay as they were.
                        Processes = recording.Processes > 1 || recording.Spread > 1 ? recording.Processes : null,
                        Spread = recording.Processes > 1 || recording.Spread > 1 ? Math.Round(recording.Spread, 3) : null,
                        Detects = recording.DetectableChange is { } r ? Math.Round(r, 3) : null,
                    }
                    : null,
                Histogram = ToHistogramModel(counter.Histogram),
            });
        }

        return new BaselineEntryModel
        {
            RecordedUtc = TruncateToSeconds(record.RecordedUtc),
            Options = new SortedDictionary<string, string>(record.Options.ToDictionary(), StringComparer.Ordinal),
            MachineSpeed = record.MachineSpeed is { } speed ? Math.Round(speed, 1) : null,
            AllocationSpeed = record.AllocationSpeed is { } allocation ? Math.Round(allocation, 2) : null,
            BranchSpeed = record.BranchSpeed is { } branch ? Math.Round(branch, 1) : null,
            // Only for a recording beside busy processes: its verdicts allow what their effect varies, not all of it.
            OtherProcessesCores = MachineLoad.IsBusy(record.OtherProcessesCores) ? Math.Round(record.OtherProcessesCores, 2) : null,
            Counters = counters,
        };
    }

    private static DateTime TruncateToSeconds(DateTime time)
    {
        DateTime utc = time.Kind == DateTimeKind.Local ? time.ToUniversalTime() : DateTime.SpecifyKind(time, DateTimeKind.Utc);
        return new DateTime(utc.Ticks - (utc.Ticks % TimeSpan.TicksPerSecond), DateTimeKind.Utc);
    }

    private static BaselineFile FromModel(BaselineFileModel? model, string? filePath)
    {
        if (model is null)
            throw Invalid(filePath, "$", "the document is null; expected an object with the fields version and entries.");

        int version = model.Version ?? throw Missing(filePath, "$", "version", "2");

        // Version 1 differs only in how it lays out the same fields (a line per histogram bucket): it reads as it is, and the
        // next write stores it as version 2.
        if (version is not (1 or BaselineFile.FormatVersion))
        {
            throw Invalid(filePath, "$.version", BaselineFileMessages.UnsupportedFormatVersion(version, BaselineFile.FormatVersion));
        }

        IDictionary<string, BaselineEntryModel> entryModels = model.Entries ?? throw Missing(filePath, "$", "entries", "{}");
        var entries = new List<BaselineEntry>(entryModels.Count);
        foreach ((string id, BaselineEntryModel entryModel) in entryModels)
        {
            string entryPath = $"$.entries['{id}']";
            MachineFingerprint machine = ReadMachine(
                entryModel.Machine ?? throw Missing(filePath, entryPath, "machine", "{ … }"), filePath, entryPath + ".machine");
            if (machine.Id != id)
                throw Invalid(filePath, entryPath, BaselineFileMessages.EntryKeyMismatch(machine.Id));

            BaselineRecord record = ReadRecord(entryModel, filePath, entryPath);

            // Entries written before the spread was stored held the records of other processes as "levels": they become the
            // spread (the fastest kept, the slowest as its ratio), and the next write stores them that way. A level that could
            // not join by today's rules (other exact counters, another machine speed) is dropped, as a recording would drop it.
            var levels = new List<BaselineRecord>(entryModel.Levels?.Count ?? 0) { record };
            for (int i = 0; i < (entryModel.Levels?.Count ?? 0); i++)
            {
                string levelPath = string.Create(CultureInfo.InvariantCulture, $"{entryPath}.levels[{i}]");
                BaselineEntryModel level = entryModel.Levels![i] ?? throw Invalid(
                    filePath, levelPath, "a process level is null; expected an object with recordedUtc, options and counters.");
                if (level.Machine is not null || level.Levels is not null)
                {
                    throw Invalid(
                        filePath,
                        levelPath,
                        "a process level has no machine and no levels of its own (it is measured on the entry's machine).");
                }

                levels.Add(ReadRecord(level, filePath, levelPath));
            }

            entries.Add(new BaselineEntry(machine, levels.Count == 1 ? record : TimeSpread.Combine(levels, VerdictPolicy.Default).Record));
        }

        return new BaselineFile(entries);
    }

    // The fields of a record: an entry's (beside its machine) or one of the process levels older files hold.
    private static BaselineRecord ReadRecord(BaselineEntryModel model, string? filePath, string path)
    {
        DateTime recorded = model.RecordedUtc ?? throw Missing(filePath, path, "recordedUtc", "\"2025-01-01T00:00:00Z\"");
        IDictionary<string, string> options = model.Options ?? throw Missing(filePath, path, "options", "{}");
        IDictionary<string, BaselineCounterModel> counterModels = model.Counters ?? throw Missing(filePath, path, "counters", "{}");
        var counters = new List<BaselineCounter>(counterModels.Count);
        foreach ((string name, BaselineCounterModel c) in counterModels)
        {
            string counterPath = $"{path}.counters['{name}']";
            string unit = c.Unit ?? throw Missing(filePath, counterPath, "unit", "\"ns\"");
            Counters.CounterKind kind = c.Kind ?? throw Missing(filePath, counterPath, "kind", "\"Software\"");
            double operations = c.OperationsPerSample ?? throw Missing(filePath, counterPath, "operationsPerSample", "1");
            if (!(operations >= 1))
            {
                throw Invalid(filePath, counterPath + ".operationsPerSample", string.Create(
                    CultureInfo.InvariantCulture,
                    $"{operations} is not a number of operations per sample: it must be at least 1."));
            }

            HdrHistogram histogram = ReadHistogram(c.Histogram, filePath, counterPath);
            BaselineCounter counter = c.PerOperation is { } p
                ? new BaselineCounter(name, unit, kind, histogram, operations, ReadPerOperation(p, filePath, counterPath + ".perOperation"))
                : BaselineCounter.FromHistogram(name, unit, kind, histogram, operations);
            counters.Add(c.Recording is { } r
                ? counter with { Recording = ReadRecording(r, filePath, counterPath + ".recording") }
                : counter);
        }

        double? speed = IsSpeed(model.MachineSpeed)
            ? model.MachineSpeed
            : throw Invalid(filePath, path + ".machineSpeed", "the machine speed is a positive number of nanoseconds.");
        double? allocationSpeed = IsSpeed(model.AllocationSpeed)
            ? model.AllocationSpeed
            : throw Invalid(filePath, path + ".allocationSpeed", "the allocation speed is a positive number of nanoseconds.");
        double? branchSpeed = IsSpeed(model.BranchSpeed)
            ? model.BranchSpeed
            : throw Invalid(filePath, path + ".branchSpeed", "the branch speed is a positive number of nanoseconds.");
        double others = model.OtherProcessesCores is not { } cores
            ? double.NaN
            : cores >= 0 && double.IsFinite(cores)
                ? cores
                : throw Invalid(filePath, path + ".otherProcessesCores", "the other processes' load is a number of cores, 0 or more.");
        DateTime utc = DateTime.SpecifyKind(recorded.ToUniversalTime(), DateTimeKind.Utc);
        return new BaselineRecord(counters, new Dictionary<string, string>(options, StringComparer.Ordinal), utc, speed)
        {
            AllocationSpeed = allocationSpeed,
            BranchSpeed = branchSpeed,
            OtherProcessesCores = others,
        };
    }

    // Absent, or a positive finite number of nanoseconds.
    private static bool IsSpeed(double? value) => value is null || (value > 0 && double.IsFinite(value.Value));

    private static MachineFingerprint ReadMachine(BaselineMachineModel m, string? filePath, string path)
    {
        int cores = m.LogicalCores ?? throw Missing(filePath, path, "logicalCores", "8");
        if (cores <= 0)
            throw Invalid(filePath, path + ".logicalCores", "the number of logical cores must be positive.");

        return new MachineFingerprint(
            m.CpuModel ?? throw Missing(filePath, path, "cpuModel", "\"AMD EPYC 7763 64-Core Processor\""),
            m.Architecture ?? throw Missing(filePath, path, "architecture", "\"X64\""),
            m.IsaExtensions ?? throw Missing(filePath, path, "isaExtensions", "[\"avx2\"]"),
            m.Pmu ?? throw Missing(filePath, path, "pmu", "false"),
            cores,
            m.Os ?? throw Missing(filePath, path, "os", "\"Linux\""),
            m.Kernel ?? throw Missing(filePath, path, "kernel", "\"6.18.0\""),
            m.Runtime ?? throw Missing(filePath, path, "runtime", "\"10.0.1\""),
            m.ServerGC ?? throw Missing(filePath, path, "serverGC", "false"),
            m.ConcurrentGC ?? throw Missing(filePath, path, "concurrentGC", "false"),
            m.TscMHz is null or > 0 ? m.TscMHz : throw Invalid(filePath, path + ".tscMHz", "the TSC rate in MHz must be positive."),
            m.ClockHz is null or > 0 ? m.ClockHz : throw Invalid(filePath, path + ".clockHz", "the clock rate in Hz must be positive."));
    }

    private static PerOperationSummary ReadPerOperation(BaselinePerOperationModel p, string? filePath, string path)
    {
        double Value(double? value, string field) => value is { } v && double.IsFinite(v) && v >= 0
            ? v
            : throw (value is null
                ? Missing(filePath, path, field, "0")
                : Invalid(filePath, path + "." + field, string.Create(
                    CultureInfo.InvariantCulture, $"{value} is not a count per operation: it must be a finite number of 0 or more.")));

        long samples = p.Samples is > 0
            ? p.Samples.Value
            : throw (p.Samples is null
                ? Missing(filePath, path, "samples", "1000")
                : Invalid(filePath, path + ".samples", "the number of samples must be positive."));
        return new PerOperationSummary(
            samples,
            Value(p.P0, "p0"),
            Value(p.P10, "p10"),
            Value(p.P25, "p25"),
            Value(p.P50, "p50"),
            Value(p.P90, "p90"),
            Value(p.P99, "p99"),
            Value(p.P100, "p100"),
            Value(p.Mean, "mean"),
            PerOperationSummary.RoundingPrecision);
    }

    private static RecordingQuality ReadRecording(BaselineRecordingModel r, string? filePath, string path)
    {
        int runs = r.Runs is >= 1
            ? r.Runs.Value
            : throw (r.Runs is null
                ? Missing(filePath, path, "runs", "2")
                : Invalid(filePath, path + ".runs", "the number of recording runs must be 1 or more."));
        double drift = r.Drift is { } d && d >= 0 && double.IsFinite(d)
            ? d
            : throw (r.Drift is null
                ? Missing(filePath, path, "drift", "0.004")
                : Invalid(filePath, path + ".drift", "the drift is a relative difference: a finite number of 0 or more."));
        int processes = r.Processes is null or >= 1
            ? r.Processes ?? 1
            : throw Invalid(filePath, path + ".processes", "the number of processes a recording measured must be 1 or more.");
        double spread = r.Spread is null || (r.Spread >= 1 && double.IsFinite(r.Spread.Value))
            ? r.Spread ?? 1
            : throw Invalid(
                filePath, path + ".spread", "the spread is the slowest recorded level over the fastest: a finite number of 1 or more.");
        return new RecordingQuality(runs, drift, r.Detects) { Processes = processes, Spread = spread };
    }

    // The counts as HdrHistogram's compressed V2 base64 (one line, readable by HdrHistogram's tools) when it holds them without
    // loss: layouts up to its five significant digits (block size 131072) and values up to long.MaxValue. Otherwise the
    // buckets, one "start": count pair each, which the layout puts on one line too. The range, storage and overflow fields
    // are written only when they differ from what every recording uses, so the line is the layout and the counts.
    private static BaselineHistogramModel ToHistogramModel(HdrHistogram histogram)
    {
        HdrHistogramJsonModel json = HdrHistogramJsonCodec.ToModel(histogram);
        bool encodable = histogram.Layout.BlockSize <= MaxV2BlockSize && json.Buckets!.All(b => b.Start <= long.MaxValue);
        return new BaselineHistogramModel
        {
            RelativeError = json.RelativeError,
            MinTrackableValue = json.MinTrackableValue == DefaultMinTrackableValue ? null : json.MinTrackableValue,
            MaxTrackableValue = json.MaxTrackableValue == DefaultMaxTrackableValue ? null : json.MaxTrackableValue,
            Storage = json.Storage == HdrHistogramJsonCodec.UInt64Storage ? null : json.Storage,
            OverflowCount = json.OverflowCount == 0 ? null : json.OverflowCount,
            HdrV2 = encodable ? histogram.ToHdrHistogramV2Base64() : null,
            Buckets = encodable ? null : json.Buckets,
        };
    }

    private static HdrHistogram ReadHistogram(BaselineHistogramModel? model, string? filePath, string counterPath)
    {
        string path = counterPath + ".histogram";
        try
        {
            if (model is null)
                throw Missing(filePath, counterPath, "histogram", "{ … }");
            if (model.HdrV2 is not null && model.Buckets is not null)
                throw Invalid(filePath, path, "it holds both hdrV2 and buckets; keep one (hdrV2 is what Picollo writes).");

            return HdrHistogramJsonCodec.FromModel(new HdrHistogramJsonModel
            {
                RelativeError = model.RelativeError,
                MinTrackableValue = model.MinTrackableValue ?? DefaultMinTrackableValue,
                MaxTrackableValue = model.MaxTrackableValue ?? DefaultMaxTrackableValue,
                Storage = model.Storage ?? HdrHistogramJsonCodec.UInt64Storage,
                OverflowCount = model.OverflowCount ?? 0,
                Buckets = model.HdrV2 is { } v2 && model.RelativeError is { } error ? Rebin(v2, new HdrBuckets(error)) : model.Buckets,
            });
        }
        catch (HdrHistogramFormatException ex)
        {
            // The histogram's own paths start at its root ("$.buckets['7']"): re-root them at the counter. Errors of the V2
            // text have no path of their own: they are the hdrV2 field's.
            string where = ex.Path is { Length: > 0 } p && p[0] == '$'
                ? path + p[1..]
                : path + (model?.HdrV2 is null ? string.Empty : ".hdrV2");
            throw new BaselineFormatException(
                BaselineFileMessages.InvalidFile(filePath, where, ex.Message), filePath, where, null, null, ex);
        }
    }

    // The V2 decoder gives HdrHistogram's layout, as fine as or finer than the file's: every decoded bucket lies inside one
    // bucket of the file's layout (both cut the values at powers of two), so adding the counts up by that bucket's start
    // restores the histogram that was written, count for count.
    private static List<HdrJsonBucket> Rebin(string hdrV2, HdrBuckets layout)
    {
        HdrHistogram decoded = HdrHistogram.FromHdrHistogramV2Base64(hdrV2);
        var counts = new SortedDictionary<ulong, ulong>();
        foreach (HdrBucket bucket in decoded.BucketsWithValues)
        {
            ulong start = layout.GetBucketStart(layout.GetLogicalIndexForValue(bucket.Start));
            counts[start] = counts.GetValueOrDefault(start) + bucket.Count;
        }

        return [.. counts.Select(c => new HdrJsonBucket(c.Key, c.Value))];
    }

    private static BaselineFormatException Malformed(JsonException ex, string? filePath) => new(
        BaselineFileMessages.InvalidFile(filePath, JsonReading.Location(ex), JsonReading.Detail(ex)),
        filePath,
        ex.Path,
        ex.LineNumber + 1,
        ex.BytePositionInLine,
        ex);

    private static BaselineFormatException Missing(string? filePath, string path, string field, string example) =>
        Invalid(filePath, path, BaselineFileMessages.MissingField(field, example));

    private static BaselineFormatException Invalid(string? filePath, string path, string problem) =>
        new(BaselineFileMessages.InvalidFile(filePath, path, problem), filePath, path, null, null, null);
}
