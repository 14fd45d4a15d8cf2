namespace Picollo.Testing.Xunit;

/// <summary>xunit's dynamic skip: an exception whose message starts with <see cref="PerfXunit.DynamicSkipToken"/>.</summary>
internal sealed class PerfSkipException(string reason) : Exception(PerfXunit.DynamicSkipToken + reason);
