namespace Picollo.Tests.Support;

/// <summary>Serializes the tests that redirect <see cref="Console.Out"/> (a process-wide setting).</summary>
internal static class ConsoleLock
{
    public static readonly Lock Instance = new();
}
