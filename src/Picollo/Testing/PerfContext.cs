using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;

namespace Picollo.Testing;

/// <summary>
/// What a perf test method receives when it measures a region of its own: <c>perf.Measure(...)</c> measures with the
/// test's declared options, under its cancellation, and stops the test as skipped when the code is not optimized; the
/// result is then asserted fluently (<c>r.AllocatedBytes.ShouldHaveZeroBudget()</c>, <c>r.ShouldNotRegress()</c>), and a
/// theory case's <c>ShouldNotRegress</c> finds that case's baseline by itself.
/// </summary>
/// <example>
/// <code>
/// [PerfFact]
/// public void ParseLarge(PerfContext perf)
/// {
///     var input = File.ReadAllText("big.json");                          // not measured
///     PerfResult r = perf.Measure(input, static s => Parser.Parse(s));   // one measured region
///     r.AllocatedBytes.ShouldHaveZeroBudget();
///     r.ShouldNotRegress(maxChange: 0.05);
/// }
/// </code>
/// </example>
public sealed class PerfContext
{
    private readonly Lock _gate = new();
    private readonly List<PerfResult> _results = [];
    private readonly List<PerfComparison> _comparisons = [];
    private Action? _beforeFirstMeasurement;

    internal PerfContext(
        PerfTestDescriptor test, PerfOptions options, CancellationToken cancellationToken, Action? beforeFirstMeasurement = null)
    {
        Test = test;
        Options = options;
        CancellationToken = cancellationToken;
        _beforeFirstMeasurement = beforeFirstMeasurement;
    }

    /// <summary>
    /// The context of the perf test running in the current async flow, or <see langword="null"/> outside one: for helpers
    /// that measure on a test's behalf without being handed its <see cref="PerfContext"/>.
    /// </summary>
    public static PerfContext? Current => PerfTestContext.Current?.Perf;

    /// <summary>The test being run.</summary>
    internal PerfTestDescriptor Test { get; }

    /// <summary>
    /// The measurement options the test declared (counters, samples, time budget, warmup) over the assembly's and the
    /// built-in defaults.
    /// </summary>
    public PerfOptions Options { get; }

    /// <summary>The test's cancellation; a measurement stops between samples when it fires.</summary>
    public CancellationToken CancellationToken { get; }

    /// <summary>The measurements taken so far, in order.</summary>
    public IReadOnlyList<PerfResult> Results
    {
        get
        {
            lock (_gate)
                return [.. _results];
        }
    }

    /// <summary>Measures <paramref name="body"/> with the test's options.</summary>
    /// <param name="body">The operation; a <see langword="static"/> lambda keeps it allocation-free.</param>
    /// <returns>The measurement.</returns>
    public PerfResult Measure(Action body) => Record(Perf.Measure(Options, Prepare(body)));

    /// <summary>
    /// Measures <paramref name="body"/> with the test's options; its result is consumed so the work cannot be optimized
    /// away.
    /// </summary>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="body">The operation.</param>
    /// <returns>The measurement.</returns>
    public PerfResult Measure<TResult>(Func<TResult> body) => Record(Perf.Measure(Options, Prepare(body)));

    /// <summary>
    /// Measures <paramref name="body"/> on <paramref name="state"/> with the test's options: the zero-allocation form
    /// (a <see langword="static"/> lambda that captures nothing).
    /// </summary>
    /// <typeparam name="TState">The state's type.</typeparam>
    /// <param name="state">What the body works on, prepared outside the measured region.</param>
    /// <param name="body">The operation.</param>
    /// <returns>The measurement.</returns>
    public PerfResult Measure<TState>(TState state, Action<TState> body) => Record(Perf.Measure(Options, state, Prepare(body)));

    /// <summary>Measures <paramref name="body"/> on <paramref name="state"/> with the test's options; its result is consumed.</summary>
    /// <typeparam name="TState">The state's type.</typeparam>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="state">What the body works on, prepared outside the measured region.</param>
    /// <param name="body">The operation.</param>
    /// <returns>The measurement.</returns>
    public PerfResult Measure<TState, TResult>(TState state, Func<TState, TResult> body) =>
        Record(Perf.Measure(Options, state, Prepare(body)));

    /// <summary>The comparisons taken so far, in order.</summary>
    public IReadOnlyList<PerfComparison> Comparisons
    {
        get
        {
            lock (_gate)
                return [.. _comparisons];
        }
    }

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> in pairs with the test's options
    /// (<see cref="Perf.Compare(PerfOptions, Action, Action)"/>).
    /// </summary>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>The comparison, to assert on: <c>c.Tsc.ShouldBeFasterBy(1.5)</c>.</returns>
    public PerfComparison Compare(Action reference, Action candidate) =>
        Record(Perf.Compare(Options, Prepare(reference), Prepare(candidate)));

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> in pairs with the test's options;
    /// each result is consumed.
    /// </summary>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>The comparison.</returns>
    public PerfComparison Compare<TResult>(Func<TResult> reference, Func<TResult> candidate) =>
        Record(Perf.Compare(Options, Prepare(reference), Prepare(candidate)));

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/> side by side
    /// with the test's options: the zero-allocation form.
    /// </summary>
    /// <typeparam name="TState">The state's type.</typeparam>
    /// <param name="state">What both bodies work on, prepared outside the measured region.</param>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>The comparison.</returns>
    public PerfComparison Compare<TState>(TState state, Action<TState> reference, Action<TState> candidate) =>
        Record(Perf.Compare(Options, state, Prepare(reference), Prepare(candidate)));

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/> side by side
    /// with the test's options; each result is consumed.
    /// </summary>
    /// <typeparam name="TState">The state's type.</typeparam>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="state">What both bodies work on, prepared outside the measured region.</param>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>The comparison.</returns>
    public PerfComparison Compare<TState, TResult>(TState state, Func<TState, TResult> reference, Func<TState, TResult> candidate) =>
        Record(Perf.Compare(Options, state, Prepare(reference), Prepare(candidate)));

    /// <summary>
    /// Checks a body before it is measured: in an assembly built without optimizations (a Debug build) it stops the test
    /// as skipped at once, named by the test rather than by the compiler's name for a lambda (TokenizerPerf.&lt;Tokenize&gt;b__2_0);
    /// otherwise the first body waits for the process to stop compiling (the adapter's JIT settle). The check comes first:
    /// the wait cost each skipped Debug test about a second.
    /// </summary>
    private TBody Prepare<TBody>(TBody body)
        where TBody : Delegate
    {
        ArgumentNullException.ThrowIfNull(body);
        string? subject = body.Method.Module.Assembly == Test.Method.Module.Assembly ? $"The perf test {Test.DisplayName}" : null;
        if (CodeOptimization.UnoptimizedBuildReason(body.Method, subject) is { } reason)
            throw new PerfTestSkipException(reason);
        Interlocked.Exchange(ref _beforeFirstMeasurement, null)?.Invoke();
        return body;
    }

    /// <summary>
    /// Keeps a measurement and stops the test as skipped when its code was not optimized or was instrumented for code
    /// coverage: nothing measured in a Debug build or a coverage run may pass, fail, record or accept a baseline.
    /// </summary>
    internal PerfResult Record(PerfResult result)
    {
        lock (_gate)
            _results.Add(result);
        if (result.Run.NotShippedReason is { } reason)
            throw new PerfTestSkipException(reason);
        return result;
    }

    /// <summary>
    /// Keeps a comparison, reports it (the test output and its JSON result, <see cref="PerfComparisonReports"/>), and
    /// stops the test as skipped when either side's code was not optimized, or the code was instrumented for code coverage.
    /// </summary>
    internal PerfComparison Record(PerfComparison comparison)
    {
        lock (_gate)
            _comparisons.Add(comparison);
        if (comparison.Reference.Run.NotShippedReason is { } reason)
            throw new PerfTestSkipException(reason);
        comparison.WriteReport(
            Test.TestClass, Test.CaseName, callerFilePath: Test.SourceFilePath, testMethod: Test.Method.Name, expression: Test.DisplayName);
        return comparison;
    }
}
