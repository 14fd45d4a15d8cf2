using Picollo.Counters;
using Picollo.Simulation;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Simulation;

/// <summary>Callgrind's dumps read back: the totals of the header, the counters made of them, and what is not a dump.</summary>
public sealed class CallgrindDumpTests
{
    // The head of a dump callgrind 3.19 wrote for CALLGRIND_DUMP_STATS_AT with --branch-sim=yes --cache-sim=yes (function
    // costs cut short: the reader stops at the summary).
    private const string Dump = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        pid: 2180
        cmd:  dotnet exec TextKit.PerfTests.dll
        part: 3
        thread: 5

        desc: I1 cache: 32768 B, 64 B, 8-way associative
        desc: D1 cache: 32768 B, 64 B, 8-way associative
        desc: LL cache: 8388608 B, 64 B, 16-way associative

        desc: Timerange: Basic block 26051677 - 26320111
        desc: Trigger: Client Request: picollo-sample

        positions: line
        events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
        summary: 1000029 210000 90000 12 700 300 3 40 10 203000 5107 1805 2

        ob=(11) /usr/share/dotnet/host/fxr/10.0.12/libhostfxr.so
        fn=(2976) 0x000000000001fc10
        0 1000029
        """;

    [Fact]
    public void ADump_ReadsItsTotals_AndTheSimulatedCountersMadeOfThem()
    {
        using var folder = new TempDirectory();
        string path = folder.Combine("callgrind.out.3-05");
        File.WriteAllText(path, Dump);

        (SimulatedEvents events, string? creator) = CallgrindDump.Read(path, "picollo-sample");

        creator.ShouldBe("callgrind-3.19.0");
        events.Counter(CounterNames.SimInstructions).ShouldBe(1_000_029UL);
        events.Counter(CounterNames.SimBranches).ShouldBe(204_805UL);
        events.Counter(CounterNames.SimBranchMisses).ShouldBe(5_109UL);
        events.Counter(CounterNames.SimL1Misses).ShouldBe(1_012UL);
        events.Counter(CounterNames.SimCacheMisses).ShouldBe(53UL);

        // The cycle model: instructions + 10 × mispredictions + 10 × first-level misses + 100 × last-level misses.
        events.Counter(CounterNames.SimCycles).ShouldBe(1_000_029UL + (10 * 5_109) + (10 * 1_012) + (100 * 53));
    }

    [Fact]
    public void ADumpWithoutTheCacheSimulation_HasNoCacheCounters_AndNoCycles()
    {
        var events = SimulatedEvents.Of(["Ir", "Bc", "Bcm", "Bi", "Bim"], [545, 203, 17]);

        events.Counter(CounterNames.SimInstructions).ShouldBe(545UL);

        // Trailing zeros are left out by callgrind: Bi and Bim are 0, not missing.
        events.Counter(CounterNames.SimBranchMisses).ShouldBe(17UL);
        events.Counter(CounterNames.SimCacheMisses).ShouldBeNull();
        events.Counter(CounterNames.SimCycles).ShouldBeNull();
        Should.Throw<ArgumentException>(() => events.Counter("instructions"));
    }

    [Theory]
    [InlineData("hello\n", "is not a callgrind dump: its first line is 'hello'")]
    [InlineData("# callgrind format\nevents: Ir\n", "has no 'summary:' line")]
    [InlineData("# callgrind format\nsummary: 12\n", "has no 'events:' line")]
    [InlineData("# callgrind format\nevents: Ir\nsummary: 12x\n", "line 3: '12x' is not a count.")]
    [InlineData("# callgrind format\ndesc: Trigger: Client Request: at exit\nevents: Ir\nsummary: 12\n", "is of 'at exit', not 'picollo-sample'")]
    public void WhatIsNotADumpOfTheRegion_IsReportedWithTheFile(string text, string expected)
    {
        using var folder = new TempDirectory();
        string path = folder.Combine("callgrind.out.1-01");
        File.WriteAllText(path, text);

        InvalidDataException error = Should.Throw<InvalidDataException>(() => CallgrindDump.Read(path, "picollo-sample"));

        error.Message.ShouldContain(path);
        error.Message.ShouldContain(expected);
    }
}
