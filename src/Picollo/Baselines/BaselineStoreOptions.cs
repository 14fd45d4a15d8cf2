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
    /// Update mode that extends this machine's entry instead of replacing it (<c>PICOLLO_UPDATE_BASELINES=add</c>): a
    /// measurement whose time matches none of the entry's levels is added as another process level (up to 4), and later
    /// verdicts judge time against the nearest level. For code whose speed is fixed per process (a short branchy body at
    /// one of two speeds depending on how the process laid out its code): record once with <c>1</c>, then run a few more
    /// processes with <c>add</c>. An exact counter that changed (the code did) replaces the entry as <c>1</c> does.
    /// </summary>
    public bool AddProcessLevels { get; init; }

    /// <summary>What a CI build does when a counter has no baseline for its machine. Default <see cref="MissingBaselinePolicy.Notice"/>.</summary>
    public MissingBaselinePolicy MissingBaselineInCI { get; init; } = MissingBaselinePolicy.Notice;

    /// <summary>The verdict rules.</summary>
    public VerdictPolicy VerdictPolicy { get; init; } = VerdictPolicy.Default;

    /// <summary>Reads environment variables (update mode, CI detection); the process environment when <see langword="null"/>. A seam for tests.</summary>
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
