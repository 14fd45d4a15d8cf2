using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// A <see cref="PerfFactAttribute"/> test or one pre-enumerated <see cref="PerfTheoryAttribute"/> row. It runs itself, so
/// Picollo invokes the method (as the operation, or with its <see cref="PerfContext"/>) inside xunit's own test runner:
/// construction, fixtures, before/after attributes, timeout, output and messages stay xunit's.
/// </summary>
/// <remarks>
/// It adds no state to <see cref="XunitTestCase"/>'s serialization (across the VSTest boundary): the knobs are read again
/// from the method's attribute when it runs, and its arguments hold the data only, never the <see cref="PerfContext"/>.
/// </remarks>
public sealed class PerfXunitTestCase : XunitTestCase, ISelfExecutingXunitTestCase
{
    /// <summary>For the de-serializer.</summary>
    [Obsolete("Called by the de-serializer; should only be called by deriving classes for de-serialization purposes")]
    public PerfXunitTestCase()
    {
    }

    /// <summary>
    /// A perf test case; see <see cref="XunitTestCase"/> for the parameters. <paramref name="testMethodArguments"/>
    /// holds the data only.
    /// </summary>
    /// <param name="testMethod">The test method.</param>
    /// <param name="testCaseDisplayName">The display name.</param>
    /// <param name="uniqueID">The unique ID.</param>
    /// <param name="explicit">Whether it runs only when asked for.</param>
    /// <param name="skipExceptions">Exceptions that skip the test.</param>
    /// <param name="skipReason">Why it is skipped, or <see langword="null"/>.</param>
    /// <param name="skipType">The type of a conditional skip.</param>
    /// <param name="skipUnless">The property of a conditional skip.</param>
    /// <param name="skipWhen">The property of a conditional skip.</param>
    /// <param name="traits">The traits, <c>Category=Performance</c> among them.</param>
    /// <param name="testMethodArguments">The row's data, without the <see cref="PerfContext"/>.</param>
    /// <param name="sourceFilePath">The source file.</param>
    /// <param name="sourceLineNumber">The source line.</param>
    /// <param name="timeout">The timeout in milliseconds.</param>
    public PerfXunitTestCase(
        IXunitTestMethod testMethod, string testCaseDisplayName, string uniqueID, bool @explicit, Type[]? skipExceptions,
        string? skipReason, Type? skipType, string? skipUnless, string? skipWhen, Dictionary<string, HashSet<string>>? traits,
        object?[]? testMethodArguments, string? sourceFilePath, int? sourceLineNumber, int? timeout)
        : base(testMethod, testCaseDisplayName, uniqueID, @explicit, skipExceptions, skipReason, skipType, skipUnless, skipWhen, traits,
            testMethodArguments, sourceFilePath, sourceLineNumber, timeout)
    {
    }

    /// <summary>The test, its arguments padded with a slot for the <see cref="PerfContext"/> so xunit's parameter check passes.</summary>
    /// <returns>The tests.</returns>
    public override async ValueTask<IReadOnlyCollection<IXunitTest>> CreateTests() =>
        [.. (await base.CreateTests().ConfigureAwait(false)).Select(PerfXunit.WithContextSlot)];

    /// <inheritdoc/>
    public ValueTask<RunSummary> Run(
        ExplicitOption explicitOption, IMessageBus messageBus, object?[] constructorArguments, ExceptionAggregator aggregator,
        CancellationTokenSource cancellationTokenSource) =>
        PerfXunit.RunTestCase(this, explicitOption, messageBus, constructorArguments, aggregator, cancellationTokenSource);
}
