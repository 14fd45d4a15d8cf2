using System.Globalization;
using Picollo.Baselines.Judging;

namespace Picollo.Baselines;

/// <summary>How a <see cref="BaselineStore"/> judges and writes.</summary>
public sealed record BaselineStoreOptions
{
    /// <summary>
    /// The environment variable that switches update mode on: <c>1</c> or <c>true</c> records each baseline entry anew;
    /// <c>add</c> keeps this machine's entry and adds the measurement as another process level when its time matches none
    /// recorded (<see cref="AddProcessLevels"/>).
    /// </summary>
    public const string UpdateVariable = "PICOLLO_UPDATE_BASELINES";

    /// <summary>
    /// The environment variable that sets the wait between the fresh processes of a recording or a confirmation, in seconds
    /// (0 to 60; 5 by default). A host's speed levels last seconds to minutes, so processes started back to back draw the
    /// same one and the recorded spread misses the others: lower it only where a recording's wall time matters more than
    /// its spread, such as a CI job that checks a project's perf tests run at all.
    /// </summary>
    public const string RecordingSpacingVariable = "PICOLLO_RECORDING_SPACING";

    private static volatile BaselineStoreOptions s_assemblyDefault = new();

    /// <summary>
    /// The options <c>ShouldNotRegress</c> uses when a call passes none: the built-in defaults until set. Process-wide, so
    /// a module initializer or a test-framework adapter can apply a run setting (update mode from a runsettings
    /// parameter, <see cref="MissingBaselineInCI"/> = <see cref="MissingBaselinePolicy.Fail"/> for a whole test assembly).
    /// </summary>
    /// <exception cref="ArgumentNullException">Set to <see langword="null"/>.</exception>
    public static BaselineStoreOptions AssemblyDefault
    {
        get => s_assemblyDefault;
        set => s_assemblyDefault = value ?? throw new ArgumentNullException(nameof(value));
    }

    /// <summary>
    /// Update mode from the API; <c>PICOLLO_UPDATE_BASELINES=1</c> switches it on too, and so does a VSTest runsettings
    /// file through that variable (<c>RunConfiguration/EnvironmentVariables</c>).
    /// </summary>
    public bool UpdateBaselines { get; init; }

    /// <summary>
    /// Update mode that extends this machine's entry instead of replacing it (<c>PICOLLO_UPDATE_BASELINES=add</c>): the
    /// measurement's process joins the levels the entry recorded, the fastest kept and the spread widened when this process
    /// ran slower than any recorded (docs/VERDICTS.md, "Levels"). Recording measures <see cref="RecordingProcesses"/> fresh
    /// processes already; <c>add</c> is for the runs that follow, when a later process shows a level none of them did. An
    /// exact counter that changed (the code did) replaces the entry as <c>1</c> does.
    /// </summary>
    public bool AddProcessLevels { get; init; }

    /// <summary>
    /// How many fresh processes a recording measures besides this one (default 3), so the baseline knows the levels a
    /// body's time takes from one process to the next (docs/VERDICTS.md, "Levels"): short branchy code ran its floor at
    /// 1,062 to 2,155 ticks over 16 fresh processes of one VM. Up to 3 more follow while fewer than two processes agree
    /// and, for a body that shows levels, until two in a row show no new one. Each process measures twice and costs a few
    /// seconds, only in update mode (a received file is recorded in the test's process: a suite's first run would pay for
    /// every test). 0 records in this process only. Needs a test adapter, which knows how to start its test framework on
    /// one test; <c>ShouldNotRegress</c> outside <c>[PerfFact]</c>/<c>[PerfTest]</c> records in one process.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Negative or above 16.</exception>
    public int RecordingProcesses
    {
        get;
        init => field = value is >= 0 and <= 16
            ? value
            : throw new ArgumentOutOfRangeException(
                nameof(RecordingProcesses), value, "A recording measures 0 to 16 fresh processes besides its own (3 by default).");
    } = 3;

    /// <summary>
    /// How this test's body is measured in a fresh process; set by the test adapters, <see langword="null"/> outside
    /// them.
    /// </summary>
    internal IFreshProcessMeasurer? FreshProcesses { get; init; }

    /// <summary>
    /// The wait between two fresh processes of a recording or a confirmation (5 s): a host's levels last seconds to minutes,
    /// so processes started back to back draw the same one. A seam for tests.
    /// </summary>
    internal TimeSpan FreshProcessSpacing { get; init; } = DefaultFreshProcessSpacing;

    /// <summary>
    /// The default of <see cref="FreshProcessSpacing"/>: 5 s; the test suite sets it to 0 for its synthetic
    /// measurements.
    /// </summary>
    internal static TimeSpan DefaultFreshProcessSpacing { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// The wait between the measurements a recording takes to reach the machine's fast level (1.5 s): a host's slow state
    /// lasts seconds to minutes. A seam for tests.
    /// </summary>
    internal TimeSpan FastLevelSpacing { get; init; } = DefaultFastLevelSpacing;

    /// <summary>The default of <see cref="FastLevelSpacing"/>: 1.5 s; the test suite sets it to 0.</summary>
    internal static TimeSpan DefaultFastLevelSpacing { get; set; } = TimeSpan.FromSeconds(1.5);

    /// <summary>
    /// The wait between fresh processes a judgement uses: <see cref="RecordingSpacingVariable"/> when set to a valid number
    /// of seconds, else <see cref="FreshProcessSpacing"/>; and, for a value that is not valid, the notice that says so.
    /// </summary>
    /// <returns>The spacing, and the problem with the variable or <see langword="null"/>.</returns>
    internal (TimeSpan Spacing, string? Problem) ResolveFreshProcessSpacing()
    {
        string? text = (GetEnvironmentVariable ?? Environment.GetEnvironmentVariable)(RecordingSpacingVariable);
        if (string.IsNullOrWhiteSpace(text))
            return (FreshProcessSpacing, null);
        if (double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds) && seconds is >= 0 and <= 60)
            return (TimeSpan.FromSeconds(seconds), null);
        return (FreshProcessSpacing, BaselineMessages.InvalidRecordingSpacing(text, FreshProcessSpacing));
    }

    /// <summary>
    /// What a CI build does when a counter has no baseline for its machine. Default
    /// <see cref="MissingBaselinePolicy.Notice"/>.
    /// </summary>
    public MissingBaselinePolicy MissingBaselineInCI { get; init; } = MissingBaselinePolicy.Notice;

    /// <summary>The verdict rules.</summary>
    public VerdictPolicy VerdictPolicy { get; init; } = VerdictPolicy.Default;

    /// <summary>
    /// Reads environment variables (update mode, CI detection); the process environment when <see langword="null"/>. A
    /// seam for tests.
    /// </summary>
    public Func<string, string?>? GetEnvironmentVariable { get; init; }

    /// <summary>
    /// One folder for every baseline (e.g. <c>perf-baselines</c>), instead of beside each test's source file
    /// (<see langword="null"/>, the default). A relative path is taken from the repository root: the nearest folder above
    /// the test's source file that holds <c>.git</c> (the test's source folder outside a git repository), never from the
    /// current directory, which under <c>dotnet test</c> is the build output.
    /// </summary>
    public string? BaselineDirectory { get; init; }

    /// <summary>How long to wait for another writer of the same baseline before giving up. Default 30 s.</summary>
    public TimeSpan LockTimeout { get; init; } = TimeSpan.FromSeconds(30);
}
