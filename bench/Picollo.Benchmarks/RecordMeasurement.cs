namespace Picollo.Benchmarks;

/// <summary>The timed runs of one variant in one case.</summary>
internal sealed class RecordMeasurement
{
    private readonly List<double> _nanosPerOp = [];

    public RecordMeasurement(RecordCase recordCase, RecordVariant variant, int repeats)
    {
        Case = recordCase;
        Variant = variant;
        Repeats = repeats;
    }

    public RecordCase Case { get; }

    public RecordVariant Variant { get; }

    /// <summary>How many times one run records the whole workload.</summary>
    public int Repeats { get; }

    public int RunCount => _nanosPerOp.Count;

    /// <summary>ns per value of each timed run, in round order (run i of every variant belongs to round i).</summary>
    public IReadOnlyList<double> NanosPerOp => _nanosPerOp;

    /// <summary>Bytes allocated on the measuring thread during all timed runs together.</summary>
    public long AllocatedBytes { get; private set; }

    public long Operations { get; private set; }

    public double BestNanosPerOp => _nanosPerOp.Min();

    public double MedianNanosPerOp => Median(_nanosPerOp);

    public double AllocatedBytesPerOp => Operations == 0 ? 0 : (double)AllocatedBytes / Operations;

    public static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values];
        Array.Sort(sorted);
        int middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    public void Add(ulong elapsedNanos, long operations, long allocatedBytes)
    {
        _nanosPerOp.Add((double)elapsedNanos / operations);
        Operations += operations;
        AllocatedBytes += allocatedBytes;
    }
}
