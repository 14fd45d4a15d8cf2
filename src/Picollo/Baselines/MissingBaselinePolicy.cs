namespace Picollo.Baselines;

/// <summary>What a CI build does with a counter that has no baseline for its machine (locally it is always a notice).</summary>
public enum MissingBaselinePolicy
{
    /// <summary>Pass with a visible notice and write the received file (the default: a new runner must not turn the build red).</summary>
    Notice,

    /// <summary>Fail: every CI machine must have a committed baseline.</summary>
    Fail,
}
