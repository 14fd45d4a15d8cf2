namespace Picollo.Baselines.Judging;

/// <summary>What a <see cref="FreshProcessVote"/> asks of fresh processes about a time verdict of this process.</summary>
internal enum FreshQuestion
{
    /// <summary>
    /// A regression confirmed in this process: is it this process's level? It stands unless a fresh process clears it.
    /// </summary>
    Regression,

    /// <summary>
    /// A pass here only inside what the host's branchy state allowed: is it that state's? It fails when fresh processes
    /// regress it.
    /// </summary>
    PassOnBranchyState,
}
