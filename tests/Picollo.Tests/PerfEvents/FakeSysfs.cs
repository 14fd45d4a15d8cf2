using System.Globalization;
using Picollo.PerfEvents;

namespace Picollo.Tests.PerfEvents;

/// <summary>A throwaway <c>/sys/bus/event_source/devices</c> tree in a temporary folder.</summary>
internal sealed class FakeSysfs : IDisposable
{
    /// <summary>The format files of an Intel core PMU (as Skylake publishes them).</summary>
    public static readonly IReadOnlyDictionary<string, string> IntelFormats = new Dictionary<string, string>
    {
        ["event"] = "config:0-7",
        ["umask"] = "config:8-15",
        ["edge"] = "config:18",
        ["pc"] = "config:19",
        ["any"] = "config:21",
        ["inv"] = "config:23",
        ["cmask"] = "config:24-31",
        ["in_tx"] = "config:32",
        ["in_tx_cp"] = "config:33",
        ["ldlat"] = "config1:0-15",
        ["offcore_rsp"] = "config1:0-63",
        ["frontend"] = "config1:0-23",
    };

    /// <summary>Some of the events an Intel core PMU publishes.</summary>
    public static readonly IReadOnlyDictionary<string, string> IntelEvents = new Dictionary<string, string>
    {
        ["cpu-cycles"] = "event=0x3c",
        ["instructions"] = "event=0xc0",
        ["ref-cycles"] = "event=0x00,umask=0x03",
        ["cycles-ct"] = "event=0x3c,in_tx=1,in_tx_cp=1",
        ["mem-loads"] = "event=0xcd,umask=0x1,ldlat=3",
        ["topdown-total-slots"] = "event=0x3c,umask=0x00,any=1",
        ["topdown-total-slots.scale"] = "2",
    };

    public FakeSysfs()
    {
        Root = Path.Combine(Path.GetTempPath(), "picollo-sysfs-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Root);
        Sysfs = new PerfSysfs(Root);
    }

    public string Root { get; }

    public PerfSysfs Sysfs { get; }

    /// <summary>A fresh catalog over the tree as it is now.</summary>
    public PerfEventCatalog Catalog() => new(Sysfs);

    public FakeSysfs WithPmu(string name, uint type, IReadOnlyDictionary<string, string>? formats = null, IReadOnlyDictionary<string, string>? events = null)
    {
        string pmu = Path.Combine(Root, name);
        Directory.CreateDirectory(pmu);
        File.WriteAllText(Path.Combine(pmu, "type"), type.ToString(CultureInfo.InvariantCulture) + "\n");
        Write(pmu, "format", formats);
        Write(pmu, "events", events);
        return this;
    }

    /// <summary>The generic software PMU plus an Intel <c>cpu</c> PMU.</summary>
    public static FakeSysfs Intel() =>
        new FakeSysfs()
            .WithPmu("software", 1)
            .WithPmu("cpu", 4, IntelFormats, IntelEvents)
            .WithPmu("power", 15, new Dictionary<string, string> { ["event"] = "config:0-7" }, new Dictionary<string, string>
            {
                ["energy-pkg"] = "event=0x02",
                ["energy-pkg.scale"] = "2.3283064365386962890625e-10",
                ["energy-pkg.unit"] = "Joules",
            });

    /// <summary>An Alder Lake style hybrid: <c>cpu_core</c> (type 4) and <c>cpu_atom</c> (type 10), no <c>cpu</c>.</summary>
    public static FakeSysfs Hybrid() =>
        new FakeSysfs()
            .WithPmu("software", 1)
            .WithPmu("cpu_core", 4, IntelFormats, IntelEvents)
            .WithPmu("cpu_atom", 10, IntelFormats, new Dictionary<string, string> { ["cpu-cycles"] = "event=0x3c", ["topdown-retiring"] = "event=0xc2,umask=0x02" });

    public void Dispose() => Directory.Delete(Root, recursive: true);

    private static void Write(string pmu, string folder, IReadOnlyDictionary<string, string>? files)
    {
        if (files is null)
            return;
        Directory.CreateDirectory(Path.Combine(pmu, folder));
        foreach ((string file, string content) in files)
            File.WriteAllText(Path.Combine(pmu, folder, file), content + "\n");
    }
}
