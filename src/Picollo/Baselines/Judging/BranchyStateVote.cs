using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
namespace Picollo.Baselines.Judging;

/// <summary>
/// The vote of fresh processes on a time verdict that passed here only inside what the host's branchy state allowed
/// (docs/VERDICTS.md, "Levels"): the state is drawn per process. The first fresh process that passes a counter without a
/// branchy bound of its own clears it; one that needs such a bound cannot tell.
/// <see cref="JudgementPolicy.FreshRegressionsPastBranchyState"/> regressions fail it: as many processes are asked as confirm
/// a regression, and up to <see cref="JudgementPolicy.MostFreshProcessesPastBranchyState"/> once one regressed. Pure: the judgement
/// measures
/// the processes and hands their verdicts in.
/// </summary>
internal sealed class BranchyStateVote
{
    private readonly BaselineRecord _current;
    private readonly VerdictPolicy _policy;
    private readonly List<string> _pending;
    private readonly Dictionary<string, (CounterVerdict First, BaselineCounter Measured, int Count)> _regressions =
        new(StringComparer.Ordinal);
    private readonly List<(CounterVerdict Verdict, BaselineCounter Measured)> _failing = [];
    private readonly List<string> _seen = [];

    /// <summary>Starts the vote on the counters that passed here on the branchy state only.</summary>
    /// <param name="pending">Those counters.</param>
    /// <param name="current">The judged record.</param>
    /// <param name="policy">The rules.</param>
    public BranchyStateVote(IEnumerable<string> pending, BaselineRecord current, VerdictPolicy policy)
    {
        _pending = [.. pending];
        _current = current;
        _policy = policy;
    }

    /// <summary>Gets the counters still undecided.</summary>
    public IReadOnlyList<string> Pending => _pending;

    /// <summary>Gets the counters that fail: each with the first fresh regression and what that process measured.</summary>
    public IReadOnlyList<(CounterVerdict Verdict, BaselineCounter Measured)> Failing => _failing;

    /// <summary>Gets each fresh process's verdicts, as text, in order.</summary>
    public IReadOnlyList<string> Seen => _seen;

    /// <summary>Gets whether some fresh process cleared a counter.</summary>
    public bool Cleared { get; private set; }

    /// <summary>Gets the most fresh regressions of any one counter.</summary>
    public int Regressed => _regressions.Count == 0 ? 0 : _regressions.Values.Max(static r => r.Count);

    /// <summary>Whether fresh process number <paramref name="process"/> (from 1) is asked.</summary>
    /// <param name="process">The process's number.</param>
    /// <returns>Whether to measure it.</returns>
    public bool Asks(int process) =>
        _pending.Count > 0 && (process <= _policy.Judgement.FreshConfirmations
            || (process <= _policy.Judgement.MostFreshProcessesPastBranchyState && _regressions.Count > 0));

    /// <summary>Adds a fresh process's verdicts on the pending counters.</summary>
    /// <param name="there">Its verdicts.</param>
    /// <param name="level">What it measured.</param>
    public void Add(IReadOnlyList<CounterVerdict> there, BaselineRecord level)
    {
        _seen.Add(string.Join("; ", there.Select(static v => v.Text)));
        foreach (CounterVerdict verdict in there)
        {
            if (!verdict.IsRegression)
            {
                // A pass that needs no branchy state says the body is where the recording was; one that does cannot tell,
                // however a little narrower its band. A verdict that judged nothing (too few samples) tells nothing either.
                if (verdict.Status == CounterVerdictStatus.Pass && !VerdictDecision.PassedOnBranchyState(verdict, _current, _policy))
                {
                    _pending.Remove(verdict.Counter);
                    Cleared = true;
                }

                continue;
            }

            (CounterVerdict first, BaselineCounter measured, int count) = _regressions.TryGetValue(verdict.Counter, out var found)
                ? (found.First, found.Measured, found.Count + 1)
                : (verdict, level.Find(verdict.Counter)!, 1);
            _regressions[verdict.Counter] = (first, measured, count);
            if (count >= _policy.Judgement.FreshRegressionsPastBranchyState)
            {
                _failing.Add((first, measured));
                _pending.Remove(verdict.Counter);
            }
        }
    }
}
