using System.Collections.Concurrent;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Assertions;

/// <summary>
/// Asserts that a measurement did not regress against the baseline committed next to the test (docs/ARCHITECTURE.md, "Baselines and
/// verdicts").
/// </summary>
public static class BaselineAssertions
{
    /// <summary>
    /// Compares <paramref name="result"/> with the baseline <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].perf.json</c> beside the
    /// test's source file. A regression throws with the verdicts, the per-operation diff table of every regressed counter, the
    /// baseline and received paths and how to accept. A missing baseline (or none for this machine) and improvements
    /// pass with a notice to <see cref="PerfAssertionHost.Current"/> naming the received file; so does an update
    /// (<c>PICOLLO_UPDATE_BASELINES=1</c>). Unavailable counters are not compared: one notice names them with the reasons, and only a
    /// result with no counter to compare reports each as an assertion that did not run.
    /// <para>
    /// Pass or fail, the test's report is written first (see <see cref="PerfResultReports"/>): the summary and diff tables
    /// and verdict lines to the host's output, <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].result.json</c> and <c>.svg</c> under
    /// <c>PICOLLO_RESULTS_DIR</c> (else <c>TestResults/picollo</c>), a row in <c>$GITHUB_STEP_SUMMARY</c> when set. When a
    /// statistical regression was measured again to confirm it, the report shows the second measurement, which decided.
    /// A failure message ends with the report's paths.
    /// </para>
    /// </summary>
    /// <param name="result">The measurement.</param>
    /// <param name="testClass">The test class's name; the source file's name without extension when <see langword="null"/>.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="policy">
    /// The verdict rules; those of <paramref name="options"/> (default <see cref="VerdictPolicy.Default"/>) when <see langword="null"/>.
    /// </param>
    /// <param name="options">
    /// How the baseline is judged and written; <see cref="BaselineStoreOptions.AssemblyDefault"/> when <see langword="null"/>. Its
    /// <see cref="BaselineStoreOptions.GetEnvironmentVariable"/> also reads <c>PICOLLO_RESULTS_DIR</c> and <c>GITHUB_STEP_SUMMARY</c>.
    /// </param>
    /// <param name="maxChange">
    /// Shorthand for <see cref="VerdictPolicy.WithThresholds"/>, applied on top of <paramref name="policy"/>: the relative
    /// rise of the compared statistic (0.05 = 5 %) at which a statistical counter (time, cycles, instructions, misses)
    /// counts as regressed; exact counters (allocated bytes, GC and JIT counts) stay exact. <see langword="null"/> keeps the
    /// policy's (8 % for time, judged on the floor of the distribution).
    /// </param>
    /// <param name="confidence">
    /// Shorthand for <see cref="VerdictPolicy.WithThresholds"/>: how sure one measurement must be that a rise is real, in
    /// [0.5, 0.9999]. <see langword="null"/> keeps the policy's (0.95). A statistical regression must also show in a second
    /// measurement before the test fails.
    /// </param>
    /// <param name="maxCohensD">
    /// Shorthand for <see cref="VerdictPolicy.WithThresholds"/>: an opt-in gate on Cohen's d of time-like counters (over the
    /// lowest quarter of each side's samples, log scale, beyond what the conditions allow). A time regression then also
    /// needs d above this value (in units of the floors' own spread, which a tight floor keeps small); it adds to the threshold, z and the
    /// confirming measurement, never replaces them. <see langword="null"/> keeps the policy's (no gate: d is reported beside z).
    /// </param>
    /// <param name="callerFilePath">Filled in by the compiler: the test's source file, whose directory holds the baseline.</param>
    /// <param name="testMethod">Filled in by the compiler: the test method's name.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="result"/>.</returns>
    /// <exception cref="PerfAssertionException">
    /// A counter regressed, or a baseline is missing in CI with <see cref="MissingBaselinePolicy.Fail"/>.
    /// </exception>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    /// <example>
    /// In a test method of <c>ParserPerf.cs</c>: the first run writes <c>ParserPerf.ParseSmall.received.perf.json</c> beside the
    /// source and passes with a notice; accept it by renaming it to <c>ParserPerf.ParseSmall.perf.json</c> (or run once with
    /// <c>PICOLLO_UPDATE_BASELINES=1</c>) and commit it. From then on a confirmed regression fails the test:
    /// <code>
    /// [Fact]
    /// public void ParseSmall()
    /// {
    ///     PerfResult result = Perf.Measure("12345", static s => Parser.Parse(s));
    ///     result.AllocatedBytes.ShouldHaveZeroBudget();   // exact, no baseline needed
    ///     result.ShouldNotRegress(maxChange: 0.05);       // time within 5% of the baseline, allocations exactly equal
    /// }
    /// </code>
    /// </example>
    public static PerfResult ShouldNotRegress(
        this PerfResult result,
        string? testClass = null,
        string? caseName = null,
        VerdictPolicy? policy = null,
        BaselineStoreOptions? options = null,
        double? maxChange = null,
        double? confidence = null,
        double? maxCohensD = null,
        [CallerFilePath] string callerFilePath = "",
        [CallerMemberName] string testMethod = "",
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        options ??= BaselineStoreOptions.AssemblyDefault;
        if (policy is not null)
            options = options with { VerdictPolicy = policy };
        if (maxChange is not null || confidence is not null || maxCohensD is not null)
            options = options with { VerdictPolicy = options.VerdictPolicy.WithThresholds(maxChange, confidence, maxCohensD) };

        string call = PerfAssertionMessage.Call(expression, nameof(ShouldNotRegress), Thresholds(maxChange, confidence, maxCohensD));

        // Inside a perf test (an adapter's scope) the test's own names apply: a theory case finds its case's baseline; and
        // the adapter's fresh processes record and confirm across processes.
        if (PerfAssertionScope.Current is { } scope)
        {
            if (string.Equals(scope.TestMethod, testMethod, StringComparison.Ordinal))
            {
                testClass ??= scope.TestClass;
                caseName ??= scope.CaseName;
            }

            options = options with
            {
                FreshProcesses = options.FreshProcesses ?? scope.FreshProcesses,
                RecordingProcesses = scope.RecordingProcesses ?? options.RecordingProcesses,
            };
        }

        testClass ??= Path.GetFileNameWithoutExtension(callerFilePath);
        BaselineJudgement judgement = BaselineJudge.Judge(result, callerFilePath, testClass, testMethod, caseName, options);
        PerfAssertionScope.Judged(result);
        if (result.Counters.Any(static c => c.IsAvailable) && judgement.Outcome != BaselineOutcome.NotJudged)
            PerfAssertionScope.Ran();

        // Written before a failure is thrown, so a failing test leaves its evidence too.
        var report = new PerfReport(
            PerfResultReports.TestName(testClass, testMethod, caseName),
            judgement.Judged,
            judgement.Check,
            judgement.Baseline,
            judgement.Remeasurement);
        PerfReportFiles? files = PerfResultReports.Publish(report, testClass, testMethod, caseName, options.GetEnvironmentVariable, call);

        // The received file travels with the test result, so a CI run's artifact holds what to accept.
        if (judgement.Check.ReceivedPath is { } received && File.Exists(received))
            PerfAssertionHost.Current.ReportAttachment(received, "Picollo received baseline (accept it by renaming it to .perf.json)");

        // Notices first, even when the test fails: an unconfirmed regression on one counter is news beside a failure of another.
        foreach (string notice in judgement.Notices)
            PerfAssertionHost.Current.ReportNotice(call, notice);
        if (judgement.Outcome == BaselineOutcome.Fail)
        {
            string message = FailureMessage(expression, judgement)
                + (judgement.Confirmation is null ? string.Empty : "\n" + judgement.Confirmation + "\n");
            throw new PerfAssertionException(files is null ? message : message.TrimEnd('\n') + "\n\n" + PerfResultReports.FileLines(files));
        }

        ReportUnavailableCounters(result, call);
        return result;
    }

    // The comparison ran when at least one counter counted, so counters the machine lacks (the PMU ones on most VMs and
    // CI runners) are a notice, not one "did not run" per counter: with the default host that would throw on every call.
    // Every test of a run meets the same machine, so the notice is one line, said once per process and reason; only a
    // result with nothing to compare reports each counter as an assertion that did not run.
    private static void ReportUnavailableCounters(PerfResult result, string call)
    {
        var unavailable = result.Counters.Where(static c => !c.IsAvailable).ToList();
        if (unavailable.Count == 0)
            return;

        if (unavailable.Count == result.Counters.Count)
        {
            foreach (CounterResult counter in unavailable)
                PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
            return;
        }

        var news = UnavailableCounterGroups.Group(unavailable.Select(static c => (c.Name, c.UnavailableReason)))
            .Where(static g => s_toldUnavailable.TryAdd(string.Join(",", g.Names) + "\n" + g.Reason, 0))
            .Select(static g => (g.Names, UnavailableReasons.Headline(g.Reason)))
            .ToList();
        if (news.Count > 0)
            PerfAssertionHost.Current.ReportNotice(call, AssertionMessages.NotCountedOnThisMachine(news));
    }

    // The unavailable counters this process has told about, by names and reason.
    private static readonly ConcurrentDictionary<string, byte> s_toldUnavailable = new(StringComparer.Ordinal);

    private static string Thresholds(double? maxChange, double? confidence, double? maxCohensD) =>
        string.Join(", ", new[]
        {
            maxChange is { } change ? string.Create(CultureInfo.InvariantCulture, $"maxChange: {change}") : null,
            confidence is { } c ? string.Create(CultureInfo.InvariantCulture, $"confidence: {c}") : null,
            maxCohensD is { } d ? string.Create(CultureInfo.InvariantCulture, $"maxCohensD: {d}") : null,
        }.OfType<string>());

    // Shouldly's shape: the expression, what it should do, the reference, "but", what happened; then the evidence.
    private static string FailureMessage(string? expression, BaselineJudgement judgement)
    {
        BaselineCheckResult check = judgement.Check;
        var regressed = check.Verdicts.Where(static v => v.IsRegression).ToList();
        var text = new StringBuilder();
        text.Append(expression ?? "result").Append('\n')
            .Append("    should not regress against").Append('\n')
            .Append(check.BaselinePath).Append('\n')
            .Append("    but").Append('\n');
        if (regressed.Count > 0)
        {
            text.Append(regressed.Count == 1 ? "1 counter regressed" : $"{regressed.Count} counters regressed").Append(": ")
                .AppendJoin(", ", regressed.Select(static v => v.Counter)).Append('\n');
        }
        else if (check.WriteFailure is not null)
            text.Append("the baseline could not be written").Append('\n');
        else
            text.Append("a baseline is missing in CI (MissingBaselineInCI = Fail)").Append('\n');

        text.Append('\n').Append(check.Message).Append('\n');
        foreach (CounterVerdict verdict in regressed)
        {
            BaselineCounter? reference =
                verdict.BaselineMachineId is { } id ? judgement.Baseline?.Find(id)?.Record.Find(verdict.Counter) : null;
            if (reference is not null && judgement.Current.Find(verdict.Counter) is { } counter)
                text.Append('\n').Append(BaselineDiffTable.ToMarkdown(reference, counter, verdict));
        }

        return text.ToString();
    }
}
