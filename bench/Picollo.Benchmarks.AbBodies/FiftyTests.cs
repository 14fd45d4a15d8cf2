using System.Globalization;
using Picollo.Testing.Xunit;
using TextKit;

namespace Picollo.Benchmarks.AbBodies;

/// <summary>
/// A 50-test project for `bench ab --fifty`: what a team's perf-test project looks like to `picollo ab` (many tests, short
/// bodies of a few kinds and sizes), to time a whole A/A and +5 % run. Five kinds of body (a dependent chain, the sample
/// library's word count, a sum over an array, dictionary lookups, number formatting) at ten sizes each; each does
/// <see cref="AbBodies.Work"/> times its base amount. Written by a script; the bodies are what matters, not the methods.
/// </summary>
public class FiftyTests
{
    private static readonly double Work = AbBodies.Work;
    private static readonly string[] Texts = [.. Enumerable.Range(1, 10).Select(static n => string.Join(' ', Enumerable.Range(0, (int)Math.Round(40 * n * Work)).Select(static i => "word" + (i % 5 == 0 ? "s," : string.Empty))))];
    private static readonly int[][] Arrays = [.. Enumerable.Range(1, 10).Select(static n => Enumerable.Range(0, (int)Math.Round(200 * n * Work)).ToArray())];
    private static readonly Dictionary<int, int> Map = Enumerable.Range(0, 4096).ToDictionary(static i => i * 7, static i => i);
    private static readonly int[] LookupCounts = [.. Enumerable.Range(1, 10).Select(static n => (int)Math.Round(20 * n * Work))];
    private static readonly int[] FormatCounts = [.. Enumerable.Range(1, 10).Select(static n => (int)Math.Round(4 * n * Work))];
    private static readonly int[] ChainSteps = [.. Enumerable.Range(1, 10).Select(static n => (int)Math.Round(150 * n * Work))];
    private readonly char[] _buffer = new char[32];
    private ulong _x = 1;

    /// <summary>Chain, size 1.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain01()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[0]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 1.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count01() => Words.Count(Texts[0]);

    /// <summary>Sum, size 1.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum01()
    {
        long sum = 0;
        foreach (int v in Arrays[0])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 1.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup01()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[0]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 1.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format01()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[0]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 2.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain02()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[1]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 2.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count02() => Words.Count(Texts[1]);

    /// <summary>Sum, size 2.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum02()
    {
        long sum = 0;
        foreach (int v in Arrays[1])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 2.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup02()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[1]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 2.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format02()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[1]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 3.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain03()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[2]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 3.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count03() => Words.Count(Texts[2]);

    /// <summary>Sum, size 3.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum03()
    {
        long sum = 0;
        foreach (int v in Arrays[2])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 3.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup03()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[2]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 3.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format03()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[2]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 4.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain04()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[3]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 4.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count04() => Words.Count(Texts[3]);

    /// <summary>Sum, size 4.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum04()
    {
        long sum = 0;
        foreach (int v in Arrays[3])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 4.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup04()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[3]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 4.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format04()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[3]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 5.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain05()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[4]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 5.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count05() => Words.Count(Texts[4]);

    /// <summary>Sum, size 5.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum05()
    {
        long sum = 0;
        foreach (int v in Arrays[4])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 5.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup05()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[4]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 5.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format05()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[4]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 6.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain06()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[5]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 6.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count06() => Words.Count(Texts[5]);

    /// <summary>Sum, size 6.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum06()
    {
        long sum = 0;
        foreach (int v in Arrays[5])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 6.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup06()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[5]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 6.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format06()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[5]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 7.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain07()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[6]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 7.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count07() => Words.Count(Texts[6]);

    /// <summary>Sum, size 7.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum07()
    {
        long sum = 0;
        foreach (int v in Arrays[6])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 7.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup07()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[6]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 7.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format07()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[6]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 8.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain08()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[7]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 8.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count08() => Words.Count(Texts[7]);

    /// <summary>Sum, size 8.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum08()
    {
        long sum = 0;
        foreach (int v in Arrays[7])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 8.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup08()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[7]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 8.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format08()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[7]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 9.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain09()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[8]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 9.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count09() => Words.Count(Texts[8]);

    /// <summary>Sum, size 9.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum09()
    {
        long sum = 0;
        foreach (int v in Arrays[8])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 9.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup09()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[8]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 9.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format09()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[8]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }

    /// <summary>Chain, size 10.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public ulong Chain10()
    {
        ulong x = _x;
        for (int i = 0; i < ChainSteps[9]; i++)
            x = (x * 6364136223846793005UL) + 1442695040888963407UL;
        _x = x;
        return x;
    }

    /// <summary>Count, size 10.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Count10() => Words.Count(Texts[9]);

    /// <summary>Sum, size 10.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public long Sum10()
    {
        long sum = 0;
        foreach (int v in Arrays[9])
            sum += v ^ (v >> 3);
        return sum;
    }

    /// <summary>Lookup, size 10.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Lookup10()
    {
        int found = 0;
        for (int i = 0; i < LookupCounts[9]; i++)
            found += Map.TryGetValue(i * 7 * 13 % 28672, out int v) ? v : 0;
        return found;
    }

    /// <summary>Format, size 10.</summary>
    /// <returns>The result, so the work is not removed.</returns>
    [PerfFact(Baseline = false)]
    public int Format10()
    {
        int written = 0;
        for (int i = 0; i < FormatCounts[9]; i++)
            written += (12345 + i).TryFormat(_buffer, out int chars, default, CultureInfo.InvariantCulture) ? chars : 0;
        return written;
    }
}
