namespace Picollo.Cli;

/// <summary>What picollo's exit codes mean, for scripts and CI steps.</summary>
internal static class ExitCodes
{
    /// <summary>Done; for <c>doctor</c>: hardware counters are usable.</summary>
    public const int Success = 0;

    /// <summary>Bad input: a corrupt file, a folder that does not exist. Nothing was changed.</summary>
    public const int Error = 1;

    /// <summary><c>doctor</c>: this machine cannot count hardware events (software and runtime counters may still count).</summary>
    public const int NoHardwareCounters = 2;
}
