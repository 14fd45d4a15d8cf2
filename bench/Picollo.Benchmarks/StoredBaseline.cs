using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Measurement;

namespace Picollo.Benchmarks;

/// <summary>
/// Today's stored-baseline verdict, as the verdict experiments run it (issue 10): a baseline recorded once as update mode
/// records it (measured again until two runs agree on the floor), then each run judged against it by
/// <see cref="BaselineJudge"/> exactly as <c>ShouldNotRegress</c> judges it (a time regression fails only when a second
/// measurement confirms it). Shared by <c>verdicts</c> and <c>paired</c>.
/// </summary>
internal sealed class StoredBaseline
{
    private const string TestClass = "VerdictsBench";

    private readonly string _source;
    private readonly string _method;
    private readonly string _case;
    private readonly BaselineStoreOptions _judge;

    private StoredBaseline(string source, string method, string caseName, BaselineStoreOptions judge, BaselineJudgement recorded)
    {
        _source = source;
        _method = method;
        _case = caseName;
        _judge = judge;
        BaselinePath = recorded.Check.BaselinePath;
        Record = BaselineStore.Read(BaselinePath)!.Entries.Single().Record;
        Recording = string.Join(" | ", [.. recorded.Remeasurement is { } again ? [again] : Array.Empty<string>(), .. recorded.Notices]);
    }

    /// <summary>What the recording measured again and noticed (the steady moment, the machine's fast level), for the log.</summary>
    public string Recording { get; }

    /// <summary>The baseline file.</summary>
    public string BaselinePath { get; }

    /// <summary>The recorded entry.</summary>
    public BaselineRecord Record { get; }

    /// <summary>
    /// Records <paramref name="body"/> unchanged in <paramref name="folder"/> (one baseline file per body and mode; the
    /// memory of the machine's fast levels kept in the folder, as a user's machine keeps it in their cache).
    /// <paramref name="timeAlone"/>: measured as <see cref="VerdictBody.MeasureTime"/> measures it, the code whose arms
    /// change its time alone (verdicts); otherwise as <see cref="VerdictBody.Measure"/> (paired, ab).
    /// </summary>
    public static StoredBaseline Recorded(VerdictBody body, PerfOptions options, string modeName, string folder, bool timeAlone = false)
    {
        string source = Path.Combine(folder, "VerdictsBench.cs");
        // No variable of the bench's environment reaches the judgement, except the memory of the machine's fast levels, kept
        // for the bench's run in its own folder, as a user's machine keeps it in their cache.
        string memory = Path.Combine(folder, "speeds");
        var judge = new BaselineStoreOptions { GetEnvironmentVariable = name => name == MachineSpeedMemory.FolderVariable ? memory : null };

        // Recorded the way update mode records: measured again until two runs agree on the floor.
        BaselineJudgement recorded = BaselineJudge.Judge((timeAlone ? body.MeasureTime : body.Measure)(options, 1.0), source, TestClass, body.Name, modeName, judge with { UpdateBaselines = true });
        return new StoredBaseline(source, body.Name, modeName, judge, recorded);
    }

    /// <summary>The single measurement's verdicts, before any confirmation.</summary>
    public IReadOnlyList<CounterVerdict> Single(PerfResult result) =>
        BaselineComparer.Compare(BaselineStore.Read(BaselinePath), MachineFingerprint.Current, BaselineRecord.FromResult(result), _judge.VerdictPolicy);

    /// <summary>The test-level judgement, measuring again to confirm a time regression as <c>ShouldNotRegress</c> does.</summary>
    public BaselineJudgement Judge(PerfResult result) => BaselineJudge.Judge(result, _source, TestClass, _method, _case, _judge);
}
