using Picollo.Baselines.Records;
namespace Picollo.Baselines.Judging;

/// <summary>
/// What a fresh process measured (<see cref="IFreshProcessMeasurer"/>): its records, or the sentence that says why it
/// measured nothing.
/// </summary>
/// <param name="Records">The measurements in the order taken, each with how busy other processes kept the machine;
/// empty on a failure.</param>
/// <param name="Failure">
/// Why the process measured nothing (it could not start, crashed, timed out, did not find the test), with what to do;
/// <see langword="null"/> when it measured.
/// </param>
internal sealed record FreshProcessMeasurement(IReadOnlyList<BaselineRecord> Records, string? Failure)
{
    /// <summary>A process that measured nothing, and why.</summary>
    /// <param name="failure">The sentence.</param>
    /// <returns>The failed measurement.</returns>
    public static FreshProcessMeasurement Failed(string failure) => new([], failure);

    /// <summary>
    /// Whether the process measured, but never the body's final code (its warmup ended before tier 1): no fault of the
    /// process's, and no level of the body, so a confirmation asks the next process instead of stopping.
    /// </summary>
    public bool RanNoFinalCode { get; init; }
}
