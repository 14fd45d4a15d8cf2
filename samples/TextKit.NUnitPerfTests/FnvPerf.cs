using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.NUnit;
using TextKit;

namespace TextKit.NUnitPerfTests;

public class FnvPerf
{
    // One perf test and one baseline per case (FnvPerf.Hash.256.perf.json, FnvPerf.Hash.4096.perf.json).
    [PerfTestCase(256, ZeroBudget = "allocated-bytes")]
    [PerfTestCase(4096, ZeroBudget = "allocated-bytes")]
    public void Hash(int size, PerfContext perf)
    {
        ArgumentNullException.ThrowIfNull(perf);
        byte[] data = new byte[size];
        Random.Shared.NextBytes(data);
        PerfResult result = perf.Measure(data, static d => Fnv.Hash(d));
        result.ShouldNotRegress();
    }
}
