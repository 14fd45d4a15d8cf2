using Picollo.Measurement;

namespace Picollo.Packaging.Tests;

/// <summary>What the template tests add to a generated project, and what they expect of this machine.</summary>
internal static class TemplateProjects
{
    /// <summary>Whether this machine counts hardware events (most VMs and CI runners do not).</summary>
    public static readonly Lazy<bool> HasPmu = new(static () =>
        Perf.Measure(PerfOptions.Default with { Counters = ["cycles"], Samples = 10, TimeBudget = TimeSpan.FromMilliseconds(50) }, static () => 1).Cycles.IsAvailable);

    /// <summary>
    /// Two more perf tests for a generated project: a zero budget that 64-byte allocations break, and a test on a hardware
    /// counter alone (skipped with the reason where there is no PMU).
    /// </summary>
    public static string MoreChecks(string framework, string ns)
    {
        string attribute = framework == "Xunit" ? "PerfFact" : "PerfTest";
        return $$"""
            using Picollo.Testing.{{framework}};

            namespace {{ns}};

            public class MoreChecks
            {
                [{{attribute}}(ZeroBudget = "allocated-bytes", Baseline = false)]
                public object Allocates() => new byte[64];

                [{{attribute}}(Counters = "cycles", MaxP99 = "cycles:1000000000", Baseline = false)]
                public int OnlyCycles() => 42;
            }
            """;
    }
}
