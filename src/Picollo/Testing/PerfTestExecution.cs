using System.Globalization;
using System.Reflection;
using System.Runtime.CompilerServices;
using Picollo.Assertions;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;
using Picollo.Reporting;
using Picollo.Simulation;

namespace Picollo.Testing;

/// <summary>
/// Runs one perf test for an adapter, the same way for every test framework (docs/TESTING.md): parses the declared knobs,
/// takes the machine-wide measurement lock, measures (the method body as the operation, or the method with a
/// <see cref="PerfContext"/>, or with <c>Against</c> the body beside its reference method, whose relative claims replace the
/// baseline), applies the declared budgets and the baseline, and turns what could not be checked into
/// warnings and, when nothing could, a skip. The adapters only discover tests and translate the outcome.
/// </summary>
internal static class PerfTestExecution
{
    /// <summary>The index of the method's <see cref="PerfContext"/> parameter (always last), or -1 when it takes none.</summary>
    /// <param name="method">A test method.</param>
    /// <returns>The index or -1.</returns>
    public static int PerfContextIndex(MethodInfo method)
    {
        ArgumentNullException.ThrowIfNull(method);
        ParameterInfo[] parameters = method.GetParameters();
        return parameters.Length > 0 && parameters[^1].ParameterType == typeof(PerfContext) ? parameters.Length - 1 : -1;
    }

    /// <summary>
    /// Why <paramref name="method"/> cannot be a perf test, with the form that works; <see langword="null"/> when it
    /// can.
    /// </summary>
    /// <param name="attribute">The attribute as written in messages, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="method">The test method.</param>
    /// <param name="takesData">Whether the attribute gives it data (a theory or test case): data parameters are allowed.</param>
    /// <returns>The problem, or <see langword="null"/>.</returns>
    public static string? SignatureProblem(string attribute, MethodInfo method, bool takesData)
    {
        ArgumentNullException.ThrowIfNull(method);
        string name = $"{method.DeclaringType?.Name}.{method.Name}";
        if (method.IsDefined(typeof(AsyncStateMachineAttribute)) || IsAwaitable(method.ReturnType))
            return PerfTestMessages.AsyncTest(attribute, name, method.Name);
        if (method.IsGenericMethodDefinition)
            return PerfTestMessages.GenericTest(attribute, name);

        ParameterInfo[] parameters = method.GetParameters();
        for (int i = 0; i < parameters.Length; i++)
        {
            ParameterInfo p = parameters[i];
            if (p.ParameterType == typeof(PerfContext) && i != parameters.Length - 1)
                return PerfTestMessages.ContextNotLast(attribute, name, p.Name);
            if (p.ParameterType.IsByRef || p.ParameterType.IsByRefLike || p.ParameterType.IsPointer)
                return PerfTestMessages.ParameterNotAValue(attribute, name, p.Name, p.ParameterType.IsByRefLike);
        }

        int data = parameters.Length - (PerfContextIndex(method) >= 0 ? 1 : 0);
        if (data > 0 && !takesData)
            return PerfTestMessages.ParametersWithoutData(attribute, name, method.Name, parameters.Take(data).Select(static p => p.Name));
        if (PerfContextIndex(method) < 0 && data > OperationBinder.MaxArguments)
            return PerfTestMessages.TooManyParameters(attribute, name, method.Name, data, OperationBinder.MaxArguments);
        return null;
    }

    /// <summary>Runs one perf test.</summary>
    /// <param name="test">The test.</param>
    /// <param name="instance">The test-class instance, or <see langword="null"/> for a static method.</param>
    /// <param name="data">The case's data, without a <see cref="PerfContext"/> slot (empty for a test without data).</param>
    /// <param name="host">The adapter's channels: output, warnings, attachments.</param>
    /// <param name="cancellationToken">The test's cancellation: a measurement stops between samples when it fires.</param>
    /// <returns>Passed, or skipped with the reason.</returns>
    /// <exception cref="PerfTestConfigurationException">
    /// A knob is invalid or the method cannot be a perf test: fail the test with the message.
    /// </exception>
    /// <exception cref="PerfAssertionException">A budget, the baseline or the claim against the reference failed.</exception>
    /// <exception cref="PerfBodyException">With <c>Against</c>: the body or the reference threw; the message names which.</exception>
    /// <exception cref="OperationCanceledException">The test was cancelled.</exception>
    public static PerfTestOutcome Run(
        PerfTestDescriptor test, object? instance, object?[] data, IPerfAssertionHost host, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(test);
        ArgumentNullException.ThrowIfNull(data);
        ArgumentNullException.ThrowIfNull(host);
        if (SignatureProblem(test.Attribute, test.Method, data.Length > 0) is { } problem)
            throw new PerfTestConfigurationException(problem);

        // A fresh process started to measure one theory row runs the method's other rows too (xunit runs a theory whose rows
        // are enumerated at run time as one test case): they measure nothing. So does a simulation worker's.
        if ((OtherRowOfAWorker(test) ?? OtherTestOfASimulationWorker(test)) is { } other)
            return new PerfTestOutcome(other, [], []);

        IPerfTestDeclaration? defaults = test.Method.Module.Assembly.GetCustomAttribute<PerfDefaultsAttribute>();
        PerfTestSettings settings = PerfTestSettings.Parse(test.Attribute, test.Declaration, defaults, PerfOptions.AssemblyDefault);
        MethodInfo? reference = settings.Against is { } against
            ? OperationBinder.FindReference(test.Attribute, test.Method, against)
            : null;
        var bridge = new PerfTestHostBridge(host, settings.WhenUnavailable);
        bool takesContext = PerfContextIndex(test.Method) >= 0;

        // A PerfContext test's bodies are known only when it measures them: its context settles before the first.
        var context = new PerfContext(
            test, settings.Options, cancellationToken, takesContext ? () => SettleJit(host, cancellationToken) : null);

        var scope = new PerfAssertionScope(test.TestClass, test.Method.Name, test.CaseName)
        {
            FreshProcesses = test.Worker is { } worker ? new FreshProcessRunner(worker, settings.Options.TimeBudget) : null,
            RecordingProcesses = settings.RecordingProcesses,
            ResultsDirectory = PerfResultsFolder.Of(test.Method.Module.Assembly),
        };

        // The test's ambient values (its context, host, scope, cancellation and who counts its simulated counters) for all it
        // runs and awaits, restored in one place however it ends: disposed after the catch below, as the finally that
        // restored them one by one was. The simulation worker, if one started, ends with the test.
        using SimulationWorker? simulation = NewSimulationWorker(test);
        using IDisposable entered = PerfTestContext.Enter(context, bridge, scope, SimulatedMeasurer(test, simulation));
        PairedPeer? peer = PairedPeer.Current;
        peer?.BeginTest(test.DisplayName);
        try
        {
            string? skip = SkipNotShippedCode(test, takesContext, bridge)
                ?? MeasureAlone(test, settings, reference, instance, data, context, host, bridge);

            // A picollo ab worker tells the tool why its side measured nothing, for the tool's report.
            PerfTestOutcome outcome = Outcome(skip, settings, scope, bridge, context);
            if (outcome.SkipReason is { } reason)
                peer?.WriteSkip(test.DisplayName, reason);
            return outcome;
        }
        catch (Exception e) when (peer is not null && e is not OperationCanceledException)
        {
            // picollo ab reports the test as failing on this side; the test framework reports it as usual.
            peer.WriteFailure(test.DisplayName, e.Message);
            throw;
        }
    }

    // Code built without optimizations or instrumented for code coverage is never measured (docs/ARCHITECTURE.md,
    // "Measurement engine"): said before the lock and the JIT settle, which cost each skipped test about a second (issue
    // 27). A method measured as the operation (and its Against reference, of the same class) tells its build; coverage is
    // the process's, so every test tells it, the test assembly's references loaded first. Returns the skip's reason, or null.
    private static string? SkipNotShippedCode(PerfTestDescriptor test, bool takesContext, PerfTestHostBridge bridge)
    {
        string subject = $"The perf test {test.DisplayName}";
        string? reason = !takesContext && CodeOptimization.UnoptimizedBuildReason(test.Method, subject) is { } unoptimized
            ? unoptimized
            : CoverageProbe.Current.Reason(subject, CodeOptimization.Describe(test.Method), test.Method.Module.Assembly);

        // Also a warning: runners show a skipped test's warnings where they show no skip reason (the console logger).
        if (reason is not null)
            bridge.ReportNotice(test.DisplayName, "Skipped: " + reason);
        return reason;
    }

    // The measurement itself, alone on the machine: under the machine-wide lock, after the JIT settles, the body run the
    // way the test declares it, with the other processes' load said. Returns why the test skipped, or null.
    private static string? MeasureAlone(
        PerfTestDescriptor test,
        PerfTestSettings settings,
        MethodInfo? reference,
        object? instance,
        object?[] data,
        PerfContext context,
        IPerfAssertionHost host,
        PerfTestHostBridge bridge)
    {
        bool takesContext = PerfContextIndex(test.Method) >= 0;
        using MeasurementLock? machineLock = MeasurementLock.Acquire(MeasurementLock.DefaultTimeout, context.CancellationToken);
        if (machineLock is { Waited.TotalMilliseconds: > 100 } held)
        {
            host.ReportOutput(PerfTestMessages.WaitedForMachineLock(held.Waited));
        }

        if (!takesContext)
            SettleJit(host, context.CancellationToken);

        MachineLoad before = MachineLoad.Read();
        string? skip = null;
        try
        {
            if (takesContext)
                RunWithContext(test, settings, instance, data, context);
            else if (reference is not null)
                RunAgainst(test, settings, reference, instance, data, context);
            else
                RunAsOperation(test, settings, instance, data, context);
        }
        catch (PerfTestSkipException e)
        {
            // Also a warning: runners show a skipped test's warnings where they show no skip reason (the console logger).
            skip = e.Message;
            bridge.ReportNotice(test.DisplayName, "Skipped: " + skip);
        }
        finally
        {
            (string? line, bool busy) = MachineLoad.Describe(before, MachineLoad.Read());
            if (line is not null)
                host.ReportOutput(line);
            if (busy && skip is null)
                bridge.ReportNotice(test.DisplayName, line!);
        }

        return skip;
    }

    // The minimum wait (150 ms of quiet) is the price of every perf test; only a compiling process waits longer.
    private static void SettleJit(IPerfAssertionHost host, CancellationToken cancellationToken)
    {
        TimeSpan settled = JitSettle.Wait(cancellationToken);
        if (settled.TotalMilliseconds > 500)
        {
            host.ReportOutput(PerfTestMessages.WaitedForJit(settled));
        }
    }

    private static void RunWithContext(
        PerfTestDescriptor test, PerfTestSettings settings, object? instance, object?[] data, PerfContext context)
    {
        object?[] arguments = [.. data, context];
        if (arguments.Length != test.Method.GetParameters().Length)
        {
            throw new PerfTestConfigurationException(
                PerfTestMessages.CaseDataMismatch(test.Attribute, test.Method.Name, data.Length, test.Method.GetParameters().Length - 1));
        }

        test.Method.Invoke(instance, BindingFlags.DoNotWrapExceptions, null, arguments, CultureInfo.InvariantCulture);

        // In a simulation worker the test's process checks: its regions are written, and that is all this process is for.
        if (IsSimulationWorker)
            return;

        // Declared budgets and Baseline = true apply to the one region the method measured (and that it did not judge itself).
        IReadOnlyList<PerfResult> results = context.Results;
        if (settings.Budgets.Count == 0 && settings.Baseline != true)
            return;
        if (results.Count != 1)
        {
            throw new PerfTestConfigurationException(
                PerfTestMessages.DeclaredChecksNeedOneRegion(test.Attribute, test.DisplayName, results.Count));
        }

        var checks = new PerfTestChecks();
        if (settings.Baseline == true && PerfAssertionScope.Current?.WasJudged(results[0]) != true)
            checks.Other(() => Judge(test, settings, results[0]));
        ApplyBudgets(settings, results[0], test, checks);
        checks.ThrowIfAnyFailed(test.DisplayName);
    }

    // The report is written first either way (by the baseline judgement, or on its own), so a broken budget leaves its
    // evidence; every check runs, and the failures are reported together, budgets first (PerfTestChecks).
    private static void RunAsOperation(
        PerfTestDescriptor test, PerfTestSettings settings, object? instance, object?[] data, PerfContext context)
    {
        PerfResult result = context.Record(OperationBinder.Measure(settings.Options, test.Method, instance, data));
        if (IsSimulationWorker)
            return;
        var checks = new PerfTestChecks();
        if (settings.Baseline != false)
        {
            checks.Other(() => Judge(test, settings, result));
        }
        else
        {
            result.WriteReport(
                test.TestClass,
                test.CaseName,
                callerFilePath: test.SourceFilePath,
                testMethod: test.Method.Name,
                expression: test.DisplayName);
        }

        ApplyBudgets(settings, result, test, checks);
        checks.ThrowIfAnyFailed(test.DisplayName);
    }

    // Against: the body is the candidate, the reference method measured beside it. The relative claims replace the stored
    // baseline (none is read or written); the budgets apply to the candidate. The comparison's table is in the output first
    // (PerfContext.Record), so a failed claim or budget leaves its evidence; a body that throws is a PerfBodyException
    // naming the side and the method, the test's failure.
    private static void RunAgainst(
        PerfTestDescriptor test, PerfTestSettings settings, MethodInfo reference, object? instance, object?[] data, PerfContext context)
    {
        PerfComparison comparison = context.Record(OperationBinder.Compare(settings.Options, reference, test.Method, instance, data));
        double confidence = settings.Confidence ?? PairedCounter.DefaultConfidence;
        var checks = new PerfTestChecks();
        if (settings.MinSpeedup is { } speedup)
        {
            PairedCounter time = TimeCounter(comparison);
            string claim = $"{test.DisplayName} MinSpeedup {time.Name}";
            checks.Other(() => time.ShouldBeFasterBy(speedup, settings.MinCohensD, confidence, claim));
        }

        if (settings.MaxSlowdown is { } slowdown)
        {
            // Every time counter the machine counts; none counted is reported as unavailable on tsc, never passed unchecked.
            if (comparison.Counters.Any(static c => c.IsTimeLike && c.IsAvailable))
            {
                checks.Other(() => comparison.ShouldNotBeSlower(slowdown, confidence, $"{test.DisplayName} MaxSlowdown"));
            }
            else
            {
                string claim = $"{test.DisplayName} MaxSlowdown {comparison.Tsc.Name}";
                checks.Other(() => comparison.Tsc.ShouldNotBeSlower(slowdown, confidence, claim));
            }
        }

        ApplyBudgets(settings, comparison.Candidate, test, checks);
        checks.ThrowIfAnyFailed(test.DisplayName);
    }

    // The counter a speed-up is claimed on: tsc, else the first time counter the machine counts, else tsc (reported unavailable).
    private static PairedCounter TimeCounter(PerfComparison comparison) =>
        comparison.Counters.FirstOrDefault(static c =>
            c.IsAvailable && string.Equals(c.Name, CounterNames.Tsc, StringComparison.OrdinalIgnoreCase))
        ?? comparison.Counters.FirstOrDefault(static c => c.IsAvailable && c.IsTimeLike)
        ?? comparison.Tsc;

    private static void Judge(PerfTestDescriptor test, PerfTestSettings settings, PerfResult result) =>
        result.ShouldNotRegress(
            testClass: test.TestClass,
            caseName: test.CaseName,
            maxChange: settings.MaxChange,
            confidence: settings.Confidence,
            maxCohensD: settings.MaxCohensD,
            callerFilePath: test.SourceFilePath,
            testMethod: test.Method.Name,
            expression: test.DisplayName);

    // Each budget through the fluent assertion, so its message, its unavailable-counter handling and its report are the
    // ones a hand-written assertion gets; a declared fallback stands in for an unavailable counter, with a warning.
    private static void ApplyBudgets(PerfTestSettings settings, PerfResult result, PerfTestDescriptor test, PerfTestChecks checks)
    {
        foreach (CounterBudget budget in settings.Budgets)
        {
            CounterResult counter = result[budget.Counter];
            if (!counter.IsAvailable && settings.Fallbacks.TryGetValue(counter.Name, out string? standIn)
                && result[standIn] is { IsAvailable: true } fallback)
            {
                PerfAssertionHost.Current.ReportNotice(
                    $"{budget.Knob} on {counter.Name}",
                    PerfTestMessages.FallbackChecked(counter.Name, counter.UnavailableReason, fallback.Name));
                counter = fallback;
            }

            string expression = $"{test.DisplayName} {budget.Knob} {counter.Name}";
            CounterResult checkedCounter = counter;
            checks.Budget(budget.Knob switch
            {
                nameof(IPerfTestDeclaration.MaxP50) => () => checkedCounter.ShouldHaveP50AtMost(budget.Max, expression),
                nameof(IPerfTestDeclaration.MaxP99) => () => checkedCounter.ShouldHaveP99AtMost(budget.Max, expression),
                nameof(IPerfTestDeclaration.MaxMean) => () => checkedCounter.ShouldHaveMeanAtMost(budget.Max, expression),
                _ => () => checkedCounter.ShouldHaveZeroBudget(expression: expression),
            });
        }
    }

    // Who counts the test's simulated counters (docs/COUNTERS.md, "Simulated counters"): in a simulation worker, the worker
    // itself; in a fresh process measuring for another's recording, nobody (that process counts them); otherwise the test's
    // own simulation worker, when the adapter can start the test in another process.
    private static ISimulatedMeasurer? SimulatedMeasurer(PerfTestDescriptor test, SimulationWorker? simulation) =>
        SimulationWorkerProtocol.WorkerFolder(Environment.GetEnvironmentVariable) is { } folder ? SimulationWorkerSide.ForProcess(folder)
        : FreshProcessWorker.IsWorker(Environment.GetEnvironmentVariable) ? null
        : PairedPeer.IsWorker && Environment.GetEnvironmentVariable(PairedPeer.SimulateVariable) != "1"
            ? new UnavailableSimulation(PerfTestMessages.SimulatedInTheFirstPair())
        : simulation ?? (ISimulatedMeasurer)new UnavailableSimulation(PerfTestMessages.NoSimulationWorker(test.DisplayName));

    private static SimulationWorker? NewSimulationWorker(PerfTestDescriptor test) =>
        (test.SimulationWorker ?? test.Worker) is { } worker && !IsSimulationWorker
            && !FreshProcessWorker.IsWorker(Environment.GetEnvironmentVariable)
            ? new SimulationWorker(worker, SimulationKey(test), SimulationWorker.TimeoutFrom(SimulationWorker.GetEnvironmentVariable))
            : null;

    private static bool IsSimulationWorker => SimulationWorkerProtocol.WorkerFolder(Environment.GetEnvironmentVariable) is not null;

    private static string SimulationKey(PerfTestDescriptor test) =>
        SimulationWorkerProtocol.TestKey(test.Method.DeclaringType?.FullName, test.Method.Name, test.CaseName);

    // In a simulation worker, why this test is not the one it was started for (the framework may run a theory's other rows,
    // or more); null otherwise.
    private static string? OtherTestOfASimulationWorker(PerfTestDescriptor test) =>
        IsSimulationWorker && Environment.GetEnvironmentVariable(SimulationWorkerProtocol.TestVariable) is var wanted
            && wanted != SimulationKey(test)
            ? PerfTestMessages.NotThisSimulatedTest(wanted)
            : null;

    private static PerfTestOutcome Outcome(
        string? skip, PerfTestSettings settings, PerfAssertionScope scope, PerfTestHostBridge bridge, PerfContext context)
    {
        IReadOnlyList<string> unavailable = bridge.Unavailable;
        if (skip is null && unavailable.Count > 0 && scope.AssertionsRan == 0 && settings.WhenUnavailable == UnavailableCounterPolicy.Skip)
        {
            skip = PerfTestMessages.NoAssertionCouldRun(unavailable);
        }

        return new PerfTestOutcome(skip, context.Results, bridge.Warnings);
    }

    // In a fresh process measuring a baseline for another process, why this theory row is not the one asked for; null
    // otherwise. A row whose region names its own case (ShouldNotRegress(caseName: …)) is matched by its default name only.
    private static string? OtherRowOfAWorker(PerfTestDescriptor test)
    {
        if (test.CaseName is null || !FreshProcessWorker.IsWorker(Environment.GetEnvironmentVariable))
            return null;
        string path = BaselineJudge.Locate(
            test.SourceFilePath, test.TestClass, test.Method.Name, test.CaseName, BaselineStoreOptions.AssemblyDefault).Path;
        return FreshProcessWorker.IsFor(path, Environment.GetEnvironmentVariable)
            ? null
            : PerfTestMessages.NotThisRow(Environment.GetEnvironmentVariable(FreshProcessWorker.BaselineVariable));
    }

    private static bool IsAwaitable(Type type) =>
        typeof(Task).IsAssignableFrom(type) || type == typeof(ValueTask)
        || (type.IsGenericType && type.GetGenericTypeDefinition() == typeof(ValueTask<>))
        || type.GetMethod("GetAwaiter", Type.EmptyTypes) is not null;
}
