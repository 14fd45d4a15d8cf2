using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using Picollo.Baselines;
using Picollo.Measurement;
using Picollo.Reporting;

namespace Picollo.Assertions;

/// <summary>Asserts that a measurement did not regress against the baseline committed next to the test (DESIGN.md § 5).</summary>
public static class BaselineAssertions
{
    /// <summary>
    /// Compares <paramref name="result"/> with the baseline <c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;].perf.json</c> beside the test's
    /// source file. A regression throws with the verdicts, the per-operation diff table of every regressed counter, the
    /// baseline and received paths and how to accept. A missing baseline (or none for this machine) and improvements
    /// pass with a notice to <see cref="PerfAssertionHost.Current"/> naming the received file; so does an update
    /// (<c>PICOLLO_UPDATE_BASELINES=1</c>). Unavailable counters are not compared: one notice names them with the reasons, and only a result with no counter to compare reports each as an assertion that did not run.
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
    /// <param name="policy">The verdict rules; those of <paramref name="options"/> (default <see cref="VerdictPolicy.Default"/>) when <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written; <see cref="BaselineStoreOptions.AssemblyDefault"/> when <see langword="null"/>. Its <see cref="BaselineStoreOptions.GetEnvironmentVariable"/> also reads <c>PICOLLO_RESULTS_DIR</c> and <c>GITHUB_STEP_SUMMARY</c>.</param>
    /// <param name="maxCohensD">
    /// Shorthand for <see cref="VerdictPolicy.WithThresholds"/>: the effect size (robust Cohen's d) at which a statistical
    /// counter (time, cycles, instructions, misses) counts as regressed, applied on top of <paramref name="policy"/>;
    /// exact counters (allocated bytes, GC and JIT counts) stay exact. <see langword="null"/> keeps the policy's (0.8).
    /// </param>
    /// <param name="maxChange">
    /// Shorthand for <see cref="VerdictPolicy.WithThresholds"/>: the relative rise of the compared statistic (0.05 = 5 %)
    /// that a statistical regression must also reach. <see langword="null"/> keeps the policy's (8 % for time).
    /// </param>
    /// <param name="callerFilePath">Filled in by the compiler: the test's source file, whose directory holds the baseline.</param>
    /// <param name="testMethod">Filled in by the compiler: the test method's name.</param>
    /// <param name="expression">Filled in by the compiler.</param>
    /// <returns><paramref name="result"/>.</returns>
    /// <exception cref="PerfAssertionException">A counter regressed, or a baseline is missing in CI with <see cref="MissingBaselinePolicy.Fail"/>.</exception>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    public static PerfResult ShouldNotRegress(
        this PerfResult result,
        string? testClass = null,
        string? caseName = null,
        VerdictPolicy? policy = null,
        BaselineStoreOptions? options = null,
        double? maxCohensD = null,
        double? maxChange = null,
        [CallerFilePath] string callerFilePath = "",
        [CallerMemberName] string testMethod = "",
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        options ??= BaselineStoreOptions.AssemblyDefault;
        if (policy is not null)
            options = options with { VerdictPolicy = policy };
        if (maxCohensD is not null || maxChange is not null)
            options = options with { VerdictPolicy = options.VerdictPolicy.WithThresholds(maxCohensD, maxChange) };

        string call = PerfAssertionMessage.Call(expression, nameof(ShouldNotRegress), Thresholds(maxCohensD, maxChange));
        testClass ??= Path.GetFileNameWithoutExtension(callerFilePath);
        string baselinePath = new BaselineLocator(getEnvironmentVariable: options.GetEnvironmentVariable)
            .GetBaselinePath(callerFilePath, testClass, testMethod, caseName);
        MachineFingerprint machine = MachineFingerprint.Current;
        var store = new BaselineStore(options);
        PerfResult judged = result;
        var remeasurements = new List<string>();

        // A run that did not measure the body's final code is measured again before anything is judged or recorded: a
        // baseline (update mode) or received file taken from tier-0 code would hold numbers up to 3.5× too slow, and
        // tier-0 code even allocates what tier-1 code stack-allocates (40 bytes per operation for a 4-int array).
        if (!RanFinalCode(judged.Run) && judged.CanRemeasure)
        {
            judged = judged.Remeasure();
            remeasurements.Add("Measured again before judging: the first measurement did not run the body's final code ("
                + string.Join(" ", result.Run.Notes) + ")" + (RanFinalCode(judged.Run) ? "; this one did." : "; neither did this one."));
        }

        BaselineRecord current = BaselineRecord.FromResult(judged);

        // Read before the check: in update mode the check rewrites the file, and the report and the failure message
        // must show what was compared with.
        BaselineFile? baseline = BaselineStore.Read(baselinePath);
        BaselineCheckResult check = store.Check(baselinePath, machine, current);
        string? confirmation = null;

        // Never fail on noise: a time-like regression can come from one disturbed measurement (a busy host slowed
        // a whole run by +56% in the verdict-quality experiment, bench/RESULTS.md). Statistical counters fail only when
        // a second measurement regresses on the same counter; deterministic ones need no second look when the run's code
        // was final.
        if (check.Outcome == BaselineOutcome.Fail && check.Verdicts.Any(static v => v.IsRegression) && judged.CanRemeasure
            && (!RanFinalCode(judged.Run) || OnlyStatisticalRegressions(check, current, options.VerdictPolicy)))
        {
            PerfResult second = judged.Remeasure();
            BaselineRecord secondRecord = BaselineRecord.FromResult(second);
            BaselineCheckResult recheck = store.Check(baselinePath, machine, secondRecord);
            var firstRegressed = check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
            var confirmed = recheck.Verdicts.Where(v => v.IsRegression && firstRegressed.Contains(v.Counter)).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
            var verdicts = recheck.Verdicts
                .Select(v => v.IsRegression && !confirmed.Contains(v.Counter)
                    ? v with { Status = CounterVerdictStatus.Unconfirmed, Text = v.Text.Replace(": regressed", ": unconfirmed (regressed in one of two measurements only)", StringComparison.Ordinal) }
                    : v)
                .ToList();

            string first = string.Join("; ", check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Text));
            string again = string.Join("; ", recheck.Verdicts.Where(v => firstRegressed.Contains(v.Counter) || v.IsRegression).Select(static v => v.Text));
            remeasurements.Add($"Measured twice: the first measurement regressed ({first}); the second, reported here, {(confirmed.Count > 0 ? "confirmed it" : "did not")} ({again}).");
            if (confirmed.Count > 0)
            {
                confirmation = "Confirmed by a second measurement: " + string.Join("; ", verdicts.Where(static v => v.IsRegression).Select(static v => v.Text)) + ".";

                // Still a failure: doubled allocations are real at any tier, and a test process whose tiering never
                // catches up (its suite's own backlog) would otherwise never fail. The reader is told what to rule out.
                if (judged.Run.WarmupEnd == WarmupEnd.TimeCap && second.Run.WarmupEnd == WarmupEnd.TimeCap)
                {
                    confirmation += $"\nNeither measurement ran the body's final optimized code ({string.Join(" ", second.Run.Notes)}). Unoptimized code runs slower and can allocate what optimized code keeps on the stack: if this test ran alongside others, run it alone or with a longer TimeBudget to rule that out.";
                }
            }
            else
            {
                PerfAssertionHost.Current.ReportNotice(call, $"Not failing on an unconfirmed regression: the first measurement regressed ({first}), a second one did not ({again}).");
            }

            // The second measurement decided the outcome either way: the verdicts, the report and a failure message all
            // show it. Unconfirmed regressions pass; a missing baseline in CI still fails when the policy says so.
            check = store.Rejudge(recheck, verdicts);
            judged = second;
            current = secondRecord;
        }

        if (check.Outcome == BaselineOutcome.Updated && !RanFinalCode(judged.Run))
        {
            PerfAssertionHost.Current.ReportNotice(call, $"The baseline entry was recorded from a measurement whose code may not have been final ({string.Join(" ", judged.Run.Notes)}). Record it again with the test alone, or with a longer TimeBudget, before relying on it.");
        }

        string? remeasurement = remeasurements.Count == 0 ? null : string.Join(" ", remeasurements);

        // Written before a failure is thrown, so a failing test leaves its evidence too.
        var report = new PerfReport(PerfResultReports.TestName(testClass, testMethod, caseName), judged, check, baseline, remeasurement);
        PerfReportFiles? files = PerfResultReports.Publish(report, testClass, testMethod, caseName, options.GetEnvironmentVariable, call);

        switch (check.Outcome)
        {
            case BaselineOutcome.Fail:
            {
                string message = FailureMessage(expression, check, current, baseline) + (confirmation is null ? string.Empty : "\n" + confirmation + "\n");
                throw new PerfAssertionException(files is null ? message : message.TrimEnd('\n') + "\n\n" + PerfResultReports.FileLines(files));
            }

            case BaselineOutcome.Notice:
                PerfAssertionHost.Current.ReportNotice(call, check.Message);
                break;
            case BaselineOutcome.Updated:
                PerfAssertionHost.Current.ReportNotice(call, $"Baseline updated: {check.BaselinePath} (entry of {machine.Id}).");
                break;
        }

        ReportUnavailableCounters(result, call);
        return result;
    }

    // The comparison ran when at least one counter counted, so counters the machine lacks (the PMU ones on most VMs and
    // CI runners) are a notice, grouped by reason, not one "did not run" per counter: with the default host that would
    // throw on every call. Only a result with nothing to compare reports each counter as an assertion that did not run.
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

        var text = new StringBuilder("Not compared, unavailable on this machine:");
        foreach (string line in UnavailableCounterGroups.Describe(unavailable))
            text.Append("\n- ").Append(line);
        PerfAssertionHost.Current.ReportNotice(call, text.ToString());
    }

    private static string Thresholds(double? maxCohensD, double? maxChange) =>
        string.Join(", ", new[]
        {
            maxCohensD is { } d ? string.Create(CultureInfo.InvariantCulture, $"maxCohensD: {d}") : null,
            maxChange is { } change ? string.Create(CultureInfo.InvariantCulture, $"maxChange: {change}") : null,
        }.OfType<string>());

    private static bool RanFinalCode(PerfRunInfo run) => run.WarmupEnd != WarmupEnd.TimeCap && !run.CodeMayHaveChanged;

    private static bool OnlyStatisticalRegressions(BaselineCheckResult check, BaselineRecord current, VerdictPolicy policy)
    {
        foreach (CounterVerdict verdict in check.Verdicts)
        {
            if (!verdict.IsRegression)
                continue;
            BaselineCounter? counter = current.Find(verdict.Counter);
            if (counter is null || policy.GetRule(counter.Name, counter.Kind).Mode == VerdictMode.Exact)
                return false;
        }

        return check.Verdicts.Any(static v => v.IsRegression);
    }

    // Shouldly's shape: the expression, what it should do, the reference, "but", what happened; then the evidence.
    private static string FailureMessage(string? expression, BaselineCheckResult check, BaselineRecord current, BaselineFile? baseline)
    {
        var regressed = check.Verdicts.Where(static v => v.IsRegression).ToList();
        var text = new StringBuilder();
        text.Append(expression ?? "result").Append('\n')
            .Append("    should not regress against").Append('\n')
            .Append(check.BaselinePath).Append('\n')
            .Append("    but").Append('\n');
        if (regressed.Count == 0)
            text.Append("a baseline is missing in CI (MissingBaselineInCI = Fail)").Append('\n');
        else
            text.Append(regressed.Count == 1 ? "1 counter regressed" : $"{regressed.Count} counters regressed").Append(": ")
                .AppendJoin(", ", regressed.Select(static v => v.Counter)).Append('\n');

        text.Append('\n').Append(check.Message).Append('\n');
        if (regressed.Count == 0)
            return text.ToString();

        foreach (CounterVerdict verdict in regressed)
        {
            BaselineCounter? reference = verdict.BaselineMachineId is { } id ? baseline?.Find(id)?.Record.Find(verdict.Counter) : null;
            if (reference is not null && current.Find(verdict.Counter) is { } counter)
                text.Append('\n').Append(BaselineDiffTable.ToMarkdown(reference, counter));
        }

        return text.ToString();
    }
}
