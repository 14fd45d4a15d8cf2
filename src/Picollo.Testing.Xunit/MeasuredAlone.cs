using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// Moves a perf test method into a copy of its test collection that xunit never runs in parallel: xunit runs such
/// collections after every parallel one, one at a time, so nothing else of the assembly runs while a perf test measures,
/// without a <c>[Collection]</c> or <c>[CollectionBehavior]</c> chore for the user.
/// </summary>
internal static class MeasuredAlone
{
    /// <summary>The suffix of the copy's display name.</summary>
    public const string CollectionSuffix = " (Picollo: measured alone)";

    /// <summary>
    /// The same method, in the never-parallel copy of its collection (itself when the collection is never parallel
    /// already).
    /// </summary>
    public static IXunitTestMethod Rehome(IXunitTestMethod testMethod)
    {
        IXunitTestCollection original = testMethod.TestClass.TestCollection;
        if (original.DisableParallelization)
            return testMethod;

        // The same definition type keeps the collection's fixtures and behaviour; the display name (hence the unique ID)
        // differs, so xunit groups the perf tests of the collection into a collection of their own.
        var collection = new XunitTestCollection(
            original.TestAssembly, original.CollectionDefinition, disableParallelization: true,
            displayName: original.TestCollectionDisplayName + CollectionSuffix);
        return new XunitTestMethod(
            new XunitTestClass(testMethod.TestClass.Class, collection), testMethod.Method, testMethod.TestMethodArguments);
    }
}
