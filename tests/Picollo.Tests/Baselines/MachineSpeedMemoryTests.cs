using Picollo.Baselines;
using Picollo.Baselines.Records;
using Picollo.Baselines.Storage;
using Shouldly;
using Xunit;
using static Picollo.Tests.Baselines.BaselineTestData;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The memory of a machine's fast levels (issue 24): what a recording compares its references with before it settles for a
/// slow level. Real files in a temporary cache folder.
/// </summary>
public sealed class MachineSpeedMemoryTests
{
    [Fact]
    public void Readings_AreKeptPerMachine_AndTheFastestCountsFromFourOn()
    {
        using var temp = new TempDirectory();
        Func<string, string?> environment = name => name == MachineSpeedMemory.FolderVariable ? temp.Path : null;

        MachineSpeedMemory memory = MachineSpeedMemory.Load(Epyc.Id, environment);
        foreach (double allocation in new[] { 11.2, 6.3, 6.5 })
            memory = memory.Remember(Speeds(1_100, allocation));
        memory.FastestAllocation.ShouldBeNull("three readings say little");
        memory.Remember(Speeds(1_080, 11.0));

        MachineSpeedMemory read = MachineSpeedMemory.Load(Epyc.Id, environment);
        read.FastestAllocation.ShouldBe(6.3);
        read.FastestCore.ShouldBe(1_080);
        read.SlowerThanFastest(Speeds(1_100, 11.3)).ShouldBe(11.3 / 6.3, 0.001, "an allocation episode 1.79× slower than the fast level");
        read.SlowerThanFastest(Speeds(1_090, 6.4)).ShouldBe(1.0166, 0.001);
        MachineSpeedMemory.Load(Xeon.Id, environment).Allocation.ShouldBeEmpty("another machine has its own memory");
    }

    [Fact]
    public void OldReadingsAgeOut_SoAHostThatBecameSlowerForGood_StopsBeingComparedWithItsOldSelf()
    {
        using var temp = new TempDirectory();
        Func<string, string?> environment = name => name == MachineSpeedMemory.FolderVariable ? temp.Path : null;
        MachineSpeedMemory memory = MachineSpeedMemory.Load(Epyc.Id, environment).Remember(Speeds(900, null));
        for (int i = 0; i < JudgementPolicy.Default.SpeedMemoryCapacity; i++)
            memory = memory.Remember(Speeds(1_100, null));

        MachineSpeedMemory.Load(Epyc.Id, environment).FastestCore.ShouldBe(1_100);
    }

    [Fact]
    public void WithAnEnvironmentSeam_AndNoFolderNamed_NothingIsReadOrWritten()
    {
        MachineSpeedMemory memory = MachineSpeedMemory.Load(Epyc.Id, static _ => null);
        for (int i = 0; i < 5; i++)
            memory = memory.Remember(Speeds(1_000, 6));

        MachineSpeedMemory.Load(Epyc.Id, static _ => null).Core.ShouldBeEmpty("a test's judgements never share the user's memory");
    }

    [Fact]
    public void AnUnreadableFolder_IsNoMemory_AndNeverAFailure()
    {
        using var temp = new TempDirectory();
        string file = temp.Combine("not-a-folder");
        File.WriteAllText(file, "x");

        MachineSpeedMemory memory = MachineSpeedMemory.Load(Epyc.Id, name => name == MachineSpeedMemory.FolderVariable ? file : null);
        Should.NotThrow(() => memory.Remember(Speeds(1_000, 6)));
        Should.NotThrow(() => MachineSpeedMemory.WriteRemembered(memory.FilePath));
    }

    [Fact]
    public void AProcessesReadings_AreWrittenOnce_MergedWithWhatOtherProcessesWroteMeanwhile()
    {
        using var temp = new TempDirectory();
        Func<string, string?> environment = name => name == MachineSpeedMemory.FolderVariable ? temp.Path : null;
        MachineSpeedMemory memory = MachineSpeedMemory.Load(Epyc.Id, environment);
        foreach (double core in new[] { 1_100.0, 1_050, 1_080 })
            memory = memory.Remember(Speeds(core, null));

        string path = memory.FilePath!;
        File.Exists(path).ShouldBeFalse("a judgement writes no file in the user's home; the process does, once, as it exits");
        MachineSpeedMemory.Load(Epyc.Id, environment).Core.ShouldBe([1_100, 1_050, 1_080], "this process sees its own readings");

        File.WriteAllText(path, "core 990\n");
        MachineSpeedMemory.WriteRemembered(path);
        File.ReadAllLines(path).ShouldBe(["core 990", "core 1100", "core 1050", "core 1080"]);
        MachineSpeedMemory.Load(Epyc.Id, environment).Core.ShouldBe([990, 1_100, 1_050, 1_080], "each reading once");
    }

    private static BaselineRecord Speeds(double core, double? allocation) => Record() with { MachineSpeed = core, AllocationSpeed = allocation };
}
