using System.Globalization;
using Picollo.Testing.Xunit;
using TextKit;

namespace Picollo.Benchmarks.AbBodies;

/// <summary>
/// The bodies of `bench ab`: a dependent multiply-add chain (steady), allocation units (allocated bytes grow with the work),
/// and the sample library's word count over a text (branchy: the body with per-process speeds). Each does
/// <see cref="Work"/> times its base amount, exactly: 900 steps, 100 units, 640 words at 1.0.
/// </summary>
public class AbBodies
{
    /// <summary>The work factor of this process: PICOLLO_BENCH_WORK, 1.0 when unset.</summary>
    public static readonly double Work = double.TryParse(Environment.GetEnvironmentVariable("PICOLLO_BENCH_WORK"), NumberStyles.Float, CultureInfo.InvariantCulture, out double w) ? w : 1.0;

    private static readonly int Steps = (int)Math.Round(900 * Work);
    private static readonly string Text = string.Join(' ', Enumerable.Range(0, (int)Math.Round(640 * Work)).Select(static i => "word" + (i % 7 == 0 ? "s," : string.Empty)));
    private readonly object[] _sink = new object[(int)Math.Round(100 * Work)];
    private ulong _x = 1;

    /// <summary>The chain.</summary>
    /// <returns>Its end, so the chain is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain()
    {
        ulong x = _x;
        for (int i = 0; i < Steps; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Allocation units: a byte[8] each, kept reachable, and a chain step.</summary>
    /// <returns>The chain's end.</returns>
    [PerfFact(Baseline = false)]
    public ulong Allocating()
    {
        object[] sink = _sink;
        ulong x = _x;
        for (int i = 0; i < sink.Length; i++)
        {
            byte[] array = new byte[8];
            sink[i] = array;
            x = (x * 6364136223846793005UL) + 1442695040888963407UL + (ulong)array.Length;
        }

        _x = x;
        return x;
    }

    /// <summary>The sample library's word count.</summary>
    /// <returns>The words.</returns>
    [PerfFact(Baseline = false)]
    public int Count() => Words.Count(Text);
}
