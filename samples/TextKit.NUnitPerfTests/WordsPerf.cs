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
    [PerfTest(ZeroBudget = "allocated-bytes")]
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
}
