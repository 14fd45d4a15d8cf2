using System.Reflection;
using System.Runtime.Loader;
using System.Text;
using System.Text.Json;
using Picollo.Assertions;

namespace Picollo.Testing;

/// <summary>
/// Runs one perf test without its test framework, in a simulation worker (docs/COUNTERS.md, "Simulated counters"): the
/// test assembly started as a program with an adapter as its startup hook, which creates the test class and runs the
/// method through <see cref="PerfTestExecution"/>, then ends the process before the program's own Main. Under Valgrind a
/// test framework's start and discovery took about 10 s of the 14 s a worker needed; this takes a fraction of it. Used
/// only where the framework adds nothing: a class with a parameterless constructor (or a static method), data of the
/// types attributes hold, and none of the set-up the adapter knows its framework would run (the adapter decides that).
/// </summary>
internal static class LeanTestHost
{
    /// <summary>The variable that holds the test a lean worker runs (JSON: assembly, method, data, attribute, source).</summary>
    public const string Variable = "PICOLLO_SIMULATION_LEAN";

    /// <summary>
    /// How <paramref name="method"/> with <paramref name="data"/> starts in a lean worker, or <see langword="null"/> when it
    /// cannot (then its framework's worker runs it).
    /// </summary>
    /// <param name="method">The test method.</param>
    /// <param name="data">Its case's data, without the <see cref="PerfContext"/>.</param>
    /// <param name="attribute">The attribute as messages write it, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="sourceFilePath">The test's source file.</param>
    /// <param name="hookAssembly">The adapter assembly whose <c>StartupHook</c> calls <see cref="RunIfAsked"/>.</param>
    /// <param name="description">The test as messages name it.</param>
    /// <returns>The worker, or <see langword="null"/>.</returns>
    public static PerfTestWorker? Worker(
        MethodInfo method, IReadOnlyList<object?> data, string attribute, string sourceFilePath, string hookAssembly, string description)
    {
        ArgumentNullException.ThrowIfNull(method);
        string assembly = method.Module.Assembly.Location;
        Type? type = method.DeclaringType;
        if (assembly.Length == 0 || hookAssembly.Length == 0 || type is null || type.IsAbstract && !method.IsStatic
            || type.ContainsGenericParameters || method.ContainsGenericParameters
            || !File.Exists(Path.ChangeExtension(assembly, ".runtimeconfig.json"))
            || (!method.IsStatic && type.GetConstructor(Type.EmptyTypes) is null)
            || LeanTestData.Write(data) is not { } json)
        {
            return null;
        }

        string test = Describe(assembly, method, json, attribute, sourceFilePath);
        return new PerfTestWorker(
            DotnetHost.Path,
            [assembly],
            new Dictionary<string, string>
            {
                // After the user's own hooks, which the child keeps.
                ["DOTNET_STARTUP_HOOKS"] = Environment.GetEnvironmentVariable("DOTNET_STARTUP_HOOKS") is { Length: > 0 } hooks
                    ? hooks + Path.PathSeparator + hookAssembly
                    : hookAssembly,
                [Variable] = test,
            },
            description);
    }

    /// <summary>
    /// In a process started by <see cref="Worker"/>: runs the test and ends the process (0 when the test ran, 1 when it
    /// failed, 2 when it could not be run). Anywhere else it does nothing, so a startup hook that calls it changes no
    /// other process.
    /// </summary>
    public static void RunIfAsked()
    {
        if (Environment.GetEnvironmentVariable(Variable) is not { Length: > 0 } test)
            return;

        // Read once and cleared, so a process the test itself starts neither runs a hook nor the test again.
        foreach (string variable in (string[])[Variable, "DOTNET_STARTUP_HOOKS"])
            Environment.SetEnvironmentVariable(variable, null);
        Environment.Exit(Run(test));
    }

    private static int Run(string test)
    {
        object? instance = null;
        try
        {
            using JsonDocument document = JsonDocument.Parse(test);
            JsonElement root = document.RootElement;
            Assembly assembly = AssemblyLoadContext.Default.LoadFromAssemblyPath(root.GetProperty("assembly").GetString()!);
            var method = (MethodInfo)assembly.ManifestModule.ResolveMethod(root.GetProperty("method").GetInt32())!;
            object?[] data = LeanTestData.Read(root.GetProperty("data").GetString()!);
            IPerfTestDeclaration declaration = method.GetCustomAttributes().OfType<IPerfTestDeclaration>().Single();
            instance = method.IsStatic ? null : Activator.CreateInstance(method.DeclaringType!);
            var descriptor = new PerfTestDescriptor(
                root.GetProperty("attribute").GetString()!,
                method,
                method.DeclaringType!.Name,
                PerfTestDescriptor.CaseNameOf(data),
                root.GetProperty("source").GetString()!,
                declaration);
            PerfTestOutcome outcome = PerfTestExecution.Run(descriptor, instance, data, new ConsoleHost(), CancellationToken.None);
            Console.WriteLine(PerfTestMessages.LeanWorkerRan(descriptor.DisplayName, outcome.SkipReason));
            return 0;
        }
        catch (Exception e) when (e is JsonException or InvalidDataException or IOException or BadImageFormatException
            or ArgumentException or InvalidOperationException or MissingMethodException or TargetInvocationException)
        {
            Console.Error.WriteLine(PerfTestMessages.LeanWorkerCouldNotRun(e.GetType().Name, e.Message));
            return 2;
        }
        catch (Exception e)
        {
            // The test's own failure: the test's process reports it; here it is the worker's last words.
            Console.Error.WriteLine(PerfTestMessages.LeanWorkerTestFailed(e.GetType().FullName ?? e.GetType().Name, e.Message));
            return 1;
        }
        finally
        {
            (instance as IDisposable)?.Dispose();
        }
    }

    private static string Describe(string assembly, MethodInfo method, string data, string attribute, string sourceFilePath)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteString("assembly", assembly);
            writer.WriteNumber("method", method.MetadataToken);
            writer.WriteString("data", data);
            writer.WriteString("attribute", attribute);
            writer.WriteString("source", sourceFilePath);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(stream.ToArray());
    }

    // The worker's channels: its output is read for its last words only.
    private sealed class ConsoleHost : IPerfAssertionHost
    {
        public void ReportUnavailable(string counterName, string assertion, string reason) =>
            Console.WriteLine($"Warning: {assertion} did not run: '{counterName}' is unavailable here. {reason}");

        public void ReportNotice(string assertion, string message) => Console.WriteLine($"Warning: {assertion}: {message}");

        public void ReportOutput(string text) => Console.WriteLine(text.TrimEnd('\n'));

        public void ReportAttachment(string path, string description)
        {
        }
    }
}
