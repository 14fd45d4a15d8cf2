using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;

namespace Picollo.Baselines.Judging;

/// <summary>
/// The decisions a judgement takes from the verdicts it has, with no measuring, no file and no clock: whether a regression
/// needs a second look, whether a pass rests on the host's branchy state, whether a fresh process's pass clears a
/// regression. The judgement (<see cref="Judgement"/>) measures and writes; these say what its evidence means, and are
/// tested from tables of verdicts (docs/VERDICTS.md, "Confirmation").
/// </summary>
internal static class VerdictDecision
{
    /// <summary>
    /// Whether a failed check's regressions could be noise and are measured again: some counter regressed statistically, or
    /// the run's code was not final (then even a deterministic counter may have moved with the code).
    /// </summary>
    /// <param name="check">The check of the judged measurement.</param>
    /// <param name="current">Its record.</param>
    /// <param name="ranFinalCode">Whether its warmup saw the body's final code.</param>
    /// <param name="canRemeasure">Whether it can be measured again.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>Whether a second measurement decides.</returns>
    public static bool NeedsConfirmation(
        BaselineCheckResult check, BaselineRecord current, bool ranFinalCode, bool canRemeasure, VerdictPolicy policy)
    {
        if (check.Outcome != BaselineOutcome.Fail || !check.Verdicts.Any(static v => v.IsRegression) || !canRemeasure)
            return false;
        if (!ranFinalCode)
            return true;

        foreach (CounterVerdict verdict in check.Verdicts)
        {
            if (!verdict.IsRegression)
                continue;
            BaselineCounter? counter = current.Find(verdict.Counter);
            if (counter is null || policy.GetRule(counter.Name, counter.Kind).Mode == VerdictMode.Exact)
                return false;
        }

        return true;
    }

    /// <summary>
    /// The counters a second measurement confirms: those that regressed in both. Code that was final in neither confirms
    /// nothing: a test host busy compiling its own reporting kept a body at tier 0 for both measurements.
    /// </summary>
    /// <param name="first">The first measurement's verdicts.</param>
    /// <param name="second">The second's.</param>
    /// <param name="neitherFinal">Whether neither measurement ran the body's final code.</param>
    /// <returns>The confirmed counters.</returns>
    public static string[] ConfirmedInProcess(IReadOnlyList<CounterVerdict> first, IReadOnlyList<CounterVerdict> second, bool neitherFinal)
    {
        if (neitherFinal)
            return [];
        var regressed = first.Where(static v => v.IsRegression).Select(static v => v.Counter).ToHashSet(StringComparer.Ordinal);
        return [.. second.Where(v => v.IsRegression && regressed.Contains(v.Counter)).Select(static v => v.Counter)];
    }

    /// <summary>Regressions not among the confirmed counters become unconfirmed passes.</summary>
    /// <param name="verdicts">The verdicts.</param>
    /// <param name="confirmed">The counters whose regression was confirmed.</param>
    /// <returns>The verdicts with every other regression unconfirmed.</returns>
    public static List<CounterVerdict> Unconfirm(IReadOnlyList<CounterVerdict> verdicts, IReadOnlyList<string> confirmed) =>
    [
        .. verdicts.Select(v => v.IsRegression && !confirmed.Contains(v.Counter, StringComparer.Ordinal)
            ? v with { Status = CounterVerdictStatus.Unconfirmed }
            : v),
    ];

    /// <summary>How much the conditions widened a check's time verdicts: the sum of their allowances beyond the recording.</summary>
    /// <param name="verdicts">The verdicts.</param>
    /// <returns>The widening, ln scale.</returns>
    public static double Widening(IReadOnlyList<CounterVerdict> verdicts) =>
        verdicts.Where(static v => v.ConditionsChanged).Sum(static v => v.Allowance!.High - v.Allowance.Low);

    /// <summary>
    /// Whether a measurement taken again in other conditions replaces the judged one: it was judged in conditions no wider,
    /// or it regressed (a regression is never hidden behind a wider band).
    /// </summary>
    /// <param name="judged">The judged measurement's verdicts.</param>
    /// <param name="again">The new measurement's.</param>
    /// <returns>Whether the new one is judged instead.</returns>
    public static bool KeepsLaterConditions(IReadOnlyList<CounterVerdict> judged, IReadOnlyList<CounterVerdict> again) =>
        Widening(again) <= Widening(judged) || again.Any(static v => v.IsRegression);

    /// <summary>
    /// Whether a time verdict passed only on the host's branchy state: without that part of its band it would lie beyond the
    /// rest by the rule's threshold. Only that state is drawn per process; a busy neighbour or a slow host mode is the
    /// moment's, which a fresh process seconds later meets too.
    /// </summary>
    /// <param name="verdict">A verdict.</param>
    /// <param name="current">The judged record.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>Whether the pass rests on the branchy state.</returns>
    public static bool PassedOnBranchyState(CounterVerdict verdict, BaselineRecord current, VerdictPolicy policy)
    {
        if (verdict.Allowance is not { Branchy: > 0 } allowance || verdict.RelativeChange is not { } change
            || current.Find(verdict.Counter) is not { } counter || !KnownCounters.Of(counter.Name, counter.Kind).IsTimeLike)
            return false;
        double threshold = policy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
        // The rest of the band holds the recorded spread whatever the cap cut: the cut comes off the branchy part first.
        return Math.Log(1 + change) - allowance.Shift - (allowance.High - allowance.Branchy) >= Math.Log(1 + threshold);
    }

    /// <summary>Whether every pending counter's regression lies twice beyond its band: one fresh process confirms it.</summary>
    /// <param name="verdicts">The confirmed measurement's verdicts.</param>
    /// <param name="pending">The counters to confirm.</param>
    /// <returns>Whether the regression is gross.</returns>
    public static bool Gross(IReadOnlyList<CounterVerdict> verdicts, IEnumerable<string> pending) => pending.All(name =>
        verdicts.FirstOrDefault(v => v.Counter == name) is { RelativeChange: { } change } verdict
        && Math.Log(1 + change) - (verdict.Allowance?.Shift ?? 0) - (verdict.Allowance?.High ?? 0) >= Math.Log(2));

    /// <summary>
    /// Whether a fresh process's verdict was judged in wider conditions than this process's on either side: it allowed
    /// unchanged code more (a busy moment, a slow host state), or its conditions ran faster than the recording's and could
    /// hide a regression. Its pass contradicts nothing.
    /// </summary>
    /// <param name="fresh">The fresh process's verdict.</param>
    /// <param name="mine">This process's verdict on the same counter.</param>
    /// <param name="policy">The rules (<see cref="JudgementPolicy.WiderConditions"/>).</param>
    /// <returns>Whether the fresh one was judged in wider conditions.</returns>
    public static bool Wider(CounterVerdict fresh, CounterVerdict mine, VerdictPolicy policy) =>
        (fresh.Allowance?.High ?? 0) > (mine.Allowance?.High ?? 0) + policy.Judgement.WiderConditions
        || (fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - policy.Judgement.WiderConditions;

    /// <summary>
    /// Whether a fresh process's pass clears this process's regression: judged in conditions no wider, or wider only on the
    /// slow side while its change lies within this process's band, so that band would have passed it too.
    /// </summary>
    /// <param name="fresh">The fresh process's passing verdict.</param>
    /// <param name="mine">This process's regression on the same counter.</param>
    /// <param name="current">The judged record.</param>
    /// <param name="policy">The rules.</param>
    /// <returns>Whether the regression is cleared.</returns>
    public static bool Clears(CounterVerdict fresh, CounterVerdict mine, BaselineRecord current, VerdictPolicy policy)
    {
        if (!Wider(fresh, mine, policy))
            return true;
        if ((fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - policy.Judgement.WiderConditions
            || fresh.RelativeChange is not { } change
            || current.Find(fresh.Counter) is not { } counter)
            return false;
        double threshold = policy.GetRule(counter.Name, counter.Kind).MinRelativeChange;
        return Math.Log(1 + change) - (fresh.Allowance?.Shift ?? 0) - (mine.Allowance?.High ?? 0) < Math.Log(1 + threshold);
    }
}
