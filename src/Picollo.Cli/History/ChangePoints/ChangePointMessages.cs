using System.Globalization;

namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// What the change-point detector says about input it cannot read: each method is one situation,
/// taking the facts it states; the golden file <c>ChangePointMessages.approved.md</c> shows every one.
/// </summary>
internal static class ChangePointMessages
{
    /// <summary>A value of the series is NaN or infinite.</summary>
    /// <param name="index">The value's index in the series (its run, oldest first).</param>
    /// <param name="value">The value.</param>
    /// <returns>The message.</returns>
    public static string NotFinite(int index, double value) =>
        string.Create(CultureInfo.InvariantCulture, $"The series' value at index {index} is {value}: change points need finite values. ")
        + "Leave that run's result out of the series, or record the run again.";
}
