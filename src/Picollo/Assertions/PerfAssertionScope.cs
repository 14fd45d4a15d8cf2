using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Measurement;

namespace Picollo.Assertions;

/// <summary>
/// The perf test an async flow is running, as the test adapters declare it: its names, so <c>ShouldNotRegress</c> called
/// in a theory case finds that case's baseline without being told; the assertions that ran, for the rule that a test in
/// which no assertion could run is skipped, never passed; and the results already judged against their baseline, so a
/// declared <c>Baseline = true</c> does not judge them twice (docs/ARCHITECTURE.md, "Test adapters"). Outside a perf
/// test there is none, and the assertions behave as they always do.
/// </summary>
internal sealed class PerfAssertionScope
{
    private static readonly AsyncLocal<PerfAssertionScope?> s_current = new();

    private readonly Lock _gate = new();
    private readonly List<PerfResult> _judged = [];
    private int _assertionsRan;

    /// <summary>The scope of a perf test; the test's context makes it current (<c>PerfTestContext.Enter</c>).</summary>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    public PerfAssertionScope(string testClass, string testMethod, string? caseName)
    {
        TestClass = testClass;
        TestMethod = testMethod;
        CaseName = caseName;
    }

    /// <summary>The scope of the current flow, or <see langword="null"/> outside a perf test.</summary>
    /// <remarks>
    /// Set only by the running test's context (<c>PerfTestContext.Enter</c>, in Testing, a layer this one cannot see), which
    /// restores the outer value when the test ends; <c>PerfTestContextTests</c> checks the sources for any other
    /// writer.
    /// </remarks>
    public static PerfAssertionScope? Current
    {
        get => s_current.Value;
        internal set => s_current.Value = value;
    }

    /// <summary>The test class's name, which prefixes its baseline files.</summary>
    public string TestClass { get; }

    /// <summary>The test method's name.</summary>
    public string TestMethod { get; }

    /// <summary>The theory case, or <see langword="null"/>.</summary>
    public string? CaseName { get; }

    /// <summary>The assertions that checked their counters (passed or failed).</summary>
    public int AssertionsRan => Volatile.Read(ref _assertionsRan);

    /// <summary>
    /// How the running test's body is measured in a fresh process (the adapter's), so its baselines are recorded and its
    /// time regressions confirmed across processes; <see langword="null"/> when the adapter cannot start one.
    /// </summary>
    public IFreshProcessMeasurer? FreshProcesses { get; init; }

    /// <summary>The test's <c>RecordingProcesses</c> knob, or <see langword="null"/> for the options' own.</summary>
    public int? RecordingProcesses { get; init; }

    /// <summary>
    /// The test project's <c>TestResults/picollo</c>, where the test's reports go unless <c>PICOLLO_RESULTS_DIR</c> says
    /// otherwise, or <see langword="null"/> when the test assembly does not name its project.
    /// </summary>
    public string? ResultsDirectory { get; init; }

    /// <summary>An assertion checked its counters.</summary>
    public static void Ran()
    {
        if (s_current.Value is { } scope)
            Interlocked.Increment(ref scope._assertionsRan);
    }

    /// <summary><paramref name="result"/> was judged against its baseline.</summary>
    public static void Judged(PerfResult result)
    {
        if (s_current.Value is not { } scope)
            return;
        lock (scope._gate)
            scope._judged.Add(result);
    }

    /// <summary>Whether <paramref name="result"/> was judged against its baseline in this scope.</summary>
    public bool WasJudged(PerfResult result)
    {
        lock (_gate)
            return _judged.Contains(result);
    }
}
