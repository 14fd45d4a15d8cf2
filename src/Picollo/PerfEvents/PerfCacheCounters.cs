namespace Picollo.PerfEvents;

/// <summary>Typed access to the hardware cache counters of a session (<c>Counters.Cache.L1DReadMiss</c>).</summary>
public sealed class PerfCacheCounters
{
    private readonly PerfEventCounters _counters;

    internal PerfCacheCounters(PerfEventCounters counters) => _counters = counters;

    /// <summary>The counter of <paramref name="id"/>, or <see langword="null"/> when the session does not count it.</summary>
    /// <param name="id">The event.</param>
    public PerfEventCounter? this[PerfCacheCounterId id] => _counters.Find(PerfEventType.HardwareCache, (ulong)id);

    /// <summary>L1-dcache-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DReadAccess => this[PerfCacheCounterId.L1DReadAccess];

    /// <summary>L1-dcache-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DReadMiss => this[PerfCacheCounterId.L1DReadMiss];

    /// <summary>L1-dcache-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DWriteAccess => this[PerfCacheCounterId.L1DWriteAccess];

    /// <summary>L1-dcache-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DWriteMiss => this[PerfCacheCounterId.L1DWriteMiss];

    /// <summary>L1-dcache-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DPrefetchAccess => this[PerfCacheCounterId.L1DPrefetchAccess];

    /// <summary>L1-dcache-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1DPrefetchMiss => this[PerfCacheCounterId.L1DPrefetchMiss];

    /// <summary>L1-icache-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IReadAccess => this[PerfCacheCounterId.L1IReadAccess];

    /// <summary>L1-icache-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IReadMiss => this[PerfCacheCounterId.L1IReadMiss];

    /// <summary>L1-icache-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IWriteAccess => this[PerfCacheCounterId.L1IWriteAccess];

    /// <summary>L1-icache-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IWriteMiss => this[PerfCacheCounterId.L1IWriteMiss];

    /// <summary>L1-icache-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IPrefetchAccess => this[PerfCacheCounterId.L1IPrefetchAccess];

    /// <summary>L1-icache-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? L1IPrefetchMiss => this[PerfCacheCounterId.L1IPrefetchMiss];

    /// <summary>LLC-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLReadAccess => this[PerfCacheCounterId.LLReadAccess];

    /// <summary>LLC-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLReadMiss => this[PerfCacheCounterId.LLReadMiss];

    /// <summary>LLC-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLWriteAccess => this[PerfCacheCounterId.LLWriteAccess];

    /// <summary>LLC-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLWriteMiss => this[PerfCacheCounterId.LLWriteMiss];

    /// <summary>LLC-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLPrefetchAccess => this[PerfCacheCounterId.LLPrefetchAccess];

    /// <summary>LLC-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? LLPrefetchMiss => this[PerfCacheCounterId.LLPrefetchMiss];

    /// <summary>dTLB-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBReadAccess => this[PerfCacheCounterId.DTLBReadAccess];

    /// <summary>dTLB-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBReadMiss => this[PerfCacheCounterId.DTLBReadMiss];

    /// <summary>dTLB-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBWriteAccess => this[PerfCacheCounterId.DTLBWriteAccess];

    /// <summary>dTLB-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBWriteMiss => this[PerfCacheCounterId.DTLBWriteMiss];

    /// <summary>dTLB-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBPrefetchAccess => this[PerfCacheCounterId.DTLBPrefetchAccess];

    /// <summary>dTLB-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? DTLBPrefetchMiss => this[PerfCacheCounterId.DTLBPrefetchMiss];

    /// <summary>iTLB-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBReadAccess => this[PerfCacheCounterId.ITLBReadAccess];

    /// <summary>iTLB-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBReadMiss => this[PerfCacheCounterId.ITLBReadMiss];

    /// <summary>iTLB-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBWriteAccess => this[PerfCacheCounterId.ITLBWriteAccess];

    /// <summary>iTLB-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBWriteMiss => this[PerfCacheCounterId.ITLBWriteMiss];

    /// <summary>iTLB-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBPrefetchAccess => this[PerfCacheCounterId.ITLBPrefetchAccess];

    /// <summary>iTLB-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? ITLBPrefetchMiss => this[PerfCacheCounterId.ITLBPrefetchMiss];

    /// <summary>branch-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchReadAccess => this[PerfCacheCounterId.BranchReadAccess];

    /// <summary>branch-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchReadMiss => this[PerfCacheCounterId.BranchReadMiss];

    /// <summary>branch-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchWriteAccess => this[PerfCacheCounterId.BranchWriteAccess];

    /// <summary>branch-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchWriteMiss => this[PerfCacheCounterId.BranchWriteMiss];

    /// <summary>branch-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchPrefetchAccess => this[PerfCacheCounterId.BranchPrefetchAccess];

    /// <summary>branch-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? BranchPrefetchMiss => this[PerfCacheCounterId.BranchPrefetchMiss];

    /// <summary>node-loads; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodeReadAccess => this[PerfCacheCounterId.NodeReadAccess];

    /// <summary>node-load-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodeReadMiss => this[PerfCacheCounterId.NodeReadMiss];

    /// <summary>node-stores; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodeWriteAccess => this[PerfCacheCounterId.NodeWriteAccess];

    /// <summary>node-store-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodeWriteMiss => this[PerfCacheCounterId.NodeWriteMiss];

    /// <summary>node-prefetches; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodePrefetchAccess => this[PerfCacheCounterId.NodePrefetchAccess];

    /// <summary>node-prefetch-misses; <see langword="null"/> when the session does not count it.</summary>
    public PerfEventCounter? NodePrefetchMiss => this[PerfCacheCounterId.NodePrefetchMiss];
}
