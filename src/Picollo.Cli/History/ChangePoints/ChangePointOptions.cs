namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// The change-point detector's settings: how long a segment must be, how sure the test must be, how large a
/// change must be to be worth a person's time, and how many runs one window of the search holds.
/// </summary>
internal sealed record ChangePointOptions
{
    /// <summary>
    /// The settings measured on synthetic histories of 60 runs with the noise of this repository's benches (bench
    /// changepoints, bench/RESULTS.md "Change points"): a false change point in about 1 of 350 stationary histories; a
    /// +5 % step found in 6 of 10, +10 % in 8 of 10, +50 % in all but those hidden by slow runs beside the step.
    /// </summary>
    public static ChangePointOptions Default { get; } = new();

    /// <summary>
    /// The fewest runs on either side of a change point: a segment shorter than this is noise, and a single spike, or a
    /// few runs in a slow host state, never makes a change point. Also how many runs after a change it can be found. 6:
    /// a change is reported six runs after it, and a slow host state must hold three of six runs to move a median; 4 and
    /// 5 found a few fewer steps, 8 a few more (+3 … +4 points at +5 … +10 %), two runs later.
    /// </summary>
    public int MinSegment { get; init; } = 6;

    /// <summary>
    /// The significance a change point must reach: its test's p-value is below this. 0.0001, ten times stricter than
    /// Otava's 0.001, which raised the false alarms from 2 to 17 in 1,000 histories for 5 … 9 more points of recall at
    /// +5 … +10 %: a missed change is found as more runs arrive, a false one sends a person bisecting.
    /// </summary>
    public double Alpha { get; init; } = 0.0001;

    /// <summary>
    /// The first pass's significance, looser than <see cref="Alpha"/> (Hunter's "weak" change points, Fleming et al. 2023:
    /// ten times the final level): candidates a window keeps, each tested again against its final neighbours.
    /// </summary>
    public double FirstPassAlpha { get; init; } = 0.001;

    /// <summary>
    /// The smallest relative change reported: |median after / median before − 1| at least this. 3 %, picollo ab's
    /// threshold: the history is there for what slips under a pull request's check, and 5 % halved the +5 % steps found
    /// (a step's measured size scatters around its true one).
    /// </summary>
    public double MinMagnitude { get; init; } = 0.03;

    /// <summary>How many runs one window of the search holds; windows overlap by half. 50, as Otava.</summary>
    public int Window { get; init; } = 50;

    /// <summary>What the significance test reads: the ranks, which a slow host state does not drag (Student's t on the
    /// values raised the false alarms from 2 to 41 in 1,000 histories and found 18 % of the +10 % steps, not 80 %).</summary>
    public ChangePointTest Test { get; init; } = ChangePointTest.Ranks;

    /// <summary>Throws when a setting cannot work, naming it and the range it needs.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of its range.</exception>
    public void Validate()
    {
        // A segment of one run has no spread to test against: two is the least a t test reads.
        if (MinSegment < 2)
            throw new ArgumentOutOfRangeException(nameof(MinSegment), MinSegment, "The minimum segment is 2 runs or more.");
        if (!(Alpha > 0 && Alpha < 1))
            throw new ArgumentOutOfRangeException(nameof(Alpha), Alpha, "The significance lies in (0, 1), e.g. 0.0001.");
        if (!(FirstPassAlpha >= Alpha && FirstPassAlpha < 1))
        {
            throw new ArgumentOutOfRangeException(
                nameof(FirstPassAlpha), FirstPassAlpha, $"The first pass's significance lies in [{nameof(Alpha)}, 1).");
        }

        if (!(MinMagnitude >= 0 && double.IsFinite(MinMagnitude)))
        {
            throw new ArgumentOutOfRangeException(
                nameof(MinMagnitude), MinMagnitude, "The minimum magnitude is 0 or more, e.g. 0.03 for 3 %.");
        }

        if (Window < 2 * MinSegment)
        {
            throw new ArgumentOutOfRangeException(
                nameof(Window), Window, $"A window holds two minimum segments at least ({2 * MinSegment} runs).");
        }
    }
}
