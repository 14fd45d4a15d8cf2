using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.NUnit;
using TextKit;

namespace TextKit.NUnitPerfTests;

public class WordsPerf
{
    private const string Sentence = "The quick brown fox jumps over the lazy dog, 42 times before breakfast.";

    // The body is the operation: counting must never allocate, and its time is judged against WordsPerf.Count.perf.json.
    // Its instructions are counted under Valgrind (simulated counters: any runner, no PMU), the same number on every
    // machine: about 1,300 per operation, judged to 0.1 % against the file's simulated entry. Where the machine has no
    // PMU, its branch misses are simulated too.
    [PerfTest(ZeroBudget = "allocated-bytes", MaxMean = "sim-instructions:1500", Fallback = "branch-misses->sim-branch-misses")]
    public int Count() => Words.Count(Sentence);

    // A region of a test: the input is built outside the measurement; the assertions read the result.
    [PerfTest]
    public void Tokenize(PerfContext perf)
    {
        string text = string.Join(' ', Enumerable.Repeat(Sentence, 4));
        PerfResult result = perf.Measure(text, static t => Words.Tokenize(t));
        result.AllocatedBytes.ShouldHaveMeanAtMost(4_500);
        result.ShouldNotRegress();
    }

    // Relative: counting in place against splitting, side by side in one run (no baseline file; holds on any machine).
    // Counting was 3× faster here (tsc 0.33-0.34×), so 1.5× leaves room for another CPU without hiding a lost advantage.
    [PerfTest]
    public void CountBeatsSplit(PerfContext perf)
    {
        PerfComparison c = perf.Compare(Sentence, static s => s.Split(' ').Length, static s => Words.Count(s));
        c.Tsc.ShouldBeFasterBy(1.5);
        c.AllocatedBytes.ShouldNotIncrease();
    }
}
