using Picollo.Testing.Xunit;

namespace Picollo.Tests.XunitSamples;

public class Refused
{
    [PerfFact]
    public async Task<long> Async()
    {
        await Task.Yield();
        return SampleWork.Chain(10);
    }
}
