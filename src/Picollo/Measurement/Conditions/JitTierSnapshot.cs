using System.Diagnostics;

namespace Picollo.Measurement.Conditions;

/// <summary>What <see cref="JitTierListener"/> had seen when it was asked.</summary>
/// <param name="BodyTier">The tier the body's method was last compiled at; <see langword="null"/> when no event named it.</param>
/// <param name="BodyTierTicks">The <see cref="Stopwatch"/> timestamp at which that event was received; 0 when none was.</param>
/// <param name="LastRecompilationTicks">
/// The <see cref="Stopwatch"/> timestamp at which the last re-compilation (any method, any tier but tier 0) was received;
/// 0 when none was.
/// </param>
internal readonly record struct JitTierSnapshot(JitTier? BodyTier, long BodyTierTicks, long LastRecompilationTicks)
{
    /// <summary>Whether the body's method was last compiled at a tier that is never replaced, optimized or not.</summary>
    public bool IsBodyFinal => BodyTier is JitTier.OptimizedTier1 or JitTier.Optimized or JitTier.MinOptJitted;

    /// <summary>Whether that final tier is unoptimized code (MinOpts), which is final only because it never tiers up.</summary>
    public bool IsBodyUnoptimized => BodyTier is JitTier.MinOptJitted;
}
