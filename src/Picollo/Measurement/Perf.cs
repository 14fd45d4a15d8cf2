using Picollo.Measurement.Engine;

namespace Picollo.Measurement;

/// <summary>
/// Measures code: warmup, a pilot that chooses the operations per sample, an empty-body overhead calibration, then
/// samples of every counter, on the calling thread.
/// </summary>
/// <remarks>
/// <para>
/// Every overload invokes the body through a delegate it was given and allocates nothing per invocation; use a
/// <see langword="static"/> lambda with the state overloads so the body captures nothing either. <see cref="Func{TResult}"/>
/// results are stored to a sink so the JIT cannot drop the work.
/// </para>
/// <para>
/// Measurements in one process never overlap: a process-wide gate runs them one at a time (parallel tests wait for
/// each other), because two measured threads would compete for the same cores, caches and memory bandwidth. Calling
/// <c>Measure</c> from inside a measured body throws <see cref="InvalidOperationException"/>.
/// </para>
/// </remarks>
/// <example>
/// Measure one operation with its state passed in (a <see langword="static"/> lambda captures nothing, so nothing is
/// allocated per call), then assert on the counters per operation:
/// <code>
/// byte[] payload = File.ReadAllBytes("message.bin");                 // setup: not measured
/// PerfResult result = Perf.Measure(payload, static p => Parser.Parse(p));
/// result.AllocatedBytes.ShouldHaveZeroBudget();                      // exact
/// result.Tsc.ShouldHaveP99AtMost(20_000);                            // ticks per operation
/// Console.WriteLine(result.ToMarkdown());                            // one table per counter, per operation
/// </code>
/// Counters the machine cannot provide (hardware events on most VMs) are in the result as unavailable, with the reason.
/// </example>
public static partial class Perf
{
    /// <summary>Measures <paramref name="body"/> with <see cref="PerfOptions.AssemblyDefault"/>.</summary>
    /// <param name="body">One operation.</param>
    /// <returns>The result of every counter.</returns>
    public static PerfResult Measure(Action body) => Measure(PerfOptions.AssemblyDefault, body);

    /// <summary>Measures <paramref name="body"/>.</summary>
    /// <param name="options">How to measure.</param>
    /// <param name="body">One operation.</param>
    /// <returns>The result of every counter.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">A counter name is unknown (the message lists the valid ones).</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    public static PerfResult Measure(PerfOptions options, Action body)
    {
        ArgumentNullException.ThrowIfNull(body);
        return PerfEngine.Measure(options, new ActionLoop(body), new ActionLoop(static () => { }));
    }

    /// <summary>Measures <paramref name="body"/> with <see cref="PerfOptions.AssemblyDefault"/>; each result is consumed.</summary>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="body">One operation.</param>
    /// <returns>The result of every counter.</returns>
    public static PerfResult Measure<TResult>(Func<TResult> body) => Measure(PerfOptions.AssemblyDefault, body);

    /// <summary>Measures <paramref name="body"/>; each result is consumed so the JIT cannot drop the work.</summary>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="options">How to measure.</param>
    /// <param name="body">One operation.</param>
    /// <returns>The result of every counter.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">A counter name is unknown (the message lists the valid ones).</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    public static PerfResult Measure<TResult>(PerfOptions options, Func<TResult> body)
    {
        ArgumentNullException.ThrowIfNull(body);
        return PerfEngine.Measure(options, new FuncLoop<TResult>(body), new FuncLoop<TResult>(static () => default!));
    }

    /// <summary>
    /// Measures <paramref name="body"/> applied to <paramref name="state"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>.
    /// </summary>
    /// <typeparam name="TState">The state passed to every invocation.</typeparam>
    /// <param name="state">The state.</param>
    /// <param name="body">One operation; make it <see langword="static"/> so it captures nothing.</param>
    /// <returns>The result of every counter.</returns>
    public static PerfResult Measure<TState>(TState state, Action<TState> body) => Measure(PerfOptions.AssemblyDefault, state, body);

    /// <summary>Measures <paramref name="body"/> applied to <paramref name="state"/>.</summary>
    /// <typeparam name="TState">The state passed to every invocation.</typeparam>
    /// <param name="options">How to measure.</param>
    /// <param name="state">The state.</param>
    /// <param name="body">One operation; make it <see langword="static"/> so it captures nothing.</param>
    /// <returns>The result of every counter.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">A counter name is unknown (the message lists the valid ones).</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    public static PerfResult Measure<TState>(PerfOptions options, TState state, Action<TState> body)
    {
        ArgumentNullException.ThrowIfNull(body);
        return PerfEngine.Measure(options, new StateActionLoop<TState>(state, body), new StateActionLoop<TState>(state, static _ => { }));
    }

    /// <summary>
    /// Measures <paramref name="body"/> applied to <paramref name="state"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>; each result is consumed.
    /// </summary>
    /// <typeparam name="TState">The state passed to every invocation.</typeparam>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="state">The state.</param>
    /// <param name="body">One operation; make it <see langword="static"/> so it captures nothing.</param>
    /// <returns>The result of every counter.</returns>
    public static PerfResult Measure<TState, TResult>(TState state, Func<TState, TResult> body) =>
        Measure(PerfOptions.AssemblyDefault, state, body);

    /// <summary>Measures <paramref name="body"/> applied to <paramref name="state"/>; each result is consumed.</summary>
    /// <typeparam name="TState">The state passed to every invocation.</typeparam>
    /// <typeparam name="TResult">The body's result.</typeparam>
    /// <param name="options">How to measure.</param>
    /// <param name="state">The state.</param>
    /// <param name="body">One operation; make it <see langword="static"/> so it captures nothing.</param>
    /// <returns>The result of every counter.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="ArgumentException">A counter name is unknown (the message lists the valid ones).</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    public static PerfResult Measure<TState, TResult>(PerfOptions options, TState state, Func<TState, TResult> body)
    {
        ArgumentNullException.ThrowIfNull(body);
        return PerfEngine.Measure(
            options, new StateFuncLoop<TState, TResult>(state, body), new StateFuncLoop<TState, TResult>(state, static _ => default!));
    }
}
