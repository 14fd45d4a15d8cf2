using System.Reflection;
using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// What the adapter's discoverers, test cases and runners share: names, the data without the <see cref="PerfContext"/>,
/// and running a case.
/// </summary>
internal static class PerfXunit
{
    /// <summary>The trait every perf test carries.</summary>
    public const string CategoryTrait = "Category";

    /// <summary>Its value.</summary>
    public const string PerformanceCategory = "Performance";

    /// <summary>
    /// The prefix that makes an exception a dynamic skip in xunit.v3 (what <c>Assert.Skip</c> throws); xunit's own constant is
    /// internal to its core and public only in the assertion library, which an extension should not force on a test project.
    /// </summary>
    public const string DynamicSkipToken = "$XunitDynamicSkip$";

    /// <summary>The fact attribute as messages write it.</summary>
    public const string FactName = "[PerfFact]";

    /// <summary>The theory attribute as messages write it.</summary>
    public const string TheoryName = "[PerfTheory]";

    /// <summary>
    /// The test method's traits (already merged from its assembly, collection and class) as the writable dictionary a test
    /// case's constructor takes, with xunit's case-insensitive trait names. xunit's own <c>ToReadWrite</c> lives in
    /// <c>Xunit.Internal</c>, which xunit does not support outside its own assemblies.
    /// </summary>
    public static Dictionary<string, HashSet<string>> TraitsOf(IXunitTestMethod testMethod) =>
        testMethod.Traits.ToDictionary(
            static trait => trait.Key, static trait => new HashSet<string>(trait.Value), StringComparer.OrdinalIgnoreCase);

    /// <summary>The row's data without the <see cref="PerfContext"/> (xunit fills an optional one with its default, null).</summary>
    public static object?[] DataOnly(MethodInfo method, object?[] arguments) =>
        PerfTestExecution.PerfContextIndex(method) is int slot and >= 0 && arguments.Length > slot ? arguments[..slot] : arguments;

    /// <summary>The display name without the <see cref="PerfContext"/> parameter, which xunit formats like data ("perf: null").</summary>
    public static string WithoutContext(string displayName, MethodInfo method)
    {
        int slot = PerfTestExecution.PerfContextIndex(method);
        if (slot < 0 || !displayName.EndsWith(')'))
            return displayName;
        string tail = method.GetParameters()[slot].Name + ": ";
        int at = displayName.LastIndexOf(tail, StringComparison.Ordinal);
        if (at >= 2 && displayName.AsSpan(at - 2, 2) is ", ")
            return string.Concat(displayName.AsSpan(0, at - 2), ")");
        if (at >= 1 && displayName[at - 1] == '(')
            return displayName[..(at - 1)];
        return displayName;
    }

    /// <summary>
    /// The same test with the data plus an empty <see cref="PerfContext"/> slot: xunit checks the argument count,
    /// Picollo fills the slot.
    /// </summary>
    public static IXunitTest WithContextSlot(IXunitTest test)
    {
        MethodInfo method = test.TestMethod.Method;
        if (PerfTestExecution.PerfContextIndex(method) < 0)
            return test;
        object?[] data = DataOnly(method, test.TestMethodArguments);
        return new XunitTest(
            test.TestCase, test.TestMethod, test.Explicit, test.SkipReason, test.SkipType, test.SkipUnless, test.SkipWhen,
            WithoutContext(test.TestDisplayName, method), test.UniqueID, test.Traits, test.Timeout, [.. data, null]);
    }

    /// <summary>xunit's <c>XunitRunnerHelper.RunXunitTestCase</c>, with Picollo's case runner.</summary>
    public static async ValueTask<RunSummary> RunTestCase(
        IXunitTestCase testCase, ExplicitOption explicitOption, IMessageBus messageBus, object?[] constructorArguments,
        ExceptionAggregator aggregator, CancellationTokenSource cancellationTokenSource)
    {
        IReadOnlyCollection<IXunitTest> tests = await aggregator.RunAsync(testCase.CreateTests, []).ConfigureAwait(false);
        if (aggregator.ToException() is { } exception)
        {
            return exception.Message.StartsWith(DynamicSkipToken, StringComparison.Ordinal)
                ? XunitRunnerHelper.SkipTestCases(
                    messageBus, cancellationTokenSource, [testCase], exception.Message[DynamicSkipToken.Length..],
                    sendTestCaseMessages: false)
                : XunitRunnerHelper.FailTestCases(messageBus, cancellationTokenSource, [testCase], exception, sendTestCaseMessages: false);
        }

        return await PerfTestCaseRunner.Instance.Run(
            testCase, tests, messageBus, aggregator, cancellationTokenSource, testCase.TestCaseDisplayName, testCase.SkipReason,
            explicitOption, constructorArguments)
            .ConfigureAwait(false);
    }
}
