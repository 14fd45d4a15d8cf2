namespace Picollo.Measurement;

/// <summary>What ended the warmup of a measurement (<see cref="PerfRunInfo.WarmupEnd"/>).</summary>
public enum WarmupEnd
{
    /// <summary>
    /// The runtime's JIT events showed the body's method running its final optimized code (tier 1, or optimized from
    /// the start), with no re-compilation of other methods pending: the evidence that the code will not change.
    /// </summary>
    CodeOptimized,

    /// <summary>
    /// No method was JIT-compiled in the process for 400 ms. Used when the JIT events could not tell the body's tier (the
    /// body was compiled before the measurement, or the runtime's events are unavailable).
    /// </summary>
    JitQuiet,

    /// <summary>
    /// The warmup's time cap ended it before either of the above: the samples may have measured code that was about to be
    /// replaced by faster code. <see cref="PerfRunInfo.Notes"/> says what was still pending.
    /// </summary>
    TimeCap,

    /// <summary>
    /// The runtime's JIT events showed the body's method compiled without optimizations (MinOpts: the method is marked
    /// <c>[MethodImpl(MethodImplOptions.NoOptimization)]</c>, its assembly was built without optimizations, a debugger
    /// asked for debuggable code, or <c>DOTNET_JITMinOpts</c> is set). Such code is final, it never tiers up, so warmup
    /// ends on it, but the samples measured code slower than what an optimized build runs:
    /// <see cref="PerfRunInfo.IsOptimized"/> is <see langword="false"/> and <see cref="PerfRunInfo.UnoptimizedReason"/> says why.
    /// </summary>
    CodeUnoptimized,
}
