namespace Picollo.Baselines;

/// <summary>
/// The widest band earlier measurements of the same judgement were allowed on one time counter (log scale), and the part of
/// it that conditions other than the host's branchy state allowed. A later measurement keeps both
/// (<see cref="BaselineRecord.EarlierAllowance"/>): a pass inside what lingers of that state is still a pass on it, which the
/// judgement asks fresh processes about (docs/VERDICTS.md, "Levels").
/// </summary>
/// <param name="High">The band: how much slower unchanged code was allowed to run (≥ 0).</param>
/// <param name="Rest">The part of <paramref name="High"/> that the recorded spread, a busy machine, the machine's or the
/// allocation reference's speed allowed (0 ≤ Rest ≤ High); the remainder was the host's branchy state.</param>
internal readonly record struct EarlierBand(double High, double Rest)
{
    /// <summary>The band of one measurement's allowance.</summary>
    /// <param name="allowance">The allowance a verdict was judged with.</param>
    /// <returns>Its band and the part of it not made by the branchy state.</returns>
    public static EarlierBand Of(TimeAllowance allowance)
    {
        ArgumentNullException.ThrowIfNull(allowance);
        return new(allowance.High, allowance.High - allowance.Branchy);
    }

    /// <summary>
    /// The band allowed after this one and <paramref name="other"/>: the wider of the two, of which any reason other than
    /// the branchy state allowed as much as it did in either.
    /// </summary>
    /// <param name="other">Another measurement's band.</param>
    /// <returns>The joined band.</returns>
    public EarlierBand Join(EarlierBand other) => new(Math.Max(High, other.High), Math.Max(Rest, other.Rest));
}
