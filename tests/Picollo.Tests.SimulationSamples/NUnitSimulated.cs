using NUnit.Framework;
using Picollo.Testing.NUnit;

namespace Picollo.Tests.SimulationSamples;

#pragma warning disable CA1822 // Test methods are instance methods, as users write them.

[TestFixture]
public class NUnitSimulated
{
    // A test case: its data reaches the lean worker, which runs it without NUnit.
    [PerfTestCase(250, Counters = "sim-instructions,sim-cycles,allocated-bytes", MaxMean = "sim-cycles:100000", Baseline = false)]
    public ulong Chain(int steps) => SimulatedWork.Chain(steps);
}

[TestFixture]
public class NUnitSimulatedWithSetUp
{
    private string _text = string.Empty;

    // A set-up method: NUnit must run it, so the worker is NUnit's own (not the lean one).
    [SetUp]
    public void CreateText() => _text = "alpha beta gamma delta";

    [PerfTest(Counters = "sim-instructions", Baseline = false)]
    public int Count() => SimulatedWork.CountWords(_text);
}
