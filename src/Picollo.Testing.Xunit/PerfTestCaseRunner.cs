using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>xunit's test case runner, whose tests run through <see cref="PerfTestRunner"/>.</summary>
internal sealed class PerfTestCaseRunner : XunitTestCaseRunner
{
    /// <summary>The runner (stateless, like xunit's).</summary>
    public static new PerfTestCaseRunner Instance { get; } = new();

    /// <inheritdoc/>
    protected override ValueTask<RunSummary> RunTest(XunitTestCaseRunnerContext ctxt, IXunitTest test)
    {
        ArgumentNullException.ThrowIfNull(ctxt);
        return PerfTestRunner.Instance.Run(
            test, ctxt.MessageBus, ctxt.ConstructorArguments, ctxt.ExplicitOption, ctxt.Aggregator.Clone(), ctxt.CancellationTokenSource,
            ctxt.BeforeAfterTestAttributes);
    }
}
