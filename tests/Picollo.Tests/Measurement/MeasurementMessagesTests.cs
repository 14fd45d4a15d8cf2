using System.Net.Sockets;
using System.Text;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Measurement;

/// <summary>
/// Every kind of message the measurement engine gives, with the facts of a real run (issue 28): the golden file
/// <c>Approved/MeasurementMessages.approved.md</c> is what a reviewer reads when a note or an error changes.
/// </summary>
public sealed class MeasurementMessagesTests
{
    private const string WarmupNote = "Warmup stopped at 1,500 ms with the body's code still tier-0.";

    private static readonly string[] s_own = ["tsc", "allocated-bytes", "gen0-collections", "jit-compilations"];

    [Fact]
    public void EveryKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        void Case(string name, string message) => text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");

        Case(nameof(MeasurementMessages.NestedMeasurement), MeasurementMessages.NestedMeasurement());
        Case(nameof(MeasurementMessages.WaitedForMachineLock), MeasurementMessages.WaitedForMachineLock(TimeSpan.FromSeconds(12.34)));
        Case(nameof(MeasurementMessages.EngineBuiltUnoptimized), MeasurementMessages.EngineBuiltUnoptimized("Debug configuration"));
        Case(
            nameof(MeasurementMessages.UnoptimizedCode) + ": NoOptimization",
            MeasurementMessages.UnoptimizedCode(
                "Parsing.Parse",
                "because it is marked [MethodImpl(MethodImplOptions.NoOptimization)]",
                "Remove that flag to measure optimized code."));
        Case(
            nameof(MeasurementMessages.UnoptimizedCode) + ": a lambda, under a debugger",
            MeasurementMessages.UnoptimizedCode(
                "(a lambda in ParsingPerf.Tokens)", "under the attached debugger", "Measure without a debugger."));
        Case(
            nameof(MeasurementMessages.UnoptimizedBuild) + ": the measured body",
            MeasurementMessages.UnoptimizedBuild(
                null,
                "Parsing.Parse",
                "TextKit.PerfTests.dll",
                "Debug configuration",
                "Run it in Release: `dotnet test -c Release` (or `dotnet run -c Release`)."));
        Case(
            nameof(MeasurementMessages.UnoptimizedBuild) + ": a perf test",
            MeasurementMessages.UnoptimizedBuild(
                "The perf test WordsPerf.Count",
                "WordsPerf.Count",
                "TextKit.PerfTests.dll",
                "Checked configuration with <Optimize>false</Optimize>",
                "Remove <Optimize>false</Optimize> from its project."));
        Case(
            nameof(MeasurementMessages.InstrumentedByCoverlet) + ": a perf test",
            MeasurementMessages.InstrumentedByCoverlet(
                "The perf test WordsPerf.Count",
                "WordsPerf.Count",
                ["TextKit.dll"],
                "Coverlet.Core.Instrumentation.Tracker.TextKit_6a6bd7e7-3a6f-4a35-8597-baabbd370d19"));
        Case(
            nameof(MeasurementMessages.InstrumentedByCoverlet) + ": the measured body, two modules",
            MeasurementMessages.InstrumentedByCoverlet(
                null,
                "(a lambda in WordsPerf.Count)",
                ["TextKit.Core.dll", "TextKit.dll"],
                "Coverlet.Core.Instrumentation.Tracker.TextKit.Core_0b7e1c52-94d3-4c8e-a1f0-2d6b9e3c4a15"));
        Case(
            nameof(MeasurementMessages.InstrumentedByProfiler),
            MeasurementMessages.InstrumentedByProfiler(
                "The perf test WordsPerf.Count",
                "WordsPerf.Count",
                "/opt/cover/libCoverProfiler.so (CORECLR_PROFILER_PATH_64, {324F817A-7420-4E6D-B3C1-143FBED6D855})",
                "CORECLR_ENABLE_PROFILING=1"));
        Case(nameof(MeasurementMessages.CounterNotOpened), MeasurementMessages.CounterNotOpened("cache-misses"));
        Case(
            nameof(MeasurementMessages.NotACounter),
            MeasurementMessages.NotACounter("cpu/cycles", s_own, "the PMU 'cpu' has no event 'cycles' on this machine"));
        Case(
            nameof(MeasurementMessages.UnknownCounter) + ": near names",
            MeasurementMessages.UnknownCounter("allocated-byte", s_own, ["allocated-bytes"]));
        Case(
            nameof(MeasurementMessages.UnknownCounter) + ": a modifier, nothing near",
            MeasurementMessages.UnknownCounter("frobnications:u", s_own, []));
        Case(nameof(MeasurementMessages.CounterNotMeasured), MeasurementMessages.CounterNotMeasured("branch-misses"));
        Case(
            nameof(MeasurementMessages.MachineWasBusy),
            MeasurementMessages.MachineWasBusy(
                "Machine: other processes used 1.20 of 2 cores during the test; 0.0% of CPU time stolen by the hypervisor."));
        Case(
            nameof(MeasurementMessages.MachineLockTimedOut),
            MeasurementMessages.MachineLockTimedOut(
                TimeSpan.FromMinutes(10), "flock on /tmp/picollo-lock; `fuser /tmp/picollo-lock` lists the processes that have it open"));
        Case(nameof(MeasurementMessages.MachineChangedSpeed), MeasurementMessages.MachineChangedSpeed(412.25, 618.5));
        Case(nameof(MeasurementMessages.OtherProcessesBusy), MeasurementMessages.OtherProcessesBusy(1.234, 2));
        Case(
            nameof(MeasurementMessages.SamplingStoppedAtBudget),
            MeasurementMessages.SamplingStoppedAtBudget(TimeSpan.FromMilliseconds(1_000), 412, 1_000));
        Case(nameof(MeasurementMessages.ComparisonSetAside), MeasurementMessages.ComparisonSetAside(WarmupNote));
        Case("ComparisonMeasuredAgain: the last one ran final code", MeasurementMessages.ComparisonMeasuredAgain(1, null));
        Case("ComparisonMeasuredAgain: still not final", MeasurementMessages.ComparisonMeasuredAgain(2, WarmupNote));
        Case(
            nameof(MeasurementMessages.PairsStoppedAtBudget),
            MeasurementMessages.PairsStoppedAtBudget(TimeSpan.FromMilliseconds(2_500), 1_234, 2_000));
        Case(nameof(MeasurementMessages.BudgetCappedOperations), MeasurementMessages.BudgetCappedOperations(1_200, Pilot.BoundaryShare));
        Case(nameof(MeasurementMessages.JitOnMeasuringThread), MeasurementMessages.JitOnMeasuringThread(3));
        Case(nameof(MeasurementMessages.JitInProcess), MeasurementMessages.JitInProcess(1_452));
        Case(nameof(MeasurementMessages.WarmupStoppedBeforeTier1), MeasurementMessages.WarmupStoppedBeforeTier1(1_500, "tier-0"));
        Case(nameof(MeasurementMessages.WarmupStoppedWhileCompiling), MeasurementMessages.WarmupStoppedWhileCompiling(500));
        Case(nameof(MeasurementMessages.NoGCRegionOverLimit), MeasurementMessages.NoGCRegionOverLimit(412_345_678, 256L << 20));
        Case(nameof(MeasurementMessages.NoGCRegionNotReserved), MeasurementMessages.NoGCRegionNotReserved());
        Case(nameof(MeasurementMessages.NoGCRegionLeft), MeasurementMessages.NoGCRegionLeft());
        Case(nameof(MeasurementMessages.PinningFailed), MeasurementMessages.PinningFailed("sched_setaffinity", "EPERM (1)"));
        Case(nameof(MeasurementMessages.CpuOutsideAffinityMask), MeasurementMessages.CpuOutsideAffinityMask(1_100, 1_024));
        Case(
            nameof(MeasurementMessages.ComparisonBodyThrew) + ": a named body",
            MeasurementMessages.ComparisonBodyThrew(
                "candidate", "FastCount", "IndexOutOfRangeException", "Index was outside the bounds of the array."));
        Case(
            nameof(MeasurementMessages.ComparisonBodyThrew) + ": an unnamed body",
            MeasurementMessages.ComparisonBodyThrew(
                "reference", "reference", "FormatException", "The input string 'x' was not in a correct format."));
        Case(nameof(MeasurementMessages.AbProtocolUnknown), MeasurementMessages.AbProtocolUnknown("Q"));
        Case(
            nameof(MeasurementMessages.AbChannelClosed),
            MeasurementMessages.AbChannelClosed("/tmp/picollo-ab-4242/channel", SocketError.ConnectionRefused));
        Case(
            nameof(MeasurementMessages.AbRecordUnreadable),
            MeasurementMessages.AbRecordUnreadable(
                "/tmp/picollo-ab-4242/head.result.0001.json", "'}' is invalid after a value. LineNumber: 0 | BytePositionInLine: 41."));

        Case(nameof(MeasurementMessages.SimulatedNotMeasuredHere), MeasurementMessages.SimulatedNotMeasuredHere("sim-instructions"));
        Case(
            nameof(MeasurementMessages.SimulationSkippedUnoptimized),
            MeasurementMessages.SimulationSkippedUnoptimized(
                "The measured body WordsPerf.Count is in TextKit.PerfTests, built without optimizations (Debug). Run it in Release"));
        Case(nameof(MeasurementMessages.MeasuredByTheTestProcess), MeasurementMessages.MeasuredByTheTestProcess("tsc"));
        Case(
            nameof(MeasurementMessages.SimulatedRun),
            MeasurementMessages.SimulatedRun(
                10, 301, "callgrind 3.19.0, X64 (avx avx2 bmi1 bmi2 fma lzcnt popcnt sse4.2), .NET 10.0.12, GC workstation, non-concurrent",
                TimeSpan.FromSeconds(7.84)));

        Approvals.Verify(text.ToString(), nameof(MeasurementMessages));
    }
}
