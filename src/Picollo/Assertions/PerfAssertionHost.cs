namespace Picollo.Assertions;

/// <summary>The host the assertions report to: per async flow, so parallel tests can each have their own.</summary>
public static class PerfAssertionHost
{
    private static readonly AsyncLocal<IPerfAssertionHost?> s_current = new();

    /// <summary>The default host: throws <see cref="PerfCounterUnavailableException"/> for every assertion that cannot run, writes notices to standard error and reports to standard output.</summary>
    public static IPerfAssertionHost Throwing { get; } = new ThrowingPerfAssertionHost();

    /// <summary>
    /// The host of the current async flow (a test and everything it awaits); <see cref="Throwing"/> unless set. Setting it
    /// affects only the current flow and the flows it starts, so an adapter sets it at the start of each test.
    /// </summary>
    /// <remarks>Set to <see langword="null"/> to return to <see cref="Throwing"/>.</remarks>
    public static IPerfAssertionHost Current
    {
        get => s_current.Value ?? Throwing;
        set => s_current.Value = value;
    }
}
