namespace PicolloPerfTests;

// One perf test of each style, on a checksum written here so the project runs as created: put your own code in its place.
// Run them in Release with the report on screen:
//   dotnet test -c Release --logger "console;verbosity=detailed"
public class ChecksumPerf
{
    private static readonly byte[] s_data = Data(4096);

    // 1. The method body is the operation: Picollo repeats it on a pinned thread and checks the budgets on the attribute.
    //    Its time is also judged against the baseline beside this file. The first run writes
    //    ChecksumPerf.Checksum.received.perf.json: review it, rename it to .perf.json and commit it.
    [PerfTest(ZeroBudget = "allocated-bytes")]
    public uint Checksum() => Fnv1a(s_data);

    // 2. A region of a test: setup is not measured; fluent assertions read the result.
    [PerfTest]
    public void ChecksumOfASmallBuffer(PerfContext perf)
    {
        byte[] small = Data(64);
        PerfResult result = perf.Measure(small, static data => Fnv1a(data));
        result.AllocatedBytes.ShouldHaveZeroBudget();
        result.ShouldNotRegress();
    }

    // FNV-1a, 32-bit.
    private static uint Fnv1a(byte[] data)
    {
        uint hash = 2166136261;
        foreach (byte b in data)
            hash = (hash ^ b) * 16777619;
        return hash;
    }

    private static byte[] Data(int length) => [.. Enumerable.Range(0, length).Select(static i => (byte)(i * 31))];
}
