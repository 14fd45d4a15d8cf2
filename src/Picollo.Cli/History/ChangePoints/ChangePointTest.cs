namespace Picollo.Cli.History.ChangePoints;

/// <summary>What the significance test between two segments reads (<see cref="ChangePointOptions.Test"/>).</summary>
internal enum ChangePointTest
{
    /// <summary>
    /// Student's t on the ranks of the two segments' values pooled (Conover and Iman 1981, "Rank transformations as a bridge
    /// between parametric and nonparametric statistics": the rank-transform t test, close to the Wilcoxon-Mann-Whitney
    /// test). A run slowed by the host's state counts as one rank above the rest, not as its 50 %.
    /// </summary>
    Ranks,

    /// <summary>Student's t on the values themselves, as Apache Otava (Hunter) tests.</summary>
    Values,
}
