using System.Text;
using Picollo.Simulation;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Simulation;

public sealed class SimulationMessagesTests
{
    [Fact]
    public void EveryMessage_MatchesTheGoldenFile()
    {
        var text = new StringBuilder();
        void Case(string name, string message) => text.Append("## ").Append(name).Append("\n\n").Append(message).Append("\n\n");

        Case(nameof(SimulationMessages.NotADump), SimulationMessages.NotADump("/tmp/picollo-simulation-1/callgrind.out.3-05", "hello"));
        Case(
            nameof(SimulationMessages.DumpWithoutTotals),
            SimulationMessages.DumpWithoutTotals("/tmp/picollo-simulation-1/callgrind.out.3-05", "summary:"));
        Case(
            nameof(SimulationMessages.DumpOfAnotherRegion),
            SimulationMessages.DumpOfAnotherRegion("/tmp/picollo-simulation-1/callgrind.out.3-05", "picollo-sample", "at exit"));
        Case(
            nameof(SimulationMessages.DumpNumberUnreadable),
            SimulationMessages.DumpNumberUnreadable("/tmp/picollo-simulation-1/callgrind.out.3-05", 17, "12x4"));
        Case(nameof(SimulationMessages.NoDumpWritten), SimulationMessages.NoDumpWritten("/tmp/picollo-simulation-1/callgrind.out", 3));
        Case(nameof(SimulationMessages.CollectionsInSamples), SimulationMessages.CollectionsInSamples(2, 10));
        Case(nameof(SimulationMessages.CountsNeverSettled), SimulationMessages.CountsNeverSettled(30));
        Case(nameof(SimulationMessages.WarmupStillCompiling), SimulationMessages.WarmupStillCompiling(TimeSpan.FromSeconds(60)));
        Case(
            nameof(SimulationMessages.RegionUnreadable),
            SimulationMessages.RegionUnreadable("/tmp/picollo-simulation-1/region-0.json", "'}' is invalid after a value."));
        Case(nameof(SimulationMessages.WorkerNotUnderCallgrind), SimulationMessages.WorkerNotUnderCallgrind("/tmp/picollo-simulation-1"));
        Case(nameof(SimulationMessages.NotLinux), SimulationMessages.NotLinux("Microsoft Windows 10.0.26100"));
        Case(nameof(SimulationMessages.NotX64), SimulationMessages.NotX64("Arm64"));
        Case(
            nameof(SimulationMessages.NativeLibraryMissing),
            SimulationMessages.NativeLibraryMissing("libpicollo_native.so was not found next to Picollo.dll."));
        Case(nameof(SimulationMessages.ValgrindMissing) + ": not on the PATH", SimulationMessages.ValgrindMissing(null, new Version(3, 19)));
        Case(
            nameof(SimulationMessages.ValgrindMissing) + ": the variable names a missing file",
            SimulationMessages.ValgrindMissing("PICOLLO_VALGRIND=/opt/valgrind/bin/valgrind", new Version(3, 19)));
        Case(
            nameof(SimulationMessages.ValgrindVersionUnreadable),
            SimulationMessages.ValgrindVersionUnreadable("/usr/local/bin/valgrind", "--version printed 'hello' (exit code 0)"));
        Case(
            nameof(SimulationMessages.ValgrindTooOld),
            SimulationMessages.ValgrindTooOld("/usr/bin/valgrind", new Version(3, 15, 0), new Version(3, 19)));
        Case(nameof(SimulationMessages.NotSimulated), SimulationMessages.NotSimulated("sim-cache-misses"));
        var valgrind = new ValgrindInstallation("/usr/bin/valgrind", new Version(3, 19, 0), null);
        Case(nameof(SimulationMessages.ProbeTimedOut), SimulationMessages.ProbeTimedOut(valgrind, TimeSpan.FromMinutes(2)));
        Case(
            nameof(SimulationMessages.ProbeFailed),
            SimulationMessages.ProbeFailed(valgrind, 1, "valgrind: m_debuginfo/readelf.c:1234 (get_elf_symbol_info): Assertion failed"));

        Approvals.Verify(text.ToString(), nameof(SimulationMessages));
    }
}
