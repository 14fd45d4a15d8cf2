namespace Picollo.Cli.Ab;

/// <summary>An exact counter of a measurement, base against head, per operation over every sample of every pair.</summary>
/// <param name="Name">The counter.</param>
/// <param name="Unit">Its unit.</param>
/// <param name="Base">The base's mean per operation.</param>
/// <param name="Head">The head's.</param>
/// <param name="Verdict">Regressed (more), improved (less) or unchanged.</param>
internal sealed record AbExactCounter(string Name, string Unit, double Base, double Head, AbVerdict Verdict)
{
    /// <summary>Whether it is a simulated counter, judged within its near-exact tolerance rather than exactly.</summary>
    public bool IsSimulated { get; init; }
}
