using System.Text.RegularExpressions;
using Picollo.Assertions;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.Testing;
using Picollo.Tests.Architecture;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// The one ambient value of a running perf test (issue 28): <see cref="PerfTestContext.Enter"/> sets the test's context and
/// the lower layers' ambient values (the assertions' host and scope, the engine's cancellation) for the flow, and leaving
/// restores every one of them, also when the body throws and when contexts nest; and nothing else in src/ writes them.
/// </summary>
public sealed partial class PerfTestContextTests
{
    // The one file that writes the ambient values (each value's own file writes only its AsyncLocal, and Use its scope).
    private const string Writer = "src/Picollo/Testing/PerfTestContext.cs";

    // The files that may hold an AsyncLocal: the context's, and the lower layers' values it sets.
    private static readonly string[] s_ambientFiles =
    [
        "src/Picollo/Assertions/PerfAssertionHost.cs",
        "src/Picollo/Assertions/PerfAssertionScope.cs",
        "src/Picollo/Measurement/Engine/MeasurementCancellation.cs",
        "src/Picollo/Measurement/Simulated/SimulatedMeasurers.cs",
        Writer,
    ];

    [Fact]
    public void Entering_SetsEveryValue_AndLeavingRestoresThem()
    {
        Ambient outside = Ambient.Read();
        using var cancellation = new CancellationTokenSource();
        Parts test = Parts.Of("A", cancellation.Token);

        using (PerfTestContext.Enter(test.Perf, test.Host, test.Scope))
        {
            test.ShouldBeCurrentIn(Ambient.Read());
        }

        Ambient.Read().ShouldBe(outside);
    }

    [Fact]
    public void Leaving_RestoresEveryValue_WhenTheBodyThrows()
    {
        Ambient outside = Ambient.Read();
        Parts test = Parts.Of("A", CancellationToken.None);

        Should.Throw<InvalidOperationException>(() =>
        {
            using (PerfTestContext.Enter(test.Perf, test.Host, test.Scope))
                throw new InvalidOperationException("The body failed.");
        });

        Ambient.Read().ShouldBe(outside);
    }

    [Fact]
    public void NestedContext_RestoresTheOuterOne()
    {
        Ambient outside = Ambient.Read();
        using var outerCancellation = new CancellationTokenSource();
        using var innerCancellation = new CancellationTokenSource();
        Parts outer = Parts.Of("Outer", outerCancellation.Token);
        Parts inner = Parts.Of("Inner", innerCancellation.Token);

        using (PerfTestContext.Enter(outer.Perf, outer.Host, outer.Scope))
        {
            using (PerfTestContext.Enter(inner.Perf, inner.Host, inner.Scope))
                inner.ShouldBeCurrentIn(Ambient.Read());

            outer.ShouldBeCurrentIn(Ambient.Read());
        }

        Ambient.Read().ShouldBe(outside);
    }

    [Fact]
    public void LeavingTwice_RestoresOnce()
    {
        Parts outer = Parts.Of("Outer", CancellationToken.None);
        Parts inner = Parts.Of("Inner", CancellationToken.None);

        using (PerfTestContext.Enter(outer.Perf, outer.Host, outer.Scope))
        {
            IDisposable entered = PerfTestContext.Enter(inner.Perf, inner.Host, inner.Scope);
            entered.Dispose();
            using (PerfTestContext.Enter(inner.Perf, inner.Host, inner.Scope))
            {
                // A second Dispose of the first scope must not put the outer context back under the running inner one.
                entered.Dispose();
                inner.ShouldBeCurrentIn(Ambient.Read());
            }
        }
    }

    [Fact]
    public async Task Values_FlowIntoAwaitedCodeAndStartedTasks()
    {
        Ambient outside = Ambient.Read();
        using var cancellation = new CancellationTokenSource();
        Parts test = Parts.Of("A", cancellation.Token);

        using (PerfTestContext.Enter(test.Perf, test.Host, test.Scope))
        {
            await Task.Yield();
            test.ShouldBeCurrentIn(Ambient.Read());
            test.ShouldBeCurrentIn(await Task.Run(Ambient.Read, TestContext.Current.CancellationToken));
        }

        Ambient.Read().ShouldBe(outside);
    }

    [Fact]
    public async Task Values_DoNotLeakToAnotherFlow()
    {
        Ambient outside = Ambient.Read();
        Parts first = Parts.Of("First", CancellationToken.None);
        Parts second = Parts.Of("Second", CancellationToken.None);
        var firstInside = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var secondDone = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        CancellationToken timeout = TestContext.Current.CancellationToken;

        // Two flows run at once, each in its own context; the second looks while the first is inside its context.
        Task firstFlow = Task.Run(
            async () =>
            {
                using (PerfTestContext.Enter(first.Perf, first.Host, first.Scope))
                {
                    firstInside.SetResult();
                    await secondDone.Task.WaitAsync(timeout);
                    first.ShouldBeCurrentIn(Ambient.Read());
                }
            },
            timeout);
        Task<(Ambient Before, Ambient Inside)> secondFlow = Task.Run(
            async () =>
            {
                try
                {
                    await firstInside.Task.WaitAsync(timeout);
                    Ambient before = Ambient.Read();
                    using (PerfTestContext.Enter(second.Perf, second.Host, second.Scope))
                        return (before, Ambient.Read());
                }
                finally
                {
                    // Also when this flow fails, so the first one stops waiting.
                    secondDone.TrySetResult();
                }
            },
            timeout);

        await firstFlow;
        (Ambient before, Ambient inside) = await secondFlow;
        before.ShouldBe(outside);
        second.ShouldBeCurrentIn(inside);

        // What the started flows entered does not flow back to the flow that started them.
        Ambient.Read().ShouldBe(outside);
    }

    [Fact]
    public void OnlyTheContext_WritesTheAmbientValues()
    {
        (string File, int Line, string Text)[] writes = [.. Matches(AmbientWrite())];

        writes.Where(static w => w.File != Writer).ShouldBeEmpty(
            "Only PerfTestContext.Enter sets and restores a test's ambient values (issue 28): install an assertion host for a "
            + "scope with PerfAssertionHost.Use, and run a test through PerfTestExecution.Run.");

        // The reader is only as good as its pattern: it sees the writes that exist.
        writes.Select(static w => w.File).ShouldContain(Writer);
    }

    [Fact]
    public void NoOtherAmbientValue_ExistsInSource()
    {
        string[] holders = [.. Matches(AsyncLocalField()).Select(static m => m.File).Distinct().Order(StringComparer.Ordinal)];

        holders.ShouldBe(
            [.. s_ambientFiles.Order(StringComparer.Ordinal)],
            "A test's ambient values are the context's (PerfTestContext) and the lower layers' that it sets: carry a new one in "
            + "the context rather than in an AsyncLocal of its own (issue 28).");
    }

    // Every line of src/ matching the pattern, comments stripped (a comment names a write without making one).
    private static IEnumerable<(string File, int Line, string Text)> Matches(Regex pattern)
    {
        foreach (string file in SourceTree.SourceFiles())
        {
            string[] lines = File.ReadAllLines(file);
            for (int i = 0; i < lines.Length; i++)
            {
                int comment = lines[i].IndexOf("//", StringComparison.Ordinal);
                string code = comment < 0 ? lines[i] : lines[i][..comment];
                if (pattern.IsMatch(code))
                    yield return (SourceTree.Relative(file), i + 1, lines[i].Trim());
            }
        }
    }

    // An assignment (not a comparison) to one of the ambient values, or the setter PerfContext had before the context.
    [GeneratedRegex(@"\b(?:PerfTestContext|PerfContext|PerfAssertionHost|PerfAssertionScope|MeasurementCancellation|SimulatedMeasurers)\.Current\s*=(?!=)"
        + @"|\bPerfContext\.SetCurrent\b|\bPerfAssertionScope\.(?:Begin|End)\(")]
    private static partial Regex AmbientWrite();

    [GeneratedRegex(@"\bAsyncLocal<")]
    private static partial Regex AsyncLocalField();

    // What a test's ambient values are at one moment, compared as a whole.
    private sealed record Ambient(
        PerfTestContext? Context, PerfContext? Perf, IPerfAssertionHost Host, PerfAssertionScope? Scope, CancellationToken Cancellation)
    {
        public static Ambient Read() => new(
            PerfTestContext.Current,
            PerfContext.Current,
            PerfAssertionHost.Current,
            PerfAssertionScope.Current,
            MeasurementCancellation.Current);
    }

    // One test's parts, as PerfTestExecution.Run makes them.
    private sealed record Parts(PerfContext Perf, IPerfAssertionHost Host, PerfAssertionScope Scope)
    {
        public static Parts Of(string name, CancellationToken cancellation)
        {
            var test = new PerfTestDescriptor(
                "[PerfFact]",
                typeof(PerfTestContextTests).GetMethod(nameof(Entering_SetsEveryValue_AndLeavingRestoresThem))!,
                nameof(PerfTestContextTests),
                name,
                Path.Combine(Path.GetTempPath(), "PerfTestContextTests.cs"),
                new PerfDefaultsAttribute());
            var scope = new PerfAssertionScope(nameof(PerfTestContextTests), test.Method.Name, name);
            return new Parts(new PerfContext(test, PerfOptions.Default, cancellation), new NullHost(), scope);
        }

        // The context holds these parts, and each lower layer's value is the context's.
        public void ShouldBeCurrentIn(Ambient ambient)
        {
            PerfTestContext context = ambient.Context.ShouldNotBeNull();
            context.Perf.ShouldBeSameAs(Perf);
            context.Host.ShouldBeSameAs(Host);
            context.Scope.ShouldBeSameAs(Scope);
            context.Test.ShouldBeSameAs(Perf.Test);
            context.CancellationToken.ShouldBe(Perf.CancellationToken);
            ambient.ShouldBe(new Ambient(context, Perf, Host, Scope, Perf.CancellationToken));
        }
    }

    private sealed class NullHost : IPerfAssertionHost
    {
        public void ReportUnavailable(string counterName, string assertion, string reason)
        {
        }

        public void ReportNotice(string assertion, string message)
        {
        }

        public void ReportOutput(string text)
        {
        }

        public void ReportAttachment(string path, string description)
        {
        }
    }
}
