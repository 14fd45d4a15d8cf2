namespace Picollo.Cli.Ab;

/// <summary>One side of an A/B run: the sources of one revision, ready to build.</summary>
/// <param name="Side"><c>"base"</c> or <c>"head"</c>.</param>
/// <param name="Ref">
/// The ref as the user gave it (<c>origin/main</c>, <c>v1.4.0</c>), or <c>"working tree"</c> for the head taken from the
/// working tree.
/// </param>
/// <param name="Commit">
/// The full sha of the commit built: for the base the merge-base of base and head; for the working tree HEAD's.
/// </param>
/// <param name="Root">
/// The folder holding the revision's sources: a temporary worktree, or the repository's top level for the working tree.
/// </param>
internal sealed record AbRevision(string Side, string Ref, string Commit, string Root)
{
    /// <summary>The commit as messages show it: its first 7 hex digits, as git abbreviates.</summary>
    public string ShortCommit => Commit.Length > 7 ? Commit[..7] : Commit;
}
