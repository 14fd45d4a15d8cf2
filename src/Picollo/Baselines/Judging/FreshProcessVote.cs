using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
namespace Picollo.Baselines.Judging;

/// <summary>
/// The vote of fresh processes on a time verdict of this process that may be this process's level rather than the code's
/// (docs/VERDICTS.md, "Confirmation" and "Levels"): a regression confirmed here, or a pass here only inside what the host's
/// branchy state allowed. A fresh process draws both anew. One rule for both questions: each process asked votes, per
/// counter, to clear the verdict, to regress, or cannot tell; the first that clears a counter ends it for that counter,
/// <see cref="FailAt"/> regressions fail it, and when the processes asked run out, what this process saw stands. Pure: the
/// judgement measures the processes and hands their verdicts in.
/// </summary>
internal sealed class FreshProcessVote
{
    private readonly FreshQuestion _question;
    private readonly Dictionary<string, CounterVerdict> _here;
    private readonly BaselineRecord _current;
    private readonly VerdictPolicy _policy;
    private readonly List<string> _pending;
    private readonly List<string> _cleared = [];
    private readonly Dictionary<string, (CounterVerdict First, BaselineCounter Measured, int Count)> _regressions =
        new(StringComparer.Ordinal);
    private readonly List<(CounterVerdict Verdict, BaselineCounter Measured)> _failing = [];
    private readonly List<string> _seen = [];

    /// <summary>Starts a vote on the counters whose verdicts here are in question.</summary>
    /// <param name="question">What is asked of the fresh processes.</param>
    /// <param name="verdicts">This process's verdicts (the judged measurement's).</param>
    /// <param name="pending">The time counters in question.</param>
    /// <param name="current">The judged record.</param>
    /// <param name="policy">The rules.</param>
    public FreshProcessVote(
        FreshQuestion question, IReadOnlyList<CounterVerdict> verdicts, IEnumerable<string> pending, BaselineRecord current,
        VerdictPolicy policy)
    {
        _question = question;
        _pending = [.. pending];
        _here = verdicts.Where(v => _pending.Contains(v.Counter, StringComparer.Ordinal))
            .ToDictionary(static v => v.Counter, StringComparer.Ordinal);
        _current = current;
        _policy = policy;
        IsGross = question == FreshQuestion.Regression && VerdictDecision.Gross(verdicts, _pending);
    }

    /// <summary>Gets whether every regression in question lies twice beyond its band: one fresh process decides it.</summary>
    public bool IsGross { get; }

    /// <summary>Gets the counters still undecided: this process's verdict stands for them when the vote ends.</summary>
    public IReadOnlyList<string> Pending => _pending;

    /// <summary>Gets the counters a fresh process cleared.</summary>
    public IReadOnlyList<string> Cleared => _cleared;

    /// <summary>
    /// Gets the counters <see cref="FailAt"/> fresh processes regressed: each with the first fresh regression and what that
    /// process measured.
    /// </summary>
    public IReadOnlyList<(CounterVerdict Verdict, BaselineCounter Measured)> Failing => _failing;

    /// <summary>Gets each fresh process's verdicts, as text, in order.</summary>
    public IReadOnlyList<string> Seen => _seen;

    /// <summary>Gets how many fresh processes regressed some counter in question.</summary>
    public int Confirming { get; private set; }

    /// <summary>Gets the most fresh regressions of any one counter.</summary>
    public int Regressed => _regressions.Count == 0 ? 0 : _regressions.Values.Max(static r => r.Count);

    /// <summary>Gets whether a regression here stands after the fresh processes: some were seen, and a counter is not cleared.</summary>
    public bool Stands => _seen.Count > 0 && (_pending.Count > 0 || _failing.Count > 0);

    /// <summary>
    /// Gets how many fresh regressions fail a counter: for a regression here, every process asked
    /// (<see cref="JudgementPolicy.FreshConfirmations"/>, one when gross); for a pass on the branchy state,
    /// <see cref="JudgementPolicy.FreshRegressionsPastBranchyState"/>.
    /// </summary>
    public int FailAt => _question == FreshQuestion.Regression ? MostAsked : _policy.Judgement.FreshRegressionsPastBranchyState;

    /// <summary>Whether fresh process number <paramref name="process"/> (from 1) is asked.</summary>
    /// <param name="process">The process's number.</param>
    /// <returns>Whether to measure it.</returns>
    public bool Asks(int process) => _pending.Count > 0 && process <= MostAsked;

    // A pass on the branchy state is asked of more processes once one regressed, since a single fresh regression cannot
    // fail it (docs/VERDICTS.md, "Levels").
    private int MostAsked => _question == FreshQuestion.Regression
        ? (IsGross ? 1 : _policy.Judgement.FreshConfirmations)
        : Math.Max(_policy.Judgement.FreshConfirmations, _regressions.Count > 0 ? _policy.Judgement.MostFreshProcessesPastBranchyState : 0);

    /// <summary>Adds a fresh process's verdicts on the pending counters.</summary>
    /// <param name="there">Its verdicts.</param>
    /// <param name="level">What it measured.</param>
    public void Add(IReadOnlyList<CounterVerdict> there, BaselineRecord level)
    {
        _seen.Add(string.Join("; ", there.Select(static v => v.Text)));
        if (there.Any(static v => v.IsRegression))
            Confirming++;
        foreach (CounterVerdict verdict in there)
        {
            if (!verdict.IsRegression)
            {
                if (Clears(verdict))
                {
                    _pending.Remove(verdict.Counter);
                    _cleared.Add(verdict.Counter);
                }

                continue;
            }

            (CounterVerdict first, BaselineCounter measured, int count) = _regressions.TryGetValue(verdict.Counter, out var found)
                ? (found.First, found.Measured, found.Count + 1)
                : (verdict, level.Find(verdict.Counter)!, 1);
            _regressions[verdict.Counter] = (first, measured, count);
            if (count >= FailAt)
            {
                _failing.Add((first, measured));
                _pending.Remove(verdict.Counter);
            }
        }
    }

    // Whether a fresh pass clears this process's verdict. A regression here: a pass judged in conditions no wider, or inside
    // this process's band (VerdictDecision.Clears). A pass here on the branchy state: a pass that needs no branchy bound of
    // its own; one that does cannot tell however narrower its band, and a verdict that judged nothing (too few samples)
    // tells nothing either.
    private bool Clears(CounterVerdict fresh) => _question == FreshQuestion.Regression
        ? _here.TryGetValue(fresh.Counter, out CounterVerdict? mine) && VerdictDecision.Clears(fresh, mine, _current, _policy)
        : fresh.Status == CounterVerdictStatus.Pass && !VerdictDecision.PassedOnBranchyState(fresh, _current, _policy);
}
