using Picollo.Baselines.Rules;
namespace Picollo.Baselines.Judging;

/// <summary>The result of <see cref="BaselineStore.Check"/>: the verdicts, what they mean for the test, and the files involved.</summary>
/// <param name="Outcome">Pass, notice, fail or updated.</param>
/// <param name="Verdicts">One verdict per measured counter.</param>
/// <param name="BaselinePath">The baseline file.</param>
/// <param name="ReceivedPath">The received file written for review, or <see langword="null"/> when none was written.</param>
/// <param name="Message">The verdict lines and, when relevant, what to do (accept the received file, or update).</param>
/// <param name="WriteFailure">
/// Why a received file or an update could not be written (the folder is missing or read-only), with the fix; <see langword="null"/>
/// when every write needed succeeded.
/// </param>
internal sealed record BaselineCheckResult(
    BaselineOutcome Outcome,
    IReadOnlyList<CounterVerdict> Verdicts,
    string BaselinePath,
    string? ReceivedPath,
    string Message,
    string? WriteFailure = null)
{
    /// <summary>
    /// What update mode wrote, as one sentence (<c>Updated … : added as process level 2 of 2 …</c>); <see langword="null"/>
    /// when nothing was updated.
    /// </summary>
    public string? UpdateNote { get; init; }

    /// <summary><see langword="true"/> when the test must fail.</summary>
    public bool IsFailure => Outcome == BaselineOutcome.Fail;
}
