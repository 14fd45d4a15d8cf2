namespace Picollo.Measurement.Conditions;

/// <summary>
/// The optimization tier of newly compiled code, as the runtime reports it in bits 7-9 of the <c>MethodFlags</c> of its
/// <c>MethodLoadVerbose</c> event (the runtime's <c>PrepareCodeConfig::JitOptimizationTier</c>; the values are its own).
/// </summary>
internal enum JitTier
{
    /// <summary>Not reported (older runtimes).</summary>
    Unknown = 0,

    /// <summary>Compiled without optimizations and final (debuggable code, or a method the JIT would not optimize).</summary>
    MinOptJitted = 1,

    /// <summary>Fully optimized and final: tiering off for the method (e.g. <c>AggressiveOptimization</c>).</summary>
    Optimized = 2,

    /// <summary>Tier 0: quick, unoptimized, call-counted; replaced once the method is hot.</summary>
    QuickJitted = 3,

    /// <summary>Tier 1: optimized (with profile data under TieredPGO), the final code of a hot method.</summary>
    OptimizedTier1 = 4,

    /// <summary>
    /// On-stack replacement: optimized code for a loop entered from tier-0 code; the method still gets tier 1 when it
    /// is hot.
    /// </summary>
    OptimizedTier1Osr = 5,

    /// <summary>Tier 0 with profiling probes (TieredPGO): a hot method collecting the profile its tier-1 code will use.</summary>
    InstrumentedTier = 6,

    /// <summary>Optimized with profiling probes (TieredPGO, for hot ReadyToRun code): tier 1 follows.</summary>
    InstrumentedTierOptimized = 7,
}
