using System.Text;
using Picollo.Testing;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// Every kind of message the test layer gives, with the facts of a real test (issue 28): the golden file
/// <c>Approved/PerfTestMessages.approved.md</c> is what a reviewer reads when a refusal, a knob error or a skip changes.
/// </summary>
public sealed class PerfTestMessagesTests
{
    private const string PerfFact = "[PerfFact]";
    private const string PerfTheory = "[PerfTheory]";
    private const string Test = "WordsPerf.Count";
    private const string Worker = "WordsPerf.Count in TextKit.PerfTests.dll";
    private const string Knob = "[PerfFact] Counting.Fast Against = \"Slow\"";

    [Fact]
    public void EveryKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        void Case(string name, string message) => text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");

        Signatures(Case);
        Execution(Case);
        References(Case);
        Knobs(Case);
        FreshProcesses(Case);
        Simulation(Case);

        Approvals.Verify(text.ToString(), nameof(PerfTestMessages));
    }

    private static void Signatures(Action<string, string> add)
    {
        add(nameof(PerfTestMessages.AsyncTest), PerfTestMessages.AsyncTest(PerfFact, Test, "Count"));
        add(nameof(PerfTestMessages.GenericTest), PerfTestMessages.GenericTest(PerfFact, "WordsPerf.Count"));
        add(nameof(PerfTestMessages.ContextNotLast), PerfTestMessages.ContextNotLast(PerfTheory, Test, "perf"));
        add(
            nameof(PerfTestMessages.ParameterNotAValue) + ": by reference",
            PerfTestMessages.ParameterNotAValue(PerfTheory, Test, "words", false));
        add(
            nameof(PerfTestMessages.ParameterNotAValue) + ": a ref struct",
            PerfTestMessages.ParameterNotAValue(PerfTheory, Test, "span", true));
        add(
            nameof(PerfTestMessages.ParametersWithoutData),
            PerfTestMessages.ParametersWithoutData(PerfFact, Test, "Count", ["text", "times"]));
        add(nameof(PerfTestMessages.TooManyParameters), PerfTestMessages.TooManyParameters(PerfTheory, Test, "Count", 4, 3));
    }

    private static void Execution(Action<string, string> add)
    {
        add(nameof(PerfTestMessages.DeclaredChecksNeedOneRegion), PerfTestMessages.DeclaredChecksNeedOneRegion(PerfFact, Test, 2));
        add(nameof(PerfTestMessages.CaseDataMismatch), PerfTestMessages.CaseDataMismatch(PerfTheory, "Count", 1, 2));
        add(nameof(PerfTestMessages.WaitedForMachineLock), PerfTestMessages.WaitedForMachineLock(TimeSpan.FromSeconds(3.25)));
        add(nameof(PerfTestMessages.WaitedForJit), PerfTestMessages.WaitedForJit(TimeSpan.FromMilliseconds(1_840)));
        add(
            nameof(PerfTestMessages.FallbackChecked),
            PerfTestMessages.FallbackChecked("cpu-cycles", "no PMU on this machine (a VM without a virtual PMU)", "tsc"));
        add(
            nameof(PerfTestMessages.NoAssertionCouldRun) + ": one counter",
            PerfTestMessages.NoAssertionCouldRun(["MaxP50 on cpu-cycles: no PMU on this machine"]));
        add(
            nameof(PerfTestMessages.NoAssertionCouldRun) + ": several counters",
            PerfTestMessages.NoAssertionCouldRun(
                ["MaxP50 on cpu-cycles: no PMU on this machine", "MaxP99 on branch-misses: no PMU on this machine"]));
        add(
            nameof(PerfTestMessages.NotThisRow),
            PerfTestMessages.NotThisRow("/src/TextKit.NUnitPerfTests/FnvPerf.Hash.4096.perf.json"));
    }

    private static void References(Action<string, string> add)
    {
        add(nameof(PerfTestMessages.NoClassForReference), PerfTestMessages.NoClassForReference(PerfFact, "Fast", "Slow"));
        add(nameof(PerfTestMessages.AgainstWithContext), PerfTestMessages.AgainstWithContext(Knob, "Slow"));
        add(
            nameof(PerfTestMessages.ReferenceMisspelt),
            PerfTestMessages.ReferenceMisspelt(
                "[PerfFact] Counting.Fast Against = \"Slw\"", "Counting", "Slw", "int (string text)", ["Slow", "Show"]));
        add(
            nameof(PerfTestMessages.ReferenceNotAmong),
            PerfTestMessages.ReferenceNotAmong(Knob, "Counting", "Slow", "int (string text)", ["Naive", "Previous"]));
        add(
            nameof(PerfTestMessages.ReferenceMissing),
            PerfTestMessages.ReferenceMissing(Knob, "Counting", "Slow", "int (string text)", "int", "string text"));
        add(
            nameof(PerfTestMessages.ReferenceIsTheTest),
            PerfTestMessages.ReferenceIsTheTest("[PerfFact] Counting.Fast Against = \"Fast\"", "Counting", "int (string text)"));
        add(
            nameof(PerfTestMessages.ReferenceParametersDiffer) + ": other parameters",
            PerfTestMessages.ReferenceParametersDiffer(Knob, "Counting", "Slow", "string text, int times", "string text"));
        add(
            nameof(PerfTestMessages.ReferenceParametersDiffer) + ": generic",
            PerfTestMessages.ReferenceParametersDiffer(Knob, "Counting", "Slow", null, "string text"));
        add(
            nameof(PerfTestMessages.ReferenceReturnsOther),
            PerfTestMessages.ReferenceReturnsOther(Knob, "Counting", "Slow", "long", "int"));
        add(
            nameof(PerfTestMessages.DataDoesNotFit),
            PerfTestMessages.DataDoesNotFit(
                "Count", ["String", "Int32"], "Unable to cast object of type 'System.Int64' to type 'System.Int32'."));
    }

    private static void Knobs(Action<string, string> add)
    {
        add(
            nameof(PerfTestMessages.InvalidKnob) + ": a number",
            PerfTestMessages.InvalidKnob(
                PerfFact,
                "Samples",
                "5",
                "a measurement needs at least 10 samples",
                "a whole number of samples, 10 or more (1,000 by default)"));
        add(
            nameof(PerfTestMessages.InvalidKnob) + ": text, from the assembly",
            PerfTestMessages.InvalidKnob(
                "[assembly: PerfDefaults]",
                "MaxP50",
                "tsc=20000",
                "'tsc=20000' is not counter:value",
                "\"counter:value,counter:value\" with values per operation, e.g. \"tsc:20000,allocated-bytes:64\""));
        add(nameof(PerfTestMessages.AgainstNamesNoMethod), PerfTestMessages.AgainstNamesNoMethod(PerfFact, " "));
        add(nameof(PerfTestMessages.MinSpeedupOutOfRange), PerfTestMessages.MinSpeedupOutOfRange(PerfFact, -2));
        add(nameof(PerfTestMessages.ClaimWithoutAgainst), PerfTestMessages.ClaimWithoutAgainst(PerfFact, "MinSpeedup", 1.5));
        add(nameof(PerfTestMessages.BaselineBesideAgainst), PerfTestMessages.BaselineBesideAgainst(PerfFact, "NaiveCount"));
        add(nameof(PerfTestMessages.MaxChangeBesideAgainst), PerfTestMessages.MaxChangeBesideAgainst(PerfFact, 0.05, "NaiveCount"));
        add(nameof(PerfTestMessages.MaxCohensDBesideAgainst), PerfTestMessages.MaxCohensDBesideAgainst(PerfFact, 0.8, "NaiveCount"));
        add(nameof(PerfTestMessages.MinCohensDWithoutMinSpeedup), PerfTestMessages.MinCohensDWithoutMinSpeedup(PerfFact, 0.8));
    }

    private static void Simulation(Action<string, string> add)
    {
        string[] lastWords = ["Picollo simulation worker: the test failed: System.InvalidOperationException: only in the worker.",
            "valgrind: Process terminating with default action of signal 6 (SIGABRT)"];
        add(nameof(PerfTestMessages.SimulationWorkerDidNotStart), PerfTestMessages.SimulationWorkerDidNotStart(Worker, "/usr/bin/valgrind"));
        add(
            nameof(PerfTestMessages.SimulationWorkerCouldNotStart),
            PerfTestMessages.SimulationWorkerCouldNotStart(Worker, "/opt/valgrind", "An error occurred trying to start process '/opt/valgrind'. Permission denied"));
        add(
            nameof(PerfTestMessages.SimulationFailed),
            PerfTestMessages.SimulationFailed(Worker, "System.InvalidOperationException: only in the worker.", lastWords));
        add(nameof(PerfTestMessages.SimulationWorkerExitedEarly), PerfTestMessages.SimulationWorkerExitedEarly(Worker, 134, 0, lastWords));
        add(
            nameof(PerfTestMessages.SimulationTimedOut),
            PerfTestMessages.SimulationTimedOut(Worker, TimeSpan.FromSeconds(300), "PICOLLO_SIMULATION_TIMEOUT", []));
        add(
            nameof(PerfTestMessages.SimulationUnreadable),
            PerfTestMessages.SimulationUnreadable(Worker, "region-0.json is not a measurement it writes: '}' is invalid after a value."));
        add(nameof(PerfTestMessages.NoSimulationWorker), PerfTestMessages.NoSimulationWorker("WordsPerf.Count"));
        add(nameof(PerfTestMessages.NotThisSimulatedTest), PerfTestMessages.NotThisSimulatedTest("TextKit.PerfTests.FnvPerf.Hash|256"));
        add(nameof(PerfTestMessages.SimulatedInTheFirstPair), PerfTestMessages.SimulatedInTheFirstPair());
        add(nameof(PerfTestMessages.LeanDataUnreadable), PerfTestMessages.LeanDataUnreadable("'v' was not found."));
        add(
            nameof(PerfTestMessages.LeanTypeNotFound),
            PerfTestMessages.LeanTypeNotFound("TextKit.Mode, TextKit, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null"));
        add(nameof(PerfTestMessages.LeanWorkerRan) + ": ran", PerfTestMessages.LeanWorkerRan("FnvPerf.Hash(256)", null));
        add(
            nameof(PerfTestMessages.LeanWorkerRan) + ": skipped",
            PerfTestMessages.LeanWorkerRan("FnvPerf.Hash(256)", "Not measured: this process is the simulation worker of TextKit.PerfTests.FnvPerf.Hash|4096."));
        add(
            nameof(PerfTestMessages.LeanWorkerCouldNotRun),
            PerfTestMessages.LeanWorkerCouldNotRun("MissingMethodException", "Cannot dynamically create an instance of type 'WordsPerf'."));
        add(
            nameof(PerfTestMessages.LeanWorkerTestFailed),
            PerfTestMessages.LeanWorkerTestFailed("System.IndexOutOfRangeException", "Index was outside the bounds of the array."));
    }

    private static void FreshProcesses(Action<string, string> add)
    {
        add(nameof(PerfTestMessages.FreshProcessDidNotStart), PerfTestMessages.FreshProcessDidNotStart(Worker, "/usr/share/dotnet/dotnet"));
        add(
            nameof(PerfTestMessages.FreshProcessCouldNotStart),
            PerfTestMessages.FreshProcessCouldNotStart(
                Worker, "dotnet", "An error occurred trying to start process 'dotnet'. No such file or directory"));
        add(
            nameof(PerfTestMessages.FreshProcessUnreadable),
            PerfTestMessages.FreshProcessUnreadable(Worker, "measurement.0.json is not a baseline record: '}' is invalid after a value."));
        add(
            nameof(PerfTestMessages.FreshProcessTimedOut) + ": no output",
            PerfTestMessages.FreshProcessTimedOut(Worker, TimeSpan.FromSeconds(102), []));
        add(
            nameof(PerfTestMessages.FreshProcessRanNoFinalCode),
            PerfTestMessages.FreshProcessRanNoFinalCode(Worker, 2, "Warmup stopped after 1,501 ms, before the body's method got its tier-1 code."));
        add(
            nameof(PerfTestMessages.FreshProcessExitedEarly) + ": its last output",
            PerfTestMessages.FreshProcessExitedEarly(
                Worker,
                1,
                ["Discovering: TextKit.PerfTests", "Starting: TextKit.PerfTests", "[FAIL] WordsPerf.Count", "Unhandled exception."]));
    }
}
