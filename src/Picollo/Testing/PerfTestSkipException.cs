namespace Picollo.Testing;

/// <summary>
/// Ends a perf test as skipped from inside a measurement (its code was not optimized); <see cref="PerfTestExecution"/>
/// catches it.
/// </summary>
internal sealed class PerfTestSkipException(string reason) : Exception(reason);
