using Xunit;
using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// Discovers <see cref="PerfTheoryAttribute"/> methods: xunit's own theory discovery (every data attribute, pre-enumerated
/// or not), in a never-parallel collection, producing perf test cases whose data leaves out the trailing
/// <see cref="PerfContext"/>.
/// </summary>
public sealed class PerfTheoryDiscoverer : TheoryDiscoverer
{
    /// <inheritdoc/>
    public override ValueTask<IReadOnlyCollection<IXunitTestCase>> Discover(
        ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod, IFactAttribute factAttribute)
    {
        ArgumentNullException.ThrowIfNull(testMethod);
        IXunitTestMethod method = MeasuredAlone.Rehome(testMethod);
        if (PerfTestExecution.SignatureProblem(PerfXunit.TheoryName, method.Method, takesData: true) is { } problem)
        {
            var details = TestIntrospectionHelper.GetTestCaseDetails(discoveryOptions, method, factAttribute);
            return new([new ExecutionErrorTestCase(
                details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.SourceFilePath, details.SourceLineNumber,
                problem)]);
        }

        return base.Discover(discoveryOptions, method, factAttribute);
    }

    /// <inheritdoc/>
    protected override ValueTask<IReadOnlyCollection<IXunitTestCase>> CreateTestCasesForDataRow(
        ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod, ITheoryAttribute theoryAttribute,
        ITheoryDataRow dataRow, object?[] testMethodArguments)
    {
        ArgumentNullException.ThrowIfNull(testMethod);
        ArgumentNullException.ThrowIfNull(dataRow);
        object?[] data = PerfXunit.DataOnly(testMethod.Method, testMethodArguments);
        var details = TestIntrospectionHelper.GetTestCaseDetailsForTheoryDataRow(
            discoveryOptions, testMethod, theoryAttribute, dataRow, data);
        string displayName = dataRow.TestDisplayName ?? PerfXunit.WithoutContext(details.TestCaseDisplayName, testMethod.Method);
        return new([new PerfXunitTestCase(
            details.ResolvedTestMethod, displayName, details.UniqueID, details.Explicit, details.SkipExceptions, details.SkipReason,
            details.SkipType, details.SkipUnless, details.SkipWhen, TestIntrospectionHelper.GetTraits(testMethod, dataRow), data,
            details.SourceFilePath, details.SourceLineNumber, details.Timeout)]);
    }

    /// <inheritdoc/>
    protected override ValueTask<IReadOnlyCollection<IXunitTestCase>> CreateTestCasesForTheory(
        ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod, ITheoryAttribute theoryAttribute)
    {
        ArgumentNullException.ThrowIfNull(testMethod);
        ArgumentNullException.ThrowIfNull(theoryAttribute);
        var details = TestIntrospectionHelper.GetTestCaseDetails(discoveryOptions, testMethod, theoryAttribute);
        return new([new PerfXunitDelayEnumeratedTheoryTestCase(
            details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.Explicit,
            theoryAttribute.SkipTestWithoutData, details.SkipExceptions, details.SkipReason, details.SkipType, details.SkipUnless,
            details.SkipWhen, PerfXunit.TraitsOf(testMethod), details.SourceFilePath, details.SourceLineNumber, details.Timeout)]);
    }
}
