namespace Picollo.PerfEvents;

/// <summary>
/// Hardware cache events: the <c>config</c> of <see cref="PerfEventType.HardwareCache"/>, already combined as
/// cache id | operation &lt;&lt; 8 | result &lt;&lt; 16 (perf_hw_cache_id, perf_hw_cache_op_id, perf_hw_cache_op_result_id).
/// </summary>
public enum PerfCacheCounterId : ulong
{
    /// <summary>L1-dcache-loads.</summary>
    L1DReadAccess = 0x0,

    /// <summary>L1-dcache-load-misses.</summary>
    L1DReadMiss = 0x10000,

    /// <summary>L1-dcache-stores.</summary>
    L1DWriteAccess = 0x100,

    /// <summary>L1-dcache-store-misses.</summary>
    L1DWriteMiss = 0x10100,

    /// <summary>L1-dcache-prefetches.</summary>
    L1DPrefetchAccess = 0x200,

    /// <summary>L1-dcache-prefetch-misses.</summary>
    L1DPrefetchMiss = 0x10200,

    /// <summary>L1-icache-loads.</summary>
    L1IReadAccess = 0x1,

    /// <summary>L1-icache-load-misses.</summary>
    L1IReadMiss = 0x10001,

    /// <summary>L1-icache-stores.</summary>
    L1IWriteAccess = 0x101,

    /// <summary>L1-icache-store-misses.</summary>
    L1IWriteMiss = 0x10101,

    /// <summary>L1-icache-prefetches.</summary>
    L1IPrefetchAccess = 0x201,

    /// <summary>L1-icache-prefetch-misses.</summary>
    L1IPrefetchMiss = 0x10201,

    /// <summary>LLC-loads.</summary>
    LLReadAccess = 0x2,

    /// <summary>LLC-load-misses.</summary>
    LLReadMiss = 0x10002,

    /// <summary>LLC-stores.</summary>
    LLWriteAccess = 0x102,

    /// <summary>LLC-store-misses.</summary>
    LLWriteMiss = 0x10102,

    /// <summary>LLC-prefetches.</summary>
    LLPrefetchAccess = 0x202,

    /// <summary>LLC-prefetch-misses.</summary>
    LLPrefetchMiss = 0x10202,

    /// <summary>dTLB-loads.</summary>
    DTLBReadAccess = 0x3,

    /// <summary>dTLB-load-misses.</summary>
    DTLBReadMiss = 0x10003,

    /// <summary>dTLB-stores.</summary>
    DTLBWriteAccess = 0x103,

    /// <summary>dTLB-store-misses.</summary>
    DTLBWriteMiss = 0x10103,

    /// <summary>dTLB-prefetches.</summary>
    DTLBPrefetchAccess = 0x203,

    /// <summary>dTLB-prefetch-misses.</summary>
    DTLBPrefetchMiss = 0x10203,

    /// <summary>iTLB-loads.</summary>
    ITLBReadAccess = 0x4,

    /// <summary>iTLB-load-misses.</summary>
    ITLBReadMiss = 0x10004,

    /// <summary>iTLB-stores.</summary>
    ITLBWriteAccess = 0x104,

    /// <summary>iTLB-store-misses.</summary>
    ITLBWriteMiss = 0x10104,

    /// <summary>iTLB-prefetches.</summary>
    ITLBPrefetchAccess = 0x204,

    /// <summary>iTLB-prefetch-misses.</summary>
    ITLBPrefetchMiss = 0x10204,

    /// <summary>branch-loads.</summary>
    BranchReadAccess = 0x5,

    /// <summary>branch-load-misses.</summary>
    BranchReadMiss = 0x10005,

    /// <summary>branch-stores.</summary>
    BranchWriteAccess = 0x105,

    /// <summary>branch-store-misses.</summary>
    BranchWriteMiss = 0x10105,

    /// <summary>branch-prefetches.</summary>
    BranchPrefetchAccess = 0x205,

    /// <summary>branch-prefetch-misses.</summary>
    BranchPrefetchMiss = 0x10205,

    /// <summary>node-loads.</summary>
    NodeReadAccess = 0x6,

    /// <summary>node-load-misses.</summary>
    NodeReadMiss = 0x10006,

    /// <summary>node-stores.</summary>
    NodeWriteAccess = 0x106,

    /// <summary>node-store-misses.</summary>
    NodeWriteMiss = 0x10106,

    /// <summary>node-prefetches.</summary>
    NodePrefetchAccess = 0x206,

    /// <summary>node-prefetch-misses.</summary>
    NodePrefetchMiss = 0x10206,
}
