using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// Discovers <see cref="PerfFactAttribute"/> methods: one <see cref="PerfXunitTestCase"/> in a never-parallel collection; a
/// method that cannot be a perf test becomes a test that fails with the reason and the form that works (discovery of the
/// other tests goes on).
/// </summary>
public sealed class PerfFactDiscoverer : IXunitTestCaseDiscoverer
{
    /// <inheritdoc/>
    public ValueTask<IReadOnlyCollection<IXunitTestCase>> Discover(
        ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod, IFactAttribute factAttribute)
    {
        ArgumentNullException.ThrowIfNull(testMethod);
        IXunitTestMethod method = MeasuredAlone.Rehome(testMethod);
        var details = TestIntrospectionHelper.GetTestCaseDetails(discoveryOptions, method, factAttribute);
        IXunitTestCase testCase = PerfTestExecution.SignatureProblem(PerfXunit.FactName, method.Method, takesData: false) is { } problem
            ? new ExecutionErrorTestCase(
                details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.SourceFilePath, details.SourceLineNumber,
                problem)
            : new PerfXunitTestCase(
                details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.Explicit, details.SkipExceptions,
                details.SkipReason, details.SkipType, details.SkipUnless, details.SkipWhen, PerfXunit.TraitsOf(method),
                testMethodArguments: null, details.SourceFilePath, details.SourceLineNumber, details.Timeout);
        return new([testCase]);
    }
}
