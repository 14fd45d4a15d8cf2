using NUnit.Framework;
using NUnit.Framework.Interfaces;
using NUnit.Framework.Internal;
using NUnit.Framework.Internal.Commands;

namespace Picollo.Testing.NUnit;

/// <summary>
/// Takes the place of NUnit's method invocation for a perf test: <see cref="PerfTestExecution"/> runs it, a skip becomes
/// <c>Assert.Ignore</c> (reported Skipped by the VSTest adapter), a failure is the assertion's exception. Set-up, tear-down
/// and the fixture stay NUnit's.
/// </summary>
internal sealed class PerfTestCommand(TestCommand innerCommand) : DelegatingTestCommand(innerCommand)
{
    /// <inheritdoc/>
    public override TestResult Execute(TestExecutionContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var test = (TestMethod)Test;
        PerfNUnitSpec spec = PerfNUnit.Spec(test);
        var method = test.Method.MethodInfo;
        string sourceFilePath = spec.SourceFilePath is { Length: > 0 } known ? known : SourceFile.Of(method, spec.Attribute);
        string className = method.DeclaringType?.Name ?? test.TypeInfo?.Name ?? "Test";
        var descriptor = new PerfTestDescriptor(
            spec.Attribute, method, className, PerfTestDescriptor.CaseNameOf(spec.Data), sourceFilePath, spec.Declaration)
        {
            Worker = Worker(method, test.FullName),
            SimulationWorker = LeanWorker(method, spec.Data, spec.Attribute, sourceFilePath, test.FullName),
        };

        using var host = new NUnitPerfTestHost(context);
        PerfTestOutcome outcome = PerfTestExecution.Run(descriptor, context.TestObject, spec.Data, host, host.CancellationToken);
        if (outcome.SkipReason is { } reason)
            Assert.Ignore(reason);

        context.CurrentResult.SetResult(ResultState.Success);

        // As NUnit's own method command: Assert.Warn or Assert.Multiple results in the test turn into its outcome.
        if (context.CurrentResult.AssertionResults.Count > 0)
            context.CurrentResult.RecordTestCompletion();
        return context.CurrentResult;
    }

    // The test without NUnit, for its simulated counters (LeanTestHost), where NUnit would add nothing to its run: not for a
    // fixture with set-up or tear-down methods of its own or inherited, or under a set-up fixture of its namespace; a
    // fixture with arguments has no parameterless constructor, which a lean worker needs.
    private static PerfTestWorker? LeanWorker(
        System.Reflection.MethodInfo method, object?[] data, string attribute, string sourceFilePath, string fullName)
    {
        Type? type = method.DeclaringType;
        if (type is null || HasSetUp(type) || SetUpFixtureOver(type))
            return null;
        string adapter = typeof(PerfTestCommand).Assembly.Location;
        string description = $"{fullName} in {Path.GetFileName(type.Assembly.Location)}";
        return LeanTestHost.Worker(method, data, attribute, sourceFilePath, adapter, description);
    }

    private static bool HasSetUp(Type type)
    {
        const System.Reflection.BindingFlags All = System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Static
            | System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic;
        Type[] setUps =
            [typeof(SetUpAttribute), typeof(TearDownAttribute), typeof(OneTimeSetUpAttribute), typeof(OneTimeTearDownAttribute)];
        for (Type? t = type; t is not null && t != typeof(object); t = t.BaseType)
        {
            if (t.GetMethods(All).Any(m => setUps.Any(s => m.IsDefined(s, inherit: true))))
                return true;
        }

        return false;
    }

    // A [SetUpFixture] applies to its namespace and those under it (one without a namespace, to the whole assembly).
    private static bool SetUpFixtureOver(Type type) =>
        type.Assembly.GetTypes().Any(t => t.IsDefined(typeof(SetUpFixtureAttribute), inherit: false)
            && (string.IsNullOrEmpty(t.Namespace) || type.Namespace == t.Namespace
                || (type.Namespace?.StartsWith(t.Namespace + ".", StringComparison.Ordinal) ?? false)));

    // An NUnit test assembly built with Microsoft.NET.Test.Sdk is a program whose Main does nothing: a fresh process of it
    // loads this adapter as a startup hook (StartupHook), which runs the one test through NUnit's runner. An assembly that
    // is not a program (loaded by another host) has no worker.
    private static PerfTestWorker? Worker(System.Reflection.MethodInfo method, string fullName)
    {
        string assembly = method.Module.Assembly.Location;
        string adapter = typeof(PerfTestCommand).Assembly.Location;
        if (assembly.Length == 0 || adapter.Length == 0 || !File.Exists(Path.ChangeExtension(assembly, ".runtimeconfig.json")))
            return null;
        return new PerfTestWorker(
            DotnetHost.Path,
            [assembly],
            new Dictionary<string, string>
            {
                // After the user's own hooks, which the child keeps.
                ["DOTNET_STARTUP_HOOKS"] = Environment.GetEnvironmentVariable("DOTNET_STARTUP_HOOKS") is { Length: > 0 } hooks
                    ? hooks + Path.PathSeparator + adapter
                    : adapter,
                [StartupHook.TestVariable] = fullName,
                [StartupHook.AssemblyVariable] = assembly,
            },
            $"{fullName} in {Path.GetFileName(assembly)}");
    }
}
