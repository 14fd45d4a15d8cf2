using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.Xunit;
using TextKit;
using Xunit;

namespace TextKit.PerfTests;

public class FnvPerf
{
    // One perf test and one baseline per size (FnvPerf.Hash.256.perf.json, FnvPerf.Hash.4096.perf.json).
    [PerfTheory(ZeroBudget = "allocated-bytes")]
    [InlineData(256)]
    [InlineData(4096)]
    public void Hash(int size, PerfContext perf = null!)
    {
        byte[] data = new byte[size];
        Random.Shared.NextBytes(data);
        PerfResult result = perf.Measure(data, static d => Fnv.Hash(d));
        result.ShouldNotRegress();
    }
}
