namespace Picollo.Cli.Bisect;

/// <summary>What a step of <c>picollo bisect</c> found about a commit, measured against the good side.</summary>
internal enum BisectVerdict
{
    /// <summary>It does not show the change: the change came later.</summary>
    Good,

    /// <summary>It shows the change (the same test and counter, the same direction): the change came here or before.</summary>
    Bad,

    /// <summary>It does not build, or its test could not be measured: skipped, as <c>git bisect skip</c>.</summary>
    Skipped,

    /// <summary>Measured to the most pairs (or the time budget) and still inconclusive: the search stops.</summary>
    Undecided,
}
