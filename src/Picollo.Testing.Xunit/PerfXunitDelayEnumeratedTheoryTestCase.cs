using Xunit.Sdk;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// A <see cref="PerfTheoryAttribute"/> whose rows are enumerated when it runs (data that cannot be serialized, or theory
/// pre-enumeration off): each row becomes a perf test, its arguments padded with the <see cref="PerfContext"/> slot.
/// </summary>
public sealed class PerfXunitDelayEnumeratedTheoryTestCase : XunitDelayEnumeratedTheoryTestCase, ISelfExecutingXunitTestCase
{
    /// <summary>For the de-serializer.</summary>
    [Obsolete("Called by the de-serializer; should only be called by deriving classes for de-serialization purposes")]
    public PerfXunitDelayEnumeratedTheoryTestCase()
    {
    }

    /// <summary>A perf theory enumerated at run time; see <see cref="XunitDelayEnumeratedTheoryTestCase"/> for the parameters.</summary>
    /// <param name="testMethod">The test method.</param>
    /// <param name="testCaseDisplayName">The display name.</param>
    /// <param name="uniqueID">The unique ID.</param>
    /// <param name="explicit">Whether it runs only when asked for.</param>
    /// <param name="skipTestWithoutData">Whether a theory without data is skipped rather than failed.</param>
    /// <param name="skipExceptions">Exceptions that skip the test.</param>
    /// <param name="skipReason">Why it is skipped, or <see langword="null"/>.</param>
    /// <param name="skipType">The type of a conditional skip.</param>
    /// <param name="skipUnless">The property of a conditional skip.</param>
    /// <param name="skipWhen">The property of a conditional skip.</param>
    /// <param name="traits">The traits, <c>Category=Performance</c> among them.</param>
    /// <param name="sourceFilePath">The source file.</param>
    /// <param name="sourceLineNumber">The source line.</param>
    /// <param name="timeout">The timeout in milliseconds.</param>
    public PerfXunitDelayEnumeratedTheoryTestCase(
        IXunitTestMethod testMethod, string testCaseDisplayName, string uniqueID, bool @explicit, bool skipTestWithoutData,
        Type[]? skipExceptions, string? skipReason, Type? skipType, string? skipUnless, string? skipWhen,
        Dictionary<string, HashSet<string>>? traits, string? sourceFilePath, int? sourceLineNumber, int? timeout)
        : base(
            testMethod, testCaseDisplayName, uniqueID, @explicit, skipTestWithoutData, skipExceptions, skipReason, skipType, skipUnless,
            skipWhen, traits, sourceFilePath, sourceLineNumber, timeout)
    {
    }

    /// <summary>One test per row, each padded with the <see cref="PerfContext"/> slot.</summary>
    /// <returns>The tests.</returns>
    public override async ValueTask<IReadOnlyCollection<IXunitTest>> CreateTests() =>
        [.. (await base.CreateTests().ConfigureAwait(false)).Select(PerfXunit.WithContextSlot)];

    /// <inheritdoc/>
    public ValueTask<RunSummary> Run(
        ExplicitOption explicitOption, IMessageBus messageBus, object?[] constructorArguments, ExceptionAggregator aggregator,
        CancellationTokenSource cancellationTokenSource) =>
        PerfXunit.RunTestCase(this, explicitOption, messageBus, constructorArguments, aggregator, cancellationTokenSource);
}
