using System.Collections.Immutable;
using System.Runtime.Intrinsics.Arm;
using System.Runtime.Intrinsics.X86;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// The instruction-set extensions the runtime may use in this process: what decides the code the JIT emits for a body, so
/// instruction counts compare only between processes that saw the same ones. Under Valgrind they are Valgrind's synthetic
/// CPU's, not the host's (docs/COUNTERS.md, "Simulated counters").
/// </summary>
internal static class InstructionSets
{
    /// <summary>This process's extensions, sorted ordinally.</summary>
    public static ImmutableArray<string> Current { get; } = Read();

    // The extensions that change the code the JIT emits, hence instruction counts; the rest would only make
    // more machines look different.
    private static ImmutableArray<string> Read()
    {
        var isa = new List<string>();
        void Add(bool supported, string name)
        {
            if (supported)
                isa.Add(name);
        }

        Add(Sse42.IsSupported, "sse4.2");
        Add(Popcnt.IsSupported, "popcnt");
        Add(Avx.IsSupported, "avx");
        Add(Avx2.IsSupported, "avx2");
        Add(Fma.IsSupported, "fma");
        Add(Bmi1.IsSupported, "bmi1");
        Add(Bmi2.IsSupported, "bmi2");
        Add(Lzcnt.IsSupported, "lzcnt");
        Add(Avx512F.IsSupported, "avx512f");
        Add(Avx512BW.IsSupported, "avx512bw");
        Add(Avx512CD.IsSupported, "avx512cd");
        Add(Avx512DQ.IsSupported, "avx512dq");
        Add(Avx512Vbmi.IsSupported, "avx512vbmi");
        Add(AdvSimd.IsSupported, "advsimd");
        Add(Crc32.IsSupported, "crc32");
        Add(Dp.IsSupported, "dotprod");
        Add(Rdm.IsSupported, "rdm");
        return [.. isa.Order(StringComparer.Ordinal)];
    }
}
