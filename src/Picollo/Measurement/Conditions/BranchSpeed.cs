using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace Picollo.Measurement.Conditions;

/// <summary>
/// A branchy reference timed between the samples beside the core loop (<see cref="MachineSpeed"/>): how fast the machine
/// ran code that leans on the branch predictor, which a shared host can slow on its own (docs/VERDICTS.md, "Levels").
/// </summary>
/// <remarks>
/// A shared host can slow branchy code for minutes while the core loop does not move (docs/VERDICTS.md, "Levels", has the
/// measurements). This reference is a word count of its own over a fixed text (a 64-word cycle, as learnable as the
/// samples' texts): timed at recording and at verdict time, its ratio bounds what unchanged branchy code may show.
/// </remarks>
internal static class BranchSpeed
{
    /// <summary>
    /// Passes over the text per timing: about 22,000 characters, some 12 µs at the 0.55 ns per character of the fast
    /// state.
    /// </summary>
    public const int Passes = 80;

    private static readonly string[] s_words =
        ["send", "a", "packet", "to", "host", "42", "over", "the", "slow", "link", "x9", "and", "wait"];

    /// <summary>The text: 64 words of a fixed 13-word list in a fixed order (a step of 5 through it), about 280 characters.</summary>
    private static readonly string s_text = string.Join(' ', Enumerable.Range(0, 64).Select(static i => s_words[(i * 5) % s_words.Length]));

    private static int s_sink;

    /// <summary>The characters one timing scans.</summary>
    public static int Characters => s_text.Length * Passes;

    /// <summary>Times the reference once on the calling thread.</summary>
    /// <returns>The <see cref="Stopwatch"/> ticks <see cref="Passes"/> word counts of the text took.</returns>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static long Time()
    {
        long t0 = Stopwatch.GetTimestamp();
        int words = 0;
        for (int i = 0; i < Passes; i++)
            words += Count(s_text);
        s_sink += words;
        return Stopwatch.GetTimestamp() - t0;
    }

    /// <summary>Nanoseconds per 1,000 characters for a timing of <paramref name="ticks"/>.</summary>
    public static double ToNanosecondsPerThousand(long ticks) => ticks * 1e9 / Stopwatch.Frequency * 1_000 / Characters;

    /// <summary>The floor of a few timings in a row: for a run too short to interleave any with its samples.</summary>
    /// <returns>Nanoseconds per 1,000 characters at the machine's current state.</returns>
    public static double Probe() => ToNanosecondsPerThousand(ReferenceProbes.Floor(Time));

    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private static int Count(string text)
    {
        int words = 0;
        bool inWord = false;
        foreach (char c in text)
        {
            bool letter = char.IsLetterOrDigit(c);
            if (letter && !inWord)
                words++;
            inWord = letter;
        }

        return words;
    }
}
