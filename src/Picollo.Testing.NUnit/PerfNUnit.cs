using System.Globalization;
using System.Reflection;
using System.Runtime.CompilerServices;
using NUnit.Framework;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using NUnit.Framework.Internal.Builders;
using NUnit.Framework.Internal.Commands;

namespace Picollo.Testing.NUnit;

/// <summary>Building perf tests from the attributes, and what the command needs to run them.</summary>
internal static class PerfNUnit
{
    /// <summary>The category every perf test carries.</summary>
    public const string PerformanceCategory = "Performance";

    /// <summary>The name pattern of a test without data.</summary>
    public const string TestName = "{m}";

    // Which attribute (knobs, data) built which test: NUnit's property bag would surface every entry as a VSTest trait.
    private static readonly ConditionalWeakTable<TestMethod, PerfNUnitSpec> s_specs = [];

    /// <summary>
    /// The name pattern of a case: the method and its data, without the <see cref="PerfContext"/> (Hash(16), not Hash(16,null)).
    /// </summary>
    public static string CaseTestName(int values) =>
        "{m}(" + string.Join(",", Enumerable.Range(0, values).Select(static i => "{" + i.ToString(CultureInfo.InvariantCulture) + "}"))
        + ")";

    /// <summary>Builds one perf test; a method that cannot be one is built not runnable, with the reason and the form that works.</summary>
    public static TestMethod Build(
        IMethodInfo method, Test? suite, IPerfTestDeclaration declaration, object?[] data, string? sourceFilePath, string testName)
    {
        MethodInfo info = method.MethodInfo;
        string attribute = declaration is PerfTestCaseAttribute ? "[PerfTestCase]" : "[PerfTest]";
        int slot = PerfTestExecution.PerfContextIndex(info);
        int dataParameters = info.GetParameters().Length - (slot >= 0 ? 1 : 0);
        var parameters = new TestCaseParameters(slot >= 0 ? [.. data, null] : data) { TestName = testName };

        // A value-returning body is the measured operation; without an expected result NUnit would mark it not runnable
        // ("Method has non-void return value, but no result is expected"). The perf command never compares it.
        if (info.ReturnType != typeof(void))
            parameters.ExpectedResult = null;
        parameters.Properties.Add(PropertyNames.Category, PerformanceCategory);

        // Never beside another test, even in a [Parallelizable] fixture or assembly.
        parameters.Properties.Set(PropertyNames.ParallelScope, ParallelScope.None);

        TestMethod test = new NUnitTestCaseBuilder().BuildTestMethod(method, suite, parameters);
        string? problem = PerfTestExecution.SignatureProblem(attribute, info, takesData: declaration is PerfTestCaseAttribute)
            ?? (declaration is PerfTestCaseAttribute && data.Length != dataParameters
                ? string.Create(CultureInfo.InvariantCulture,
                    $"{attribute} {info.DeclaringType?.Name}.{info.Name} takes {dataParameters} data value(s) before its PerfContext; "
                    + $"the case gives {data.Length}.")
                : null);
        if (problem is not null)
        {
            test.RunState = RunState.NotRunnable;
            test.Properties.Set(PropertyNames.SkipReason, problem);
        }

        s_specs.AddOrUpdate(test, new PerfNUnitSpec(declaration, attribute, data, sourceFilePath));
        return test;
    }

    /// <summary>Replaces the method invocation with <see cref="PerfTestCommand"/>, once however many attributes ask.</summary>
    public static TestCommand Wrap(TestCommand command) => command is PerfTestCommand ? command : new PerfTestCommand(command);

    /// <summary>What built <paramref name="test"/>.</summary>
    public static PerfNUnitSpec Spec(TestMethod test) =>
        s_specs.TryGetValue(test, out PerfNUnitSpec? spec)
            ? spec
            : throw new InvalidOperationException(NUnitMessages.NotBuiltByAPicolloAttribute(test.FullName));
}
