namespace Picollo.Benchmarks;

/// <summary>The timed runs of one variant instance at one thread count and one max trackable value.</summary>
internal sealed class ThreadsMeasurement
{
    private readonly List<double> _nanosPerOp = [];
    private readonly List<double> _lostFractions = [];
    private readonly List<bool> _clean = [];

    public ThreadsMeasurement(long maxTrackableValue, int threads, ThreadsVariant variant, int repeats)
    {
        MaxTrackableValue = maxTrackableValue;
        Threads = threads;
        Variant = variant;
        Repeats = repeats;
    }

    public long MaxTrackableValue { get; }

    public int Threads { get; }

    public ThreadsVariant Variant { get; }

    /// <summary>How many times each writer records the whole workload in one run.</summary>
    public int Repeats { get; }

    public int RunCount => _nanosPerOp.Count;

    /// <summary>Wall ns per value recorded by one writer, for each timed run in round order (run i of every measurement belongs to round i).</summary>
    public IReadOnlyList<double> NanosPerOp => _nanosPerOp;

    public double BestNanosPerOp => _nanosPerOp.Min();

    public double MedianNanosPerOp => RecordMeasurement.Median(_nanosPerOp);

    /// <summary>Per run, in round order: whether every writer stayed on a core for the whole run (see <see cref="ThreadsBenchmark.CleanOnCpuFraction"/>).</summary>
    public IReadOnlyList<bool> Clean => _clean;

    public int CleanRunCount => _clean.Count(c => c);

    /// <summary>The best clean run, or NaN when no run was clean.</summary>
    public double CleanBestNanosPerOp => CleanRunCount == 0 ? double.NaN : CleanNanosPerOp().Min();

    /// <summary>The median clean run, or NaN when no run was clean.</summary>
    public double CleanMedianNanosPerOp => CleanRunCount == 0 ? double.NaN : RecordMeasurement.Median(CleanNanosPerOp());

    /// <summary>Runs whose total count differed from the number of values recorded.</summary>
    public int MiscountedRuns { get; private set; }

    /// <summary>Fraction of the recorded values missing from the total count, per run (single-writer loses increments that collide).</summary>
    public IReadOnlyList<double> LostFractions => _lostFractions;

    /// <summary>Bytes the writers allocated during all timed runs together.</summary>
    public long AllocatedBytes { get; private set; }

    /// <summary>Values recorded inside the timed regions, all writers and runs together.</summary>
    public long Operations { get; private set; }

    public double AllocatedBytesPerOp => Operations == 0 ? 0 : (double)AllocatedBytes / Operations;

    /// <summary>The variant's footprint after the last timed run (see <see cref="ThreadsVariant.FootprintInBytes"/>).</summary>
    public long FootprintInBytes { get; private set; }

    /// <param name="run">The run's wall time and allocations.</param>
    /// <param name="valuesPerThread">Values each writer recorded in the timed region.</param>
    /// <param name="expectedCount">Values recorded by all writers since the reset, priming included.</param>
    /// <param name="totalCount">The total count the histogram reported after the run.</param>
    /// <param name="footprintInBytes">The footprint right after the run.</param>
    public void Add(ParallelRun run, long valuesPerThread, long expectedCount, long totalCount, long footprintInBytes)
    {
        _nanosPerOp.Add((double)run.WallNanos / valuesPerThread);
        _clean.Add(run.MinOnCpuFraction >= ThreadsBenchmark.CleanOnCpuFraction);
        Operations += valuesPerThread * Threads;
        AllocatedBytes += run.AllocatedBytes;
        FootprintInBytes = footprintInBytes;
        if (totalCount != expectedCount)
            MiscountedRuns++;
        _lostFractions.Add((double)(expectedCount - totalCount) / expectedCount);
    }

    private IEnumerable<double> CleanNanosPerOp() => _nanosPerOp.Where((_, i) => _clean[i]);
}
