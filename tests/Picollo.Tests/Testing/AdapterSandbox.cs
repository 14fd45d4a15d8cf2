using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Tests.Baselines;
using Picollo.Tests.Support;

namespace Picollo.Tests.Testing;

/// <summary>
/// Points the process-wide baseline options at a temporary folder while an acceptance test runs sample perf tests: their
/// baselines, received files and reports go there, never beside the sample sources. Process-wide, so its users run in
/// the non-parallel measurement group, or in <see cref="SimulationAdapterGroup"/> (parallel, but no parallel test class
/// reads the baseline options' default; the measurement group starts after them all).
/// </summary>
internal sealed class AdapterSandbox : IDisposable
{
    private readonly BaselineStoreOptions _saved = BaselineStoreOptions.AssemblyDefault;
    private readonly TempDirectory _temp = new();

    public AdapterSandbox(bool update = false) => Use(update);

    /// <summary>Where the baselines are.</summary>
    public string Baselines => _temp.Combine("baselines");

    /// <summary>Where the reports are.</summary>
    public string Results => _temp.Combine("results");

    /// <summary>Switches update mode on or off.</summary>
    public void Use(bool update)
    {
        Directory.CreateDirectory(Baselines);
        BaselineStoreOptions.AssemblyDefault = new BaselineStoreOptions
        {
            BaselineDirectory = Baselines,
            UpdateBaselines = update,
            GetEnvironmentVariable = TestEnvironment.Local(_temp),

            // The sample assemblies run in this process, so there are no fresh processes; no more measurements either.
            RecordingProcesses = 0,
        };
    }

    /// <summary>
    /// Whether the baseline <paramref name="file"/> holds time (tsc): a recording none of whose measurements ran the body's
    /// final code leaves it out (issue 24), which a suite keeping the JIT busy can cause.
    /// </summary>
    public bool RecordedTime(string file) =>
        BaselineStore.Read(Path.Combine(Baselines, file)) is { } baseline && baseline.Entries.Any(static e => e.Record.Find("tsc") is not null);

    public string[] BaselineFiles() => [.. Directory.GetFiles(Baselines).Select(Path.GetFileName).Order(StringComparer.Ordinal)!];

    public void Dispose()
    {
        BaselineStoreOptions.AssemblyDefault = _saved;
        _temp.Dispose();
    }
}
