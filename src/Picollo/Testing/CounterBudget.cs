namespace Picollo.Testing;

/// <summary>
/// One declared budget: the knob that declared it (<c>MaxP50</c>, <c>MaxP99</c>, <c>MaxMean</c>, <c>ZeroBudget</c>),
/// the counter and its per-operation maximum.
/// </summary>
/// <param name="Knob">The attribute property, e.g. <c>MaxP99</c>.</param>
/// <param name="Counter">The counter as declared (resolved when the result is read).</param>
/// <param name="Max">The highest accepted value per operation; 0 for a zero budget.</param>
internal sealed record CounterBudget(string Knob, string Counter, double Max);
