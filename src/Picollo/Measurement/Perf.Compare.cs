using Picollo.Measurement.Paired;

namespace Picollo.Measurement;

/// <summary>Paired comparisons: a reference and a candidate measured in pairs (docs/VERDICTS.md, "Paired comparisons").</summary>
/// <remarks>
/// Both bodies warm to their final code, then run in lock-step pairs of samples on one pinned thread, the same operations
/// per sample on both sides, the side that goes first alternating (ABBA), so the two see the same moments of the machine:
/// a neighbour's burst, a slow mode of the host, a slower machine change both sides alike and cancel in the ratio. The
/// bodies' delegates follow the same rules as <see cref="Measure(PerfOptions, Action)"/>: nothing allocated per call
/// with <see langword="static"/> lambdas and the state forms, results consumed.
/// </remarks>
public static partial class Perf
{
    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>.
    /// </summary>
    /// <param name="reference">The body compared against (the naive or the current code).</param>
    /// <param name="candidate">The body judged (the new code).</param>
    /// <returns>Both sides and their paired statistics.</returns>
    public static PerfComparison Compare(Action reference, Action candidate) => Compare(PerfOptions.AssemblyDefault, reference, candidate);

    /// <summary>Compares <paramref name="candidate"/> with <paramref name="reference"/>.</summary>
    /// <param name="options">How to measure; <see cref="PerfOptions.Samples"/> is the number of pairs.</param>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    /// <exception cref="PerfBodyException">A body threw; the exception says which, and holds what it threw.</exception>
    public static PerfComparison Compare(PerfOptions options, Action reference, Action candidate)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(candidate);
        return Paired(
            options,
            new ActionLoop(reference),
            new ActionLoop(static () => { }),
            new ActionLoop(candidate),
            new ActionLoop(static () => { }));
    }

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>; each result is consumed.
    /// </summary>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    public static PerfComparison Compare<TResult>(Func<TResult> reference, Func<TResult> candidate) =>
        Compare(PerfOptions.AssemblyDefault, reference, candidate);

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/>; each result is consumed so the JIT
    /// cannot drop the work.
    /// </summary>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="options">How to measure; <see cref="PerfOptions.Samples"/> is the number of pairs.</param>
    /// <param name="reference">The body compared against.</param>
    /// <param name="candidate">The body judged.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    /// <exception cref="PerfBodyException">A body threw; the exception says which, and holds what it threw.</exception>
    public static PerfComparison Compare<TResult>(PerfOptions options, Func<TResult> reference, Func<TResult> candidate)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(candidate);
        return Paired(
            options,
            new FuncLoop<TResult>(reference),
            new FuncLoop<TResult>(static () => default!),
            new FuncLoop<TResult>(candidate),
            new FuncLoop<TResult>(static () => default!));
    }

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>.
    /// </summary>
    /// <typeparam name="TState">The state passed to every invocation of both bodies.</typeparam>
    /// <param name="state">The state.</param>
    /// <param name="reference">The body compared against; make it <see langword="static"/> so it captures nothing.</param>
    /// <param name="candidate">The body judged; <see langword="static"/> too.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    public static PerfComparison Compare<TState>(TState state, Action<TState> reference, Action<TState> candidate) =>
        Compare(PerfOptions.AssemblyDefault, state, reference, candidate);

    /// <summary>Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/>.</summary>
    /// <typeparam name="TState">The state passed to every invocation of both bodies.</typeparam>
    /// <param name="options">How to measure; <see cref="PerfOptions.Samples"/> is the number of pairs.</param>
    /// <param name="state">The state.</param>
    /// <param name="reference">The body compared against; make it <see langword="static"/> so it captures nothing.</param>
    /// <param name="candidate">The body judged; <see langword="static"/> too.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    /// <exception cref="PerfBodyException">A body threw; the exception says which, and holds what it threw.</exception>
    public static PerfComparison Compare<TState>(PerfOptions options, TState state, Action<TState> reference, Action<TState> candidate)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(candidate);
        return Paired(options, new StateActionLoop<TState>(state, reference), new StateActionLoop<TState>(state, static _ => { }),
            new StateActionLoop<TState>(state, candidate), new StateActionLoop<TState>(state, static _ => { }));
    }

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/> with
    /// <see cref="PerfOptions.AssemblyDefault"/>; each result is consumed.
    /// </summary>
    /// <typeparam name="TState">The state passed to every invocation of both bodies.</typeparam>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="state">The state.</param>
    /// <param name="reference">The body compared against; make it <see langword="static"/> so it captures nothing.</param>
    /// <param name="candidate">The body judged; <see langword="static"/> too.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    public static PerfComparison Compare<TState, TResult>(TState state, Func<TState, TResult> reference, Func<TState, TResult> candidate) =>
        Compare(PerfOptions.AssemblyDefault, state, reference, candidate);

    /// <summary>
    /// Compares <paramref name="candidate"/> with <paramref name="reference"/> on <paramref name="state"/>; each result
    /// is consumed.
    /// </summary>
    /// <typeparam name="TState">The state passed to every invocation of both bodies.</typeparam>
    /// <typeparam name="TResult">The bodies' result.</typeparam>
    /// <param name="options">How to measure; <see cref="PerfOptions.Samples"/> is the number of pairs.</param>
    /// <param name="state">The state.</param>
    /// <param name="reference">The body compared against; make it <see langword="static"/> so it captures nothing.</param>
    /// <param name="candidate">The body judged; <see langword="static"/> too.</param>
    /// <returns>Both sides and their paired statistics.</returns>
    /// <exception cref="ArgumentNullException">An argument is <see langword="null"/>.</exception>
    /// <exception cref="InvalidOperationException">Called from inside a measured body.</exception>
    /// <exception cref="PerfBodyException">A body threw; the exception says which, and holds what it threw.</exception>
    public static PerfComparison Compare<TState, TResult>(
        PerfOptions options, TState state, Func<TState, TResult> reference, Func<TState, TResult> candidate)
    {
        ArgumentNullException.ThrowIfNull(reference);
        ArgumentNullException.ThrowIfNull(candidate);
        return Paired(
            options,
            new StateFuncLoop<TState, TResult>(state, reference),
            new StateFuncLoop<TState, TResult>(state, static _ => default!),
            new StateFuncLoop<TState, TResult>(state, candidate),
            new StateFuncLoop<TState, TResult>(state, static _ => default!));
    }

    /// <summary>Compares two bodies with their own names in the reports (the adapters' <c>Against</c> knob).</summary>
    internal static PerfComparison Paired<TLoop>(
        PerfOptions options, TLoop reference, TLoop emptyReference, TLoop candidate, TLoop emptyCandidate,
        string referenceName = "reference", string candidateName = "candidate")
        where TLoop : struct, IOperationLoop
    {
        ArgumentNullException.ThrowIfNull(options);

        // Each side's first call is its warmup's first (PairedEngine), watched by the warmup's JIT listener: made here, before
        // the listener, it compiled the bodies' tier-0 code unseen, the warmups could not tell their tier, and in a test host
        // busy with other tests they ended at the cap of the JIT-quiet rule, on code that was not final, in 3 of 3 tries.
        (PerfResult, PerfResult) Measure() => PairedEngine.Run(
            options, reference, emptyReference, candidate, emptyCandidate,
            () => FirstCall(reference, referenceName, "reference"), () => FirstCall(candidate, candidateName, "candidate"));
        return new PerfComparison(Measure(), Measure, referenceName, candidateName);
    }

    // One call of a side, naming it if it throws, instead of surfacing from the middle of a warmup as if the engine had failed.
    private static void FirstCall<TLoop>(TLoop body, string name, string side)
        where TLoop : struct, IOperationLoop
    {
        try
        {
            body.Run(1);
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            throw new PerfBodyException(side, MeasurementMessages.ComparisonBodyThrew(side, name, e.GetType().Name, e.Message), e);
        }
    }
}
