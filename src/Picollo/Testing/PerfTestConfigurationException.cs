namespace Picollo.Testing;

/// <summary>
/// A perf test's attribute (or the assembly's <see cref="PerfDefaultsAttribute"/>) declares a value that cannot be used, or
/// its method cannot be a perf test. The message names the attribute and property, the bad token and the valid form; only
/// that test fails.
/// </summary>
public sealed class PerfTestConfigurationException : Exception
{
    /// <summary>Creates the exception.</summary>
    public PerfTestConfigurationException()
    {
    }

    /// <summary>Creates the exception with its message.</summary>
    /// <param name="message">What is wrong and the valid form.</param>
    public PerfTestConfigurationException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with its message and cause.</summary>
    /// <param name="message">What is wrong and the valid form.</param>
    /// <param name="innerException">The cause.</param>
    public PerfTestConfigurationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
