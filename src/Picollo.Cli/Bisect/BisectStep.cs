namespace Picollo.Cli.Bisect;

/// <summary>What one step of <c>picollo bisect</c> found, and what it measured.</summary>
/// <param name="Verdict">Good, bad, skipped or undecided.</param>
/// <param name="Summary">
/// What it saw, in words: <c>allocated-bytes 0 → 24 bytes/op</c>, <c>tsc ×1.004 (+0.4%), unchanged</c>, or why it was
/// skipped (<c>does not build: src/Lib/Work.cs(9,21): error CS0103: …</c>).
/// </param>
internal sealed record BisectStep(BisectVerdict Verdict, string Summary);
