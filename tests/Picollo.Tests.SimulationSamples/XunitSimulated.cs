using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Testing;
using Picollo.Testing.Xunit;

namespace Picollo.Tests.SimulationSamples;

// Each class is run on its own by the adapter tests.
#pragma warning disable CA1822 // Test methods are instance methods, as users write them.

public class XunitSimulated
{
    private const string Sentence = "The quick brown fox jumps over the lazy dog, 42 times before breakfast.";

    // Two regions, each its own measurement in the one worker, the second asserted on fluently against the first.
    [PerfFact(Counters = "sim-instructions,sim-branch-misses,allocated-bytes", Baseline = false)]
    public void Regions(PerfContext perf)
    {
        PerfResult words = perf.Measure(Sentence, static s => SimulatedWork.CountWords(s));
        words.AllocatedBytes.ShouldHaveZeroBudget();
        PerfResult chain = perf.Measure(static () => SimulatedWork.Chain(400));
        chain.SimInstructions.ShouldHaveMeanAtMost(20 * words.SimInstructions.Mean);
        if (chain.SimInstructions.Mean <= words.SimInstructions.Mean)
            throw new InvalidOperationException($"400 steps counted {chain.SimInstructions.Mean}, a word count {words.SimInstructions.Mean}.");
    }
}

public class XunitSimulatedOnly
{
    // Nothing but simulated counters: where they cannot count, nothing is left to check. The test method loads a string
    // literal, code that addresses static data, which the worker's compiler settings are for (docs/COUNTERS.md, "Simulated
    // counters"): the adapter test checks that the worker compiled it, and everything else, optimized.
    [PerfFact(Counters = "sim-instructions", MaxMean = "sim-instructions:2000", Baseline = false)]
    public int Words() => SimulatedWork.CountWords("The quick brown fox jumps over the lazy dog, 42 times before breakfast.");
}

public class XunitSimulatedBaseline
{
    /// <summary>The variable that sets the chain's steps (300 by default): a test sets more to make a regression.</summary>
    public const string StepsVariable = "PICOLLO_SAMPLE_CHAIN_STEPS";

    // Read from the environment, which the simulation worker inherits: a static set in the test's process would not reach it.
    private static readonly int Steps = int.TryParse(Environment.GetEnvironmentVariable(StepsVariable), out int steps) ? steps : 300;

    [PerfFact(Counters = "sim-instructions,allocated-bytes")]
    public ulong Chain() => SimulatedWork.Chain(Steps);
}

public class XunitThrowsUnderSimulation
{
    [PerfFact(Counters = "sim-instructions", Baseline = false)]
    public int Work() => SimulatedWork.InWorker ? throw new InvalidOperationException("only in the worker") : SimulatedWork.CountWords("a b c");
}

public class XunitHangsUnderSimulation
{
    [PerfFact(Counters = "sim-instructions", Baseline = false)]
    public int Work()
    {
        while (SimulatedWork.InWorker)
            Thread.Sleep(100);
        return SimulatedWork.CountWords("a b c");
    }
}

