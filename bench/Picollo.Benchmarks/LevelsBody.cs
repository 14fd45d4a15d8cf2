using Picollo.Measurement;
using TextKit;

namespace Picollo.Benchmarks;

/// <summary>
/// A body of the levels experiment (issue 24) at a work factor: 2.0 does everything twice.
/// </summary>
/// <param name="Name">The body's name in the results.</param>
/// <param name="Description">What it does, for RESULTS.md.</param>
/// <param name="Measure">Measures the body at a work factor with the given options.</param>
internal sealed record LevelsBody(string Name, string Description, Func<PerfOptions, double, PerfResult> Measure)
{
    // Declared before the text built from them: static fields initialize in order.
    private static readonly string[] s_words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "42", "times"];

    private static readonly string s_text64 = string.Join(' ', Enumerable.Range(0, 64).Select(static i => s_words[i % s_words.Length]));

    private const string Sentence = "The quick brown fox jumps over the lazy dog, 42 times before breakfast.";

    public static LevelsBody[] All { get; } =
    [
        new("count64", "`Words.Count` over 64 words (samples/TextKit, branchy, no allocation)",
            static (options, work) => Perf.Measure(options, new Repeat(s_text64, work), static r => r.Count())),
        new("count71", "`Words.Count` over the 71-character sentence of the samples' WordsPerf.Count",
            static (options, work) => Perf.Measure(options, new Repeat(Sentence, work), static r => r.Count())),
        new("tokenize", "`Words.Tokenize` of the sentence (allocates a list and 13 strings per call)",
            static (options, work) => Perf.Measure(options, new Repeat(Sentence, work), static r => r.Tokenize())),
        new("leveled", "`Words.Count` over 64 words, repeated 4, 5 or 8 times by the process's level (a model of the 2,100-2,155 tick levels of the issue's VM): drawn at process start, switched every 2-6 s with probability 1/3",
            static (options, work) => Perf.Measure(options, new Repeat(s_text64, work), static r => r.Leveled())),
    ];

    /// <summary>The level of the <c>leveled</c> body: how many times it counts the text per call (4, 5 or 8).</summary>
    private static volatile int s_level = StartLevel();

    private static int StartLevel()
    {
        int[] levels = [4, 5, 8];
        var timer = new Thread(() =>
        {
            while (true)
            {
                Thread.Sleep(Random.Shared.Next(2_000, 6_000));
                if (Random.Shared.Next(3) == 0)
                    s_level = levels[Random.Shared.Next(levels.Length)];
            }
        })
        { IsBackground = true, Name = "levels-switch" };
        timer.Start();
        return levels[Random.Shared.Next(levels.Length)];
    }

    /// <summary>
    /// The work of one call: the text, how many times (the rounded work factor). Each count starts where the last one's
    /// result says (at character 0 or 1), so the calls form one dependent chain: independent calls of a short body overlap
    /// in the out-of-order core, and twice the calls then cost far less than twice the time (the 71-character count rose
    /// 28 % for 2× the calls), which would make "2× work" a smaller change than its name.
    /// </summary>
    private sealed class Repeat(string text, double work)
    {
        private readonly string _text = text;
        private readonly int _times = Math.Max(1, (int)Math.Round(work));
        private readonly double _work = work;
        private int _last;

        public int Count() => _last = Chain(_times);

        public int Tokenize()
        {
            int tokens = _last;
            for (int i = 0; i < _times; i++)
                tokens = Words.Tokenize(_text[(tokens & 1)..]).Count;
            return _last = tokens;
        }

        public int Leveled() => _last = Chain((int)Math.Round(s_level * _work));

        private int Chain(int calls)
        {
            int words = _last;
            for (int i = 0; i < calls; i++)
                words = Words.Count(_text.AsSpan(words & 1));
            return words;
        }
    }
}
