using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Counters;
using Picollo.Tests.Baselines;
using Picollo.Tests.Measurement;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Assertions;

/// <summary>
/// <see cref="BaselineStoreOptions.AssemblyDefault"/> is process-wide: these tests run in the non-parallel group so no
/// other <c>ShouldNotRegress</c> sees it changed.
/// </summary>
[Collection(MeasurementTestGroup.Name)]
public sealed class BaselineAssertionsAssemblyDefaultTests
{
    [Fact]
    public void CallWithoutOptions_UsesTheAssemblyDefault()
    {
        using var temp = new TempDirectory();
        using var host = RecordingHost.Install();
        BaselineStoreOptions saved = BaselineStoreOptions.AssemblyDefault;
        try
        {
            BaselineStoreOptions.AssemblyDefault = new BaselineStoreOptions { UpdateBaselines = true, GetEnvironmentVariable = TestEnvironment.Local(temp) };

            Allocating().ShouldNotRegress(callerFilePath: temp.Combine("SampleTests.cs"), testMethod: "Allocates");
        }
        finally
        {
            BaselineStoreOptions.AssemblyDefault = saved;
        }

        File.Exists(temp.Combine("SampleTests.Allocates.perf.json")).ShouldBeTrue();
        host.Notices.ShouldHaveSingleItem().Message.ShouldStartWith("Baseline updated: ");
    }

    [Fact]
    public void AssemblyDefault_IsTheBuiltInDefaultUntilSet_AndRejectsNull()
    {
        BaselineStoreOptions.AssemblyDefault.ShouldBe(new BaselineStoreOptions());
        Should.Throw<ArgumentNullException>(() => BaselineStoreOptions.AssemblyDefault = null!);
    }

    private static Picollo.Measurement.PerfResult Allocating() => SyntheticResults.Result(
        SyntheticResults.Counter("allocated-bytes", "bytes", CounterKind.Runtime, 1_000, Enumerable.Repeat(88_000UL, 100)));
}
