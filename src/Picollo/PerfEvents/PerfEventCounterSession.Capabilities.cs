using System.Runtime.Intrinsics.X86;

namespace Picollo.PerfEvents;

public sealed partial class PerfEventCounterSession
{
    private static readonly string[] CorePmuDirectories =
    [
        "/sys/bus/event_source/devices/cpu",
        "/sys/bus/event_source/devices/cpu_core",
        "/sys/bus/event_source/devices/cpu_atom",
    ];

    /// <summary>
    /// The number of fixed and programmable hardware counters of the CPU PMU. Returns <see langword="false"/>
    /// with 0/0 when the kernel exposes no core PMU (<c>/sys/bus/event_source/devices/cpu</c>, <c>cpu_core</c>
    /// or <c>cpu_atom</c>: virtual machines without a vPMU, CI runners, non-Linux) or the counts are unknown.
    /// </summary>
    /// <param name="fixedCounters">Fixed-function counters (Intel: cycles, instructions, ref-cycles, …; AMD: 0).</param>
    /// <param name="programmableCounters">General-purpose counters per logical CPU.</param>
    /// <returns>Whether a core PMU exists and its counter counts are known.</returns>
    /// <remarks>
    /// Reads CPUID (Intel leaf 0xA; AMD leaf 0x80000022 or the PerfCtrExtCore bit), a VM exit costing µs:
    /// call it once, never on a hot path. On hybrid CPUs it describes the core type it runs on.
    /// </remarks>
    public static bool TryGetNumberOfCounters(out uint fixedCounters, out uint programmableCounters)
    {
        fixedCounters = 0;
        programmableCounters = 0;
        if (!OperatingSystem.IsLinux() || !X86Base.IsSupported || !Array.Exists(CorePmuDirectories, Directory.Exists))
            return false;

        (int maxLeaf, int vendorB, int vendorC, int vendorD) = X86Base.CpuId(0, 0);
        // "GenuineIntel" / "AuthenticAMD" in EBX, EDX, ECX: compare the first register ("Genu" / "Auth").
        const int Genu = 0x756E6547;
        const int Auth = 0x68747541;
        _ = vendorC;
        _ = vendorD;
        if (vendorB == Genu && maxLeaf >= 0xA)
        {
            (int eax, _, _, int edx) = X86Base.CpuId(0xA, 0);
            uint version = (uint)eax & 0xFF;
            programmableCounters = ((uint)eax >> 8) & 0xFF;
            fixedCounters = version > 1 ? (uint)edx & 0x1F : 0;
            return version > 0;
        }

        if (vendorB == Auth)
        {
            (int maxExtended, _, _, _) = X86Base.CpuId(unchecked((int)0x80000000), 0);
            if ((uint)maxExtended >= 0x80000022)
            {
                (int perfEax, int perfEbx, _, _) = X86Base.CpuId(unchecked((int)0x80000022), 0);
                if ((perfEax & 1) != 0)
                {
                    programmableCounters = (uint)perfEbx & 0xF; // PerfMonV2: NumPerfCtrCore
                    return true;
                }
            }

            (_, _, int ecx, _) = X86Base.CpuId(unchecked((int)0x80000001), 0);
            programmableCounters = (ecx & (1 << 23)) != 0 ? 6u : 4u; // PerfCtrExtCore: 6 core counters, else the legacy 4
            return true;
        }

        return false;
    }
}
