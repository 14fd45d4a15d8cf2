using System.Runtime.CompilerServices;
using Picollo.Baselines;

namespace Picollo.Tests.Support;

/// <summary>What the whole test assembly changes before any test runs.</summary>
internal static class TestDefaults
{
    /// <summary>
    /// No wait between the measurements a recording takes for the levels of a body's time: the tests' measurements are
    /// mostly synthetic, and 48 recordings waiting 5 s three times each would add minutes for nothing the tests check. The
    /// spacing itself is the production default, which the benchmarks run with. The same for the wait between the
    /// measurements a recording takes to reach the machine's fast level.
    /// </summary>
    [ModuleInitializer]
    internal static void Apply()
    {
        BaselineStoreOptions.DefaultFreshProcessSpacing = TimeSpan.Zero;
        BaselineStoreOptions.DefaultFastLevelSpacing = TimeSpan.Zero;
    }
}
