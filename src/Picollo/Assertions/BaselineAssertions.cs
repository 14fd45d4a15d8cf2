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
    /// (<c>PICOLLO_UPDATE_BASELINES=1</c>). Unavailable counters are not compared and are reported to the host.
    /// </summary>
    /// <param name="result">The measurement.</param>
    /// <param name="testClass">The test class's name; the source file's name without extension when <see langword="null"/>.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="policy">The verdict rules; those of <paramref name="options"/> (default <see cref="VerdictPolicy.Default"/>) when <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written; defaults when <see langword="null"/>.</param>
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
        [CallerFilePath] string callerFilePath = "",
        [CallerMemberName] string testMethod = "",
        [CallerArgumentExpression(nameof(result))] string? expression = null)
    {
        ArgumentNullException.ThrowIfNull(result);
        options ??= new BaselineStoreOptions();
        if (policy is not null)
            options = options with { VerdictPolicy = policy };

        string call = PerfAssertionMessage.Call(expression, nameof(ShouldNotRegress), string.Empty);
        string baselinePath = new BaselineLocator(getEnvironmentVariable: options.GetEnvironmentVariable)
            .GetBaselinePath(callerFilePath, testClass ?? Path.GetFileNameWithoutExtension(callerFilePath), testMethod, caseName);
        MachineFingerprint machine = MachineFingerprint.Current;
        BaselineRecord current = BaselineRecord.FromResult(result);
        var store = new BaselineStore(options);
        BaselineCheckResult check = store.Check(baselinePath, machine, current);
        string? confirmation = null;

        // Never fail on noise: a time-like regression can come from one disturbed measurement (a busy host slowed
        // a whole run by +56% in the verdict-quality experiment, bench/RESULTS.md). Statistical counters fail only when
        // a second measurement regresses on the same counter. Deterministic ones need no second look, unless the run's
        // code was not known to be final: tier-0 code even allocates what tier-1 code stack-allocates (a 4-int array
        // measured 40 bytes per operation in a first measurement whose warmup stopped at tier 0, 0 once settled).
        if (check.Outcome == BaselineOutcome.Fail && result.CanRemeasure
            && (!RanFinalCode(result.Run) || OnlyStatisticalRegressions(check, current, options.VerdictPolicy)))
        {
            BaselineRecord second = BaselineRecord.FromResult(result.Remeasure());
            BaselineCheckResult recheck = store.Check(baselinePath, machine, second);
            var firstRegressed = check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
            var confirmed = recheck.Verdicts.Where(v => v.IsRegression && firstRegressed.Contains(v.Counter)).ToList();
            if (confirmed.Count > 0)
            {
                confirmation = "Confirmed by a second measurement: " + string.Join("; ", confirmed.Select(static v => v.Text)) + ".";
                check = recheck;
                current = second;
            }
            else
            {
                PerfAssertionHost.Current.ReportNotice(call, "Not failing on an unconfirmed regression: the first measurement regressed ("
                    + string.Join("; ", check.Verdicts.Where(static v => v.IsRegression).Select(static v => v.Text))
                    + "), a second one did not (" + string.Join("; ", recheck.Verdicts.Where(v => firstRegressed.Contains(v.Counter)).Select(static v => v.Text)) + ").");
                check = recheck;
            }
        }

        switch (check.Outcome)
        {
            case BaselineOutcome.Fail:
                throw new PerfAssertionException(FailureMessage(expression, check, current) + (confirmation is null ? string.Empty : "\n" + confirmation + "\n"));
            case BaselineOutcome.Notice:
                PerfAssertionHost.Current.ReportNotice(call, check.Message);
                break;
            case BaselineOutcome.Updated:
                PerfAssertionHost.Current.ReportNotice(call, $"Baseline updated: {check.BaselinePath} (entry of {machine.Id}).");
                break;
        }

        foreach (CounterResult counter in result.Counters)
        {
            if (!counter.IsAvailable)
                PerfAssertionHost.Current.ReportUnavailable(counter.Name, call, counter.UnavailableReason ?? "No reason given.");
        }

        return result;
    }

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
    private static string FailureMessage(string? expression, BaselineCheckResult check, BaselineRecord current)
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

        // The baseline was only read, never written, on the way to a failure: reading it again sees what was compared.
        BaselineFile? baseline = BaselineStore.Read(check.BaselinePath);
        foreach (CounterVerdict verdict in regressed)
        {
            BaselineCounter? reference = verdict.BaselineMachineId is { } id ? baseline?.Find(id)?.Record.Find(verdict.Counter) : null;
            if (reference is not null && current.Find(verdict.Counter) is { } counter)
                text.Append('\n').Append(BaselineDiffTable.ToMarkdown(reference, counter));
        }

        return text.ToString();
    }
}
