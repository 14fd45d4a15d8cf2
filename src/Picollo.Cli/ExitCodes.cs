namespace Picollo.Cli;

/// <summary>
/// What picollo's exit codes mean, the same for every command, for scripts and CI steps (docs/CI.md, "Exit codes"):
/// 0 done and passed, 1 a regression, 2 nothing could be judged or done as asked.
/// </summary>
internal static class ExitCodes
{
    /// <summary>Done; for <c>compare</c> and <c>ab</c>: no regression; for <c>doctor</c>: hardware counters are usable.</summary>
    public const int Success = 0;

    /// <summary><c>compare</c> and <c>ab</c>: a regression was found (the report is still written in full).</summary>
    public const int Regression = 1;

    /// <summary>
    /// Cannot judge: a usage error (an unknown option or format, a missing argument), bad input (a folder that does not
    /// exist, a corrupt file, a run without results, a test name that matches no test), or a step that failed. The reason
    /// is on standard error; nothing was changed.
    /// </summary>
    public const int Error = 2;

    /// <summary><c>doctor</c>: this machine cannot count hardware events (software and runtime counters may still count).</summary>
    public const int NoHardwareCounters = 2;
}
