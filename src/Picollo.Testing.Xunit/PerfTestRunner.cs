using System.Reflection;
using Xunit;
using Xunit.v3;

namespace Picollo.Testing.Xunit;

/// <summary>
/// xunit's test runner (class creation, fixtures, before/after attributes, timeout, output, skip and messages) with only
/// the invocation of the method replaced: <see cref="PerfTestExecution"/> runs it, and its outcome becomes xunit's (a
/// failure is the thrown assertion, a skip xunit's dynamic skip).
/// </summary>
internal sealed class PerfTestRunner : XunitTestRunner
{
    /// <summary>The runner (stateless, like xunit's).</summary>
    public static new PerfTestRunner Instance { get; } = new();

    /// <inheritdoc/>
    protected override object? InvokeTestMethod(XunitTestRunnerContext ctxt, object? testClassInstance)
    {
        ArgumentNullException.ThrowIfNull(ctxt);
        IXunitTest test = ctxt.Test;
        MethodInfo method = ctxt.TestMethod;
        IPerfTestDeclaration declaration = method.GetCustomAttributes().OfType<IPerfTestDeclaration>().Single();
        string attribute = declaration is PerfTheoryAttribute ? PerfXunit.TheoryName : PerfXunit.FactName;
        object?[] data = PerfXunit.DataOnly(method, ctxt.TestMethodArguments);
        string sourceFilePath = test.TestCase.SourceFilePath ?? (declaration as FactAttribute)?.SourceFilePath ?? string.Empty;
        string className = method.DeclaringType?.Name ?? test.TestCase.TestClassSimpleName;
        bool preEnumerated = declaration is PerfTheoryAttribute && test.TestCase is not XunitDelayEnumeratedTheoryTestCase;
        var descriptor = new PerfTestDescriptor(
            attribute, method, className, PerfTestDescriptor.CaseNameOf(data), sourceFilePath, declaration)
        {
            Worker = Worker(method, test.TestCase.UniqueID, test.TestDisplayName, preEnumerated),
            SimulationWorker = LeanWorker(method, data, attribute, sourceFilePath, test.TestDisplayName),
        };

        ITestContext context = TestContext.Current;
        var host = new XunitPerfTestHost(context);
        PerfTestOutcome outcome = PerfTestExecution.Run(descriptor, testClassInstance, data, host, context.CancellationToken);
        if (outcome.SkipReason is { } reason)
            throw new PerfSkipException(reason);
        return null;
    }

    // The test without xunit, for its simulated counters (LeanTestHost), where xunit would add nothing to its run: not for a
    // class that xunit initializes asynchronously (IAsyncLifetime) or wraps in before/after attributes; fixtures and the
    // output helper come through constructor parameters, which a lean worker has none of.
    private static PerfTestWorker? LeanWorker(
        MethodInfo method, object?[] data, string attribute, string sourceFilePath, string displayName)
    {
        Type? type = method.DeclaringType;
        if (type is null || typeof(IAsyncLifetime).IsAssignableFrom(type)
            || method.IsDefined(typeof(BeforeAfterTestAttribute), inherit: true)
            || type.IsDefined(typeof(BeforeAfterTestAttribute), inherit: true)
            || type.Assembly.IsDefined(typeof(BeforeAfterTestAttribute), inherit: true))
        {
            return null;
        }

        string description = $"{displayName} in {Path.GetFileName(type.Assembly.Location)}";
        return LeanTestHost.Worker(method, data, attribute, sourceFilePath, typeof(PerfTestRunner).Assembly.Location, description);
    }

    // An xunit.v3 test assembly is a program whose own runner takes a test case's id (-id), so a fresh process runs this one
    // test case through the whole pipeline (class construction, fixtures, before/after attributes) with the worker's
    // variables; for a theory whose rows are enumerated at run time, every row runs and only this one's baseline measures.
    // An assembly that is not a program (run in-process by another host) has no worker.
    // A theory row the runner enumerated at discovery (VSTest does) has an id only a runner that pre-enumerates finds: the
    // child's own runner does not by default, ran 0 tests for a row of the samples' FnvPerf.Hash, and left the row's
    // regressions unconfirmed by fresh processes.
    private static PerfTestWorker? Worker(MethodInfo method, string uniqueId, string displayName, bool preEnumerated)
    {
        string assembly = method.Module.Assembly.Location;
        if (assembly.Length == 0 || !File.Exists(Path.ChangeExtension(assembly, ".runtimeconfig.json")))
            return null;
        string[] arguments = [assembly, "-id", uniqueId, "-noLogo", "-noColor", "-noAutoReporters", "-parallel", "none"];
        return new PerfTestWorker(
            DotnetHost.Path,
            preEnumerated ? [.. arguments, "-preEnumerateTheories"] : arguments,
            new Dictionary<string, string>(),
            $"{displayName} in {Path.GetFileName(assembly)}");
    }
}
