using NUnit;
using NUnit.Framework.Api;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;

namespace Picollo.Tests.Testing;

/// <summary>
/// Runs sample fixtures through NUnit's own runner in-process (its builders, the adapter's test builders and commands, its
/// work items and parallel dispatcher), as the VSTest adapter does, and collects what it reports per test.
/// </summary>
internal static class NUnitPipeline
{
    /// <summary>Loads the samples' assembly and runs the fixtures named by <paramref name="types"/>.</summary>
    public static IReadOnlyList<ITestResult> Run(params Type[] types)
    {
        var runner = new NUnitTestAssemblyRunner(new DefaultTestAssemblyBuilder());
        runner.Load(types[0].Assembly, new Dictionary<string, object> { [FrameworkPackageSettings.NumberOfTestWorkers] = 2 });
        string classes = string.Concat(types.Select(static t => $"<class>{t.FullName}</class>"));
        ITestResult root = runner.Run(TestListener.NULL, TestFilter.FromXml($"<filter><or>{classes}</or></filter>"));
        var cases = new List<ITestResult>();
        Walk(root, cases);
        return cases;
    }

    private static void Walk(ITestResult result, List<ITestResult> cases)
    {
        if (!result.Test.IsSuite)
            cases.Add(result);
        foreach (ITestResult child in result.Children)
            Walk(child, cases);
    }
}
