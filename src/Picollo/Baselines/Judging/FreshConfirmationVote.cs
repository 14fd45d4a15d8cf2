using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
namespace Picollo.Baselines.Judging;

/// <summary>
/// The vote of fresh processes on a time regression confirmed in this process (docs/VERDICTS.md,
/// "Confirmation"): the regression may be this process's level, one no recording saw, and a fresh process draws its level
/// anew. Up to <see cref="JudgementPolicy.FreshConfirmations"/> are asked, one after the other, each counter on its own; the first whose
/// pass clears
/// a counter (<see cref="VerdictDecision.Clears"/>) ends it for that counter. A regression twice beyond its band needs one.
/// Pure: the judgement measures the processes and hands their verdicts in.
/// </summary>
internal sealed class FreshConfirmationVote
{
    private readonly Dictionary<string, CounterVerdict> _here;
    private readonly BaselineRecord _current;
    private readonly VerdictPolicy _policy;
    private readonly List<string> _pending;
    private readonly List<string> _cleared = [];
    private readonly List<string> _seen = [];

    /// <summary>Starts the vote on the confirmed counters of this process's judged measurement.</summary>
    /// <param name="verdicts">This process's verdicts (after the second measurement).</param>
    /// <param name="pending">The confirmed time counters to ask about.</param>
    /// <param name="current">The judged record.</param>
    /// <param name="policy">The rules.</param>
    public FreshConfirmationVote(
        IReadOnlyList<CounterVerdict> verdicts, IEnumerable<string> pending, BaselineRecord current, VerdictPolicy policy)
    {
        _pending = [.. pending];
        _here = verdicts.Where(v => _pending.Contains(v.Counter, StringComparer.Ordinal))
            .ToDictionary(static v => v.Counter, StringComparer.Ordinal);
        _current = current;
        _policy = policy;
        IsGross = VerdictDecision.Gross(verdicts, _pending);
    }

    /// <summary>Gets whether every pending regression lies twice beyond its band: one fresh process is enough.</summary>
    public bool IsGross { get; }

    /// <summary>Gets the counters still regressed.</summary>
    public IReadOnlyList<string> Pending => _pending;

    /// <summary>Gets the counters a fresh process cleared.</summary>
    public IReadOnlyList<string> Cleared => _cleared;

    /// <summary>Gets each fresh process's verdicts, as text, in order.</summary>
    public IReadOnlyList<string> Seen => _seen;

    /// <summary>Gets how many fresh processes regressed some pending counter.</summary>
    public int Confirming { get; private set; }

    /// <summary>Gets whether the regression stands confirmed by fresh processes: some were seen, and a counter is left.</summary>
    public bool Stands => _pending.Count > 0 && _seen.Count > 0;

    /// <summary>Whether fresh process number <paramref name="process"/> (from 1) is asked.</summary>
    /// <param name="process">The process's number.</param>
    /// <returns>Whether to measure it.</returns>
    public bool Asks(int process) => _pending.Count > 0 && process <= (IsGross ? 1 : _policy.Judgement.FreshConfirmations);

    /// <summary>Adds a fresh process's verdicts on the pending counters.</summary>
    /// <param name="there">Its verdicts.</param>
    public void Add(IReadOnlyList<CounterVerdict> there)
    {
        _seen.Add(string.Join("; ", there.Select(static v => v.Text)));
        string[] cleared =
        [
            .. there.Where(v => !v.IsRegression && _here.TryGetValue(v.Counter, out CounterVerdict? mine)
                    && VerdictDecision.Clears(v, mine, _current, _policy))
                .Select(static v => v.Counter),
        ];
        _cleared.AddRange(cleared);
        _pending.RemoveAll(name => cleared.Contains(name, StringComparer.Ordinal));
        if (there.Any(static v => v.IsRegression))
            Confirming++;
    }
}
