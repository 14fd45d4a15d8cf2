using Xunit;

namespace Picollo.Tests.PerfEvents;

/// <summary>
/// Test classes that open real perf events run one at a time: the fd-leak test counts this process's perf
/// fds, and the timing tests compare clocks that a concurrent busy test would disturb.
/// </summary>
[CollectionDefinition(Name)]
public sealed class PerfKernelTestGroup
{
    public const string Name = "perf_event kernel";
}
