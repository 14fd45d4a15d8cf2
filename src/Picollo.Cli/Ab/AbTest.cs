namespace Picollo.Cli.Ab;

/// <summary>
/// One perf test method (a theory or a method with several <c>[PerfTestCase]</c> rows is one test), named as xunit and
/// NUnit name it in <c>dotnet test</c>'s <c>FullyQualifiedName</c>: nested classes joined with <c>+</c>
/// (<c>Ns.Outer+Inner.Method</c>), and a method inherited from a base class under the derived class that runs it.
/// </summary>
/// <param name="FullName"><c>Namespace.Class.Method</c>.</param>
/// <param name="ClassName">The class's full name, <c>Namespace.Class</c> (<c>Namespace.Outer+Inner</c> when nested).</param>
/// <param name="MethodName">The method's name.</param>
internal sealed record AbTest(string FullName, string ClassName, string MethodName)
{
    /// <summary>The class's own name and the method, as a perf test's reports name it (e.g. <c>WordsPerf.Count</c>).</summary>
    public string ShortName => $"{ClassName[(ClassName.LastIndexOfAny(['.', '+']) + 1)..]}.{MethodName}";
}
