using Picollo.Cli.Ab;

namespace Picollo.Cli.Bisect;

/// <summary>
/// The commits <c>picollo bisect</c> searches, read from git before anything is checked out or built: the good and the bad
/// commit, and the commits after the good one up to the bad one, oldest first, on the bad one's first-parent line
/// (<c>git rev-list --ancestry-path --first-parent good..bad</c>).
/// </summary>
/// <remarks>
/// First parents only, as <c>git bisect --first-parent</c>: a branch merged into the line is one step, its merge commit, so
/// every commit measured is one the line really had (a commit inside a merged branch was built on an older base, and its
/// numbers say little about the line). When the first bad commit is a merge, the branch it merged is the next range to
/// bisect (docs/VERDICTS.md, "Which commit: picollo bisect").
/// </remarks>
/// <param name="Root">The repository's top level.</param>
/// <param name="Good">The good commit.</param>
/// <param name="Commits">The commits after it, oldest first; the last is the bad one.</param>
internal sealed record BisectRange(string Root, BisectCommit Good, IReadOnlyList<BisectCommit> Commits)
{
    // Reading refs and the log answers in milliseconds; a minute only bounds a git that waits on something (a lock, a hook).
    private static readonly TimeSpan s_quick = TimeSpan.FromMinutes(1);

    /// <summary>The bad commit: the range's last.</summary>
    public BisectCommit Bad => Commits[^1];

    /// <summary>
    /// Reads the range in the repository holding <paramref name="directory"/>.
    /// </summary>
    /// <param name="directory">A folder inside the repository (usually the current one).</param>
    /// <param name="good">The good ref, as the user gave it.</param>
    /// <param name="bad">The bad ref.</param>
    /// <returns>The range.</returns>
    /// <exception cref="AbException">
    /// Not a repository, an unknown ref, the same commit twice, good not an ancestor of bad, or no commit between them.
    /// </exception>
    public static BisectRange Read(string directory, string good, string bad)
    {
        string folder = Path.GetFullPath(directory);
        var top = AbGit.Run(folder, s_quick, "rev-parse", "--show-toplevel");
        if (top.ExitCode != 0 || top.Output.Trim() is not { Length: > 0 } rootPath)
            throw new AbException(BisectMessages.NotAGitRepository(folder, top.Error.Trim()));
        string root = Path.GetFullPath(rootPath);

        string goodSha = Resolve(root, "good", good), badSha = Resolve(root, "bad", bad);
        if (goodSha == badSha)
            throw new AbException(BisectMessages.SameCommit(good, bad, goodSha[..10]));
        if (!IsAncestor(root, goodSha, badSha))
        {
            throw new AbException(IsAncestor(root, badSha, goodSha)
                ? BisectMessages.Swapped(good, bad)
                : BisectMessages.NotAnAncestor(good, bad, goodSha[..10], badSha[..10]));
        }

        var log = AbGit.Run(
            root, s_quick, "log", "--ancestry-path", "--first-parent", "--reverse", "--format=%H%x09%s", $"{goodSha}..{badSha}");
        if (log.ExitCode != 0)
            throw new AbException(BisectMessages.LogFailed(root, log.Error.Trim()));
        BisectCommit[] commits = [.. log.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(static line =>
        {
            string[] parts = line.TrimEnd('\r').Split('\t', 2);
            return new BisectCommit(parts[0], parts.Length > 1 ? parts[1] : string.Empty);
        })];

        // The bad commit's first-parent line can miss the good one (good sits on a branch merged into the line): the line
        // then runs from the merge that brought good in, and the log above would not end at bad if bad were itself skipped.
        if (commits.Length == 0 || commits[^1].Sha != badSha)
            throw new AbException(BisectMessages.EmptyRange(good, bad));
        return new BisectRange(root, new BisectCommit(goodSha, Subject(root, goodSha)), commits);
    }

    private static string Resolve(string root, string side, string reference)
    {
        if (string.IsNullOrWhiteSpace(reference) || reference.StartsWith('-'))
            throw new AbException(BisectMessages.NotARef(side, reference));
        var result = AbGit.Run(root, s_quick, "rev-parse", "--verify", "--quiet", reference + "^{commit}");
        if (result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } sha)
            return sha;
        var shallow = AbGit.Run(root, s_quick, "rev-parse", "--is-shallow-repository");
        throw new AbException(BisectMessages.UnknownRef(side, reference, root, shallow.Output.Trim() == "true"));
    }

    // git merge-base --is-ancestor: exit code 0 yes, 1 no, anything else a failure of its own.
    private static bool IsAncestor(string root, string ancestor, string descendant)
    {
        var result = AbGit.Run(root, s_quick, "merge-base", "--is-ancestor", ancestor, descendant);
        return result.ExitCode switch
        {
            0 => true,
            1 => false,
            _ => throw new AbException(BisectMessages.LogFailed(root, result.Error.Trim())),
        };
    }

    private static string Subject(string root, string sha)
    {
        var result = AbGit.Run(root, s_quick, "log", "-1", "--format=%s", sha);
        return result.ExitCode == 0 ? result.Output.Trim() : string.Empty;
    }
}
