using Picollo.Text;

namespace Picollo.Cli.Ab;

/// <summary>
/// The two revisions of an A/B run, checked out next to each other: the base as a detached <c>git worktree</c> of the
/// merge-base of base and head (what a pull request's diff is against), the head as the working tree itself or its own
/// worktree. Disposing removes the worktrees; the user's working tree, index, branches and stash are never touched.
/// </summary>
internal sealed class AbWorkspace : IDisposable
{
    // Reading refs answers in milliseconds; a minute only bounds a git that waits on something (a lock, a hook).
    private static readonly TimeSpan s_quick = TimeSpan.FromMinutes(1);

    // A checkout writes every file of the revision (and runs the filters and hooks the repository configures).
    private static readonly TimeSpan s_checkout = TimeSpan.FromMinutes(10);

    // Held by Dispose, which a Ctrl+C handler may call on another thread while the main thread disposes too.
    private readonly Lock _gate = new();
    private readonly List<string> _worktrees;
    private readonly string _tempRoot;
    private bool _disposed;

    private AbWorkspace(
        string repositoryRoot,
        string tempRoot,
        AbRevision @base,
        AbRevision head,
        IReadOnlyList<string> notes,
        List<string> worktrees,
        bool sameSources)
    {
        RepositoryRoot = repositoryRoot;
        _tempRoot = tempRoot;
        Base = @base;
        Head = head;
        Notes = notes;
        _worktrees = worktrees;
        SameSources = sameSources;
    }

    /// <summary>
    /// The base: the merge-base of the base ref and the head (the base commit itself when they have none), in its own worktree.
    /// </summary>
    public AbRevision Base { get; }

    /// <summary>
    /// The head: the working tree (<see cref="AbRevision.Ref"/> <c>"working tree"</c>), or the head ref in its own worktree.
    /// </summary>
    public AbRevision Head { get; }

    /// <summary>The repository's top level (the working tree of the clone picollo ab was run in).</summary>
    public string RepositoryRoot { get; }

    /// <summary>What the user should know about how the revisions were chosen (e.g. no merge-base, so the base commit itself).</summary>
    public IReadOnlyList<string> Notes { get; }

    /// <summary>
    /// Whether the base and the head hold the same files: the same git tree, and for the working tree no change to any file
    /// git tracks or would add. An A/A run (<c>--base HEAD</c> on a clean clone, to see a runner's noise) then needs one build.
    /// </summary>
    public bool SameSources { get; }

    /// <summary>
    /// Resolves <paramref name="baseRef"/> and <paramref name="headRef"/> in the repository holding
    /// <paramref name="directory"/> and checks out each revision that is not the working tree under
    /// <paramref name="tempRoot"/> (<c>base</c>, <c>head</c>).
    /// </summary>
    /// <param name="directory">A folder inside the repository (usually the current one).</param>
    /// <param name="baseRef">The base: a branch, tag or commit (<c>origin/main</c>).</param>
    /// <param name="headRef">The head; null for the working tree as it is, uncommitted changes included.</param>
    /// <param name="tempRoot">A folder for the worktrees; its <c>base</c> and <c>head</c> subfolders must not exist or be empty.</param>
    /// <param name="sides">
    /// What the two revisions are called in messages, worktree folders and build outputs (<c>picollo bisect</c>: good and bad);
    /// <see langword="null"/> for base and head.
    /// </param>
    /// <exception cref="AbException">Not a git repository, git missing, an unknown ref, or a checkout that failed.</exception>
    public static AbWorkspace Open(
        string directory, string baseRef, string? headRef, string tempRoot, (string Base, string Head)? sides = null)
    {
        (string baseSide, string headSide) = sides ?? ("base", "head");
        string folder = Path.GetFullPath(directory);
        if (!Directory.Exists(folder))
            throw new AbException($"The folder {folder} does not exist: run picollo ab from a clone of your repository.");

        string root = TopLevel(folder);
        CheckRef(baseRef, "base");
        if (headRef is not null)
            CheckRef(headRef, "head");

        string headCommit = headRef is null ? WorkingTreeCommit(root) : Resolve(root, headRef, "head");
        string baseCommit = Resolve(root, baseRef, "base");
        var notes = new List<string>();
        string mergeBase = MergeBase(root, baseRef, baseCommit, headCommit, notes);

        var worktrees = new List<string>();
        try
        {
            string temp = Path.GetFullPath(tempRoot);
            string baseTree = AddWorktree(root, Path.Combine(temp, baseSide), baseSide, baseRef, mergeBase, worktrees);
            var @base = new AbRevision(baseSide, baseRef, mergeBase, baseTree);
            AbRevision head = headRef is null
                ? new AbRevision(headSide, "working tree", headCommit, root)
                : new AbRevision(headSide, headRef, headCommit,
                    AddWorktree(root, Path.Combine(temp, headSide), headSide, headRef, headCommit, worktrees));
            bool same = Tree(root, mergeBase) is { } tree && tree == Tree(root, headCommit)
                && (headRef is not null || IsClean(root));
            return new AbWorkspace(root, temp, @base, head, notes, worktrees, same);
        }
        catch
        {
            // A failed second checkout must not leave the first behind.
            Remove(root, worktrees);
            throw;
        }
    }

    /// <summary>
    /// Checks out one more commit of the repository in a detached worktree of its own, <c>&lt;tempRoot&gt;/&lt;side&gt;</c>
    /// (<c>picollo bisect</c>'s steps: each commit it measures against the good side); <see cref="Dispose"/> removes it with the
    /// others, <see cref="Release"/> before.
    /// </summary>
    /// <param name="side">What the revision is called in messages, its worktree's folder and its build's outputs.</param>
    /// <param name="reference">The ref as the user will read it (the commit's short sha will do).</param>
    /// <param name="commit">The full sha to check out.</param>
    /// <returns>The revision, ready to build.</returns>
    /// <exception cref="AbException">The checkout failed, or the workspace is disposed (a Ctrl+C on another thread).</exception>
    public AbRevision Add(string side, string reference, string commit)
    {
        lock (_gate)
        {
            if (_disposed)
                throw new OperationCanceledException("The workspace was removed.");
            return new AbRevision(
                side, reference, commit, AddWorktree(RepositoryRoot, Path.Combine(_tempRoot, side), side, reference, commit, _worktrees));
        }
    }

    /// <summary>Removes the worktree of a revision <see cref="Add"/> checked out; never throws.</summary>
    /// <param name="revision">The revision.</param>
    public void Release(AbRevision revision)
    {
        ArgumentNullException.ThrowIfNull(revision);
        lock (_gate)
        {
            if (_disposed || !_worktrees.Remove(revision.Root))
                return;
            Remove(RepositoryRoot, [revision.Root]);
        }
    }

    /// <summary>
    /// Removes the worktrees and prunes git's records of them. Safe to call twice and from a Ctrl+C handler; never throws.
    /// </summary>
    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed)
                return;
            _disposed = true;
            Remove(RepositoryRoot, _worktrees);
        }
    }

    private static string TopLevel(string folder)
    {
        var result = AbGit.Run(folder, s_quick, "rev-parse", "--show-toplevel");
        if (result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } top)
            return Path.GetFullPath(top);
        if (result.Error.Contains("not a git repository", StringComparison.OrdinalIgnoreCase))
            throw new AbException(AbMessages.NotAGitRepository(folder));

        // Another reason (a repository owned by another user, a bare repository): git's own words say which, and how to fix it.
        throw new AbException(
            $"git could not read the repository at {folder}: {OneLine(result.Error)}. Fix that, then run picollo ab again.");
    }

    private static void CheckRef(string reference, string side)
    {
        if (string.IsNullOrWhiteSpace(reference))
            throw new AbException($"The {side} ref is empty: give a branch, tag or commit with --{side} (e.g. --{side} origin/main).");

        // git would read it as an option; no branch or tag name can start with '-'.
        if (reference.StartsWith('-'))
        {
            throw new AbException(
                $"The {side} '{reference}' is not a git ref (a ref never starts with '-'): give a branch, tag or commit with --{side}.");
        }
    }

    private static string WorkingTreeCommit(string root)
    {
        var result = AbGit.Run(root, s_quick, "rev-parse", "--verify", "--quiet", "HEAD^{commit}");
        return result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } sha
            ? sha
            : throw new AbException(AbMessages.NoCommitYet(root));
    }

    private static string Resolve(string root, string reference, string side)
    {
        var result = AbGit.Run(root, s_quick, "rev-parse", "--verify", "--quiet", reference + "^{commit}");
        if (result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } sha)
            return sha;

        string fetch = FetchCommand(root, reference);
        throw new AbException(AbMessages.RefNotACommit(side, reference, root, IsShallow(root), fetch));
    }

    // "git fetch origin main" for origin/main; the ref under "origin" when it names no remote.
    private static string FetchCommand(string root, string reference)
    {
        var remotes = AbGit.Run(root, s_quick, "remote");
        string[] names = remotes.ExitCode == 0 ? Lines(remotes.Output) : [];
        foreach (string remote in names)
        {
            if (reference.Length > remote.Length + 1 && reference.StartsWith(remote + "/", StringComparison.Ordinal))
                return $"git fetch {remote} {reference[(remote.Length + 1)..]}";
        }

        return $"git fetch {(names.Length == 1 ? names[0] : "origin")} {reference}";
    }

    // The commit's tree (its files' single hash), or null when git cannot say: two builds are then made, as for any change.
    private static string? Tree(string root, string commit)
    {
        var result = AbGit.Run(root, s_quick, "rev-parse", "--verify", "--quiet", commit + "^{tree}");
        return result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } tree ? tree : null;
    }

    // No change to a tracked file (staged or not) and no new file git would add: the working tree is its commit's tree.
    // Ignored files (build outputs, local settings) do not count, as they are in no commit either.
    private static bool IsClean(string root)
    {
        var result = AbGit.Run(root, s_quick, "status", "--porcelain", "--untracked-files=all");
        return result.ExitCode == 0 && result.Output.Trim().Length == 0;
    }

    private static bool IsShallow(string root)
    {
        var result = AbGit.Run(root, s_quick, "rev-parse", "--is-shallow-repository");
        return result.ExitCode == 0 && result.Output.Trim() == "true";
    }

    // The base a pull request's diff is against: the merge-base, so the base's own later commits are not judged as the head's.
    private static string MergeBase(string root, string baseRef, string baseCommit, string headCommit, List<string> notes)
    {
        var result = AbGit.Run(root, s_quick, "merge-base", baseCommit, headCommit);
        if (result.ExitCode == 0 && result.Output.Trim() is { Length: > 0 } sha)
            return sha;

        // Exit code 1 is git's "no common ancestor"; anything else is a failure worth its own message.
        if (result.ExitCode != 1)
            throw new AbException($"git merge-base {baseCommit} {headCommit} failed in {root}: {OneLine(result.Error)}.");

        notes.Add(AbMessages.NoCommonAncestor(baseRef, baseCommit[..Math.Min(7, baseCommit.Length)], IsShallow(root)));
        return baseCommit;
    }

    private static string AddWorktree(string root, string path, string side, string reference, string commit, List<string> worktrees)
    {
        if (Directory.Exists(path) && Directory.EnumerateFileSystemEntries(path).Any())
            throw new AbException($"The folder {path} for the {side}'s worktree is not empty: give picollo ab an empty temporary folder.");

        // Recorded before git runs: a checkout stopped half-way is removed as well.
        worktrees.Add(path);

        // Detached: no branch is created, moved or checked out anywhere else. Hooks pointed at a folder that does not exist:
        // a post-checkout hook (husky's npm install, a code generator) is the user's workflow, not part of a build copy.
        string noHooks = Path.Combine(Path.GetDirectoryName(path)!, "no-hooks");
        var result = AbGit.Run(root, s_checkout, "-c", "core.hooksPath=" + noHooks, "worktree", "add", "--detach", "--quiet", path, commit);
        if (result.ExitCode != 0)
        {
            string shortCommit = commit[..Math.Min(7, commit.Length)];
            throw new AbException($"git could not check out the {side} ({reference}, {shortCommit}) into {path}: {OneLine(result.Error)}.");
        }

        // A worktree starts with empty submodule folders, and a project that references one (a vendored library, shared
        // build props) does not build without it: the revision's own submodule commits, as a clone with --recursive has them.
        if (File.Exists(Path.Combine(path, ".gitmodules")))
        {
            // --init writes submodule.<name>.url and .active into the repository's config, which a worktree shares with the
            // user's clone: the entries it adds go again once the checkout is done (a build needs the files, not the config).
            HashSet<string> before = SubmoduleConfig(root);
            var submodules =
                AbGit.Run(path, s_checkout, "-c", "core.hooksPath=" + noHooks, "submodule", "update", "--init", "--recursive", "--quiet");
            foreach (string added in SubmoduleConfig(root).Except(before))
                _ = AbGit.Run(root, s_quick, "config", "--local", "--unset-all", added);
            if (submodules.ExitCode != 0)
            {
                throw new AbException(AbMessages.SubmodulesNotCheckedOut(
                    side, reference, commit[..Math.Min(7, commit.Length)], path, OneLine(submodules.Error)));
            }
        }

        return path;
    }

    // The names of the repository's own submodule.* config entries.
    private static HashSet<string> SubmoduleConfig(string root)
    {
        var result = AbGit.Run(root, s_quick, "config", "--local", "--name-only", "--get-regexp", @"^submodule\.");
        return result.ExitCode == 0 ? [.. Lines(result.Output)] : [];
    }

    // Best effort, never throws: it runs on the way out (a finally, a Ctrl+C handler), where a second error would hide the first.
    private static void Remove(string root, List<string> worktrees)
    {
        if (worktrees.Count == 0)
            return;

        for (int i = worktrees.Count - 1; i >= 0; i--)
        {
            string path = worktrees[i];
            try
            {
                // --force: the worktree holds files the run wrote (it is ours, nothing in it is the user's).
                _ = AbGit.Run(root, s_quick, "worktree", "remove", "--force", path);
            }
            catch (AbException)
            {
                // Deleted by hand below; prune then forgets it.
            }

            // git refuses some worktrees (one with submodules, one half checked out): the folder goes, and prune cleans git's record.
            try
            {
                if (Directory.Exists(path))
                    Directory.Delete(path, recursive: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Left in the temporary folder; prune below still drops the record once it is gone.
            }
        }

        try
        {
            _ = AbGit.Run(root, s_quick, "worktree", "prune");
        }
        catch (AbException)
        {
            // A stale record only shows in git worktree list; the next prune (git runs one itself in gc) removes it.
        }
    }

    // git's output, one trimmed line each, without the empty ones.
    private static string[] Lines(string output) =>
        output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static string OneLine(string text)
    {
        string joined = string.Join(' ', Lines(text));
        return joined.Length == 0 ? "git printed no reason" : Sentences.Unended(joined);
    }
}
