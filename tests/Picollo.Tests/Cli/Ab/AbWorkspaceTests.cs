using System.Diagnostics;
using Picollo.Cli.Ab;
using Picollo.Tests.Baselines;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Ab;

/// <summary><c>picollo ab</c>'s two revisions checked out with real git in temporary repositories (issue 26).</summary>
public sealed class AbWorkspaceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public AbWorkspaceTests()
    {
        Directory.CreateDirectory(Repo);
        Git(Repo, "init", "--quiet", "--initial-branch=main");
        Git(Repo, "config", "user.email", "ab@example.com");
        Git(Repo, "config", "user.name", "ab");
        Git(Repo, "config", "commit.gpgsign", "false");
    }

    private string Repo => _dir.Combine("repo");

    private string Temp => _dir.Combine("ab");

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Open_OutsideAGitRepository_SaysSoAndWhereToRunIt()
    {
        string folder = _dir.Combine("not-a-repo");
        Directory.CreateDirectory(folder);

        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(folder, "main", null, Temp));

        e.Message.ShouldBe($"{folder} is not inside a git repository: run picollo ab from a clone of your repository (actions/checkout with fetch-depth: 0).");
    }

    [Fact]
    public void Open_AnUnknownBase_NamesTheRef_AndHowToFetchIt()
    {
        Commit("a.txt", "a");
        Git(Repo, "remote", "add", "origin", "https://example.com/none.git");

        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(Repo, "origin/release", null, Temp));

        e.Message.ShouldBe($"The base 'origin/release' is not a commit in the repository at {Repo}. If it is a branch of the remote, fetch it (git fetch origin release), or check out with fetch-depth: 0 in CI; else check its spelling.");
        Worktrees().ShouldBe([Repo]);
    }

    [Fact]
    public void Open_AnUnknownBaseInAShallowClone_SaysTheCloneIsShallow()
    {
        Commit("a.txt", "a");
        Commit("a.txt", "b");
        string shallow = _dir.Combine("shallow");
        Git(_dir.Path, "clone", "--quiet", "--depth", "1", "file://" + Repo, shallow);

        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(shallow, "HEAD~1", null, Temp));

        e.Message.ShouldStartWith($"The base 'HEAD~1' is not a commit in the repository at {shallow}. This clone is shallow (actions/checkout fetches a single commit by default): check out with fetch-depth: 0, or fetch it (git fetch origin HEAD~1).");
    }

    [Fact]
    public void Open_ABaseThatMovedOn_ChecksOutTheMergeBase_AndDisposeRemovesBothWorktrees()
    {
        string fork = Commit("code.txt", "fork point");
        Git(Repo, "branch", "feature");
        Commit("code.txt", "main moved on");
        Git(Repo, "checkout", "--quiet", "feature");
        string feature = Commit("code.txt", "the pull request");
        Git(Repo, "checkout", "--quiet", "main");
        string[] branches = Lines(Git(Repo, "branch", "--list"));
        string hookRan = _dir.Combine("hook-ran");
        string hook = Path.Combine(Repo, ".git", "hooks", "post-checkout");
        File.WriteAllText(hook, $"#!/bin/sh\ntouch '{hookRan}'\n");
        if (!OperatingSystem.IsWindows())
            File.SetUnixFileMode(hook, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        AbRevision @base, head;
        using (AbWorkspace workspace = AbWorkspace.Open(Repo, "main", "feature", Temp))
        {
            (@base, head) = (workspace.Base, workspace.Head);
            @base.ShouldBe(new AbRevision("base", "main", fork, Path.Combine(Temp, "base")));
            head.ShouldBe(new AbRevision("head", "feature", feature, Path.Combine(Temp, "head")));
            workspace.RepositoryRoot.ShouldBe(Repo);
            workspace.Notes.ShouldBeEmpty();
            workspace.SameSources.ShouldBeFalse("the pull request changed code.txt");
            File.ReadAllText(Path.Combine(@base.Root, "code.txt")).ShouldBe("fork point", "the base is where the branch left main, not main's tip");
            File.ReadAllText(Path.Combine(head.Root, "code.txt")).ShouldBe("the pull request");
            Worktrees().ShouldBe([Repo, @base.Root, head.Root]);
        }

        Worktrees().ShouldBe([Repo]);
        Directory.Exists(@base.Root).ShouldBeFalse();
        Directory.Exists(head.Root).ShouldBeFalse();
        Lines(Git(Repo, "branch", "--list")).ShouldBe(branches, "detached worktrees create no branch");
        File.Exists(hookRan).ShouldBeFalse("a post-checkout hook is the user's workflow, not part of a build copy");
    }

    [Fact]
    public void Open_WithoutAHead_IsTheWorkingTreeAsItIs_AndLeavesItUntouched()
    {
        Commit("code.txt", "committed");
        Commit("staged.txt", "committed");
        string head = Git(Repo, "rev-parse", "HEAD").Trim();

        // Every kind of local change: modified, staged, untracked.
        File.WriteAllText(Path.Combine(Repo, "code.txt"), "edited, not committed");
        File.WriteAllText(Path.Combine(Repo, "staged.txt"), "staged");
        Git(Repo, "add", "staged.txt");
        File.WriteAllText(Path.Combine(Repo, "new.txt"), "untracked");
        Directory.CreateDirectory(Path.Combine(Repo, "src"));
        string status = Git(Repo, "status", "--porcelain"), staged = Git(Repo, "diff", "--cached");

        // From a subfolder, as a user runs it from a project folder.
        using (AbWorkspace workspace = AbWorkspace.Open(Path.Combine(Repo, "src"), "main", null, Temp))
        {
            workspace.Head.ShouldBe(new AbRevision("head", "working tree", head, Repo));
            workspace.Base.Commit.ShouldBe(head, "the merge-base of main and the working tree's HEAD is HEAD");
            File.ReadAllText(Path.Combine(workspace.Base.Root, "code.txt")).ShouldBe("committed");
            Worktrees().ShouldBe([Repo, workspace.Base.Root]);
            workspace.SameSources.ShouldBeFalse("the working tree has local changes: its commit is not what gets built");
        }

        Git(Repo, "status", "--porcelain").ShouldBe(status);
        Git(Repo, "diff", "--cached").ShouldBe(staged);
        Git(Repo, "stash", "list").ShouldBeEmpty();
        File.ReadAllText(Path.Combine(Repo, "code.txt")).ShouldBe("edited, not committed");
        Worktrees().ShouldBe([Repo]);
    }

    [Fact]
    public void Open_TheSameFiles_AreSameSources_ButAnyChangeOrNewFileIsNot()
    {
        Commit("code.txt", "committed");
        Git(Repo, "branch", "same");
        File.WriteAllText(Path.Combine(Repo, ".gitignore"), "bin/\n");
        Git(Repo, "add", ".gitignore");
        Git(Repo, "commit", "--quiet", "-m", "ignore bin");
        Git(Repo, "tag", "with-ignore");
        Git(Repo, "commit", "--quiet", "--allow-empty", "-m", "a commit that changes no file");

        // A clean working tree against its own commit; another commit with the same tree; build outputs git ignores.
        Directory.CreateDirectory(Path.Combine(Repo, "bin"));
        File.WriteAllText(Path.Combine(Repo, "bin", "out.dll"), "ignored");
        Same("HEAD", null).ShouldBeTrue("a clean working tree is its commit's files; ignored files are in no commit");
        Same("with-ignore", "HEAD").ShouldBeTrue("an empty commit keeps its parent's tree");
        Same("same", "HEAD").ShouldBeFalse("the head added .gitignore");

        // Any file git tracks or would add makes the working tree differ from its commit.
        File.WriteAllText(Path.Combine(Repo, "new.txt"), "untracked");
        Same("HEAD", null).ShouldBeFalse("a new file");
        File.Delete(Path.Combine(Repo, "new.txt"));
        File.WriteAllText(Path.Combine(Repo, "code.txt"), "edited");
        Same("HEAD", null).ShouldBeFalse("an edited file");
        Git(Repo, "add", "code.txt");
        Same("HEAD", null).ShouldBeFalse("a staged file");

        bool Same(string baseRef, string? headRef)
        {
            using AbWorkspace workspace = AbWorkspace.Open(Repo, baseRef, headRef, Temp);
            return workspace.SameSources;
        }
    }

    [Fact]
    public void Open_UnrelatedHistories_TakesTheBaseItself_AndSaysSo()
    {
        string main = Commit("code.txt", "main");
        Git(Repo, "checkout", "--quiet", "--orphan", "other");
        string other = Commit("code.txt", "other");

        using AbWorkspace workspace = AbWorkspace.Open(Repo, "main", "other", Temp);

        workspace.Base.Commit.ShouldBe(main);
        workspace.Head.Commit.ShouldBe(other);
        workspace.Notes.ShouldBe([$"'main' and the head have no common ancestor: the base is 'main' itself ({main[..7]}), so everything that differs between the two is judged, not only the head's changes."]);
    }

    [Fact]
    public void Open_AnUnknownHead_NamesIt()
    {
        Commit("code.txt", "main");

        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(Repo, "main", "no-such-branch", Temp));

        e.Message.ShouldStartWith($"The head 'no-such-branch' is not a commit in the repository at {Repo}.");
    }

    [Fact]
    public void Open_ACheckoutThatFails_RemovesTheOneAlreadyMade()
    {
        Commit("code.txt", "main");
        Directory.CreateDirectory(Path.Combine(Temp, "head"));
        File.WriteAllText(Path.Combine(Temp, "head", "occupied.txt"), "");

        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(Repo, "main", "main", Temp));

        e.Message.ShouldBe($"The folder {Path.Combine(Temp, "head")} for the head's worktree is not empty: give picollo ab an empty temporary folder.");
        Worktrees().ShouldBe([Repo], "the base's worktree, made first, is gone");
        Directory.Exists(Path.Combine(Temp, "base")).ShouldBeFalse();
    }

    [Fact]
    public void Open_ARefThatIsAnOption_IsRefused()
    {
        Commit("code.txt", "main");

        Should.Throw<AbException>(() => AbWorkspace.Open(Repo, "--output=x", null, Temp)).Message
            .ShouldBe("The base '--output=x' is not a git ref (a ref never starts with '-'): give a branch, tag or commit with --base.");
    }

    [Fact]
    public void Open_ARepositoryWithASubmodule_ChecksItOutInTheBasesWorktree()
    {
        AddSubmodule();
        // As in a clone made without --recursive: the submodule is not initialized in the user's config.
        Git(Repo, "config", "--local", "--remove-section", "submodule.lib");
        string config = Git(Repo, "config", "--local", "--list");

        using var files = LocalSubmodulesAllowed.Begin();
        using (AbWorkspace workspace = AbWorkspace.Open(Repo, "main", "main", Temp))
        {
            File.ReadAllText(Path.Combine(workspace.Base.Root, "lib", "lib.txt")).ShouldBe("vendored", "a project that references the submodule builds");
            File.ReadAllText(Path.Combine(workspace.Head.Root, "lib", "lib.txt")).ShouldBe("vendored");
            Git(Repo, "config", "--local", "--list").ShouldBe(config, "the user's config is the same as before, though the worktrees share it");
        }

        Worktrees().ShouldBe([Repo]);
    }

    [Fact]
    public void Open_ASubmoduleThatCannotBeFetched_SaysWhich_AndRemovesTheWorktree()
    {
        AddSubmodule();
        Directory.Move(_dir.Combine("lib"), _dir.Combine("moved-away"));

        using var files = LocalSubmodulesAllowed.Begin();
        AbException e = Should.Throw<AbException>(() => AbWorkspace.Open(Repo, "main", null, Temp));

        e.Message.ShouldStartWith($"git could not check out the submodules of the base (main, ");
        e.Message.ShouldContain("make the submodules' URLs reachable from this machine");
        Worktrees().ShouldBe([Repo]);
    }

    [Fact]
    public void Dispose_Twice_AndFromTwoThreadsAtOnce_RemovesTheWorktreesOnce()
    {
        Commit("code.txt", "main");
        AbWorkspace workspace = AbWorkspace.Open(Repo, "main", "main", Temp);

        // As a Ctrl+C handler does while the main thread leaves its using block.
        Parallel.Invoke(workspace.Dispose, workspace.Dispose);
        workspace.Dispose();

        Worktrees().ShouldBe([Repo]);
    }

    // A library repository beside the repository, added as its submodule "lib" from a local path.
    private void AddSubmodule()
    {
        string lib = _dir.Combine("lib");
        Directory.CreateDirectory(lib);
        Git(lib, "init", "--quiet", "--initial-branch=main");
        Git(lib, "config", "user.email", "ab@example.com");
        Git(lib, "config", "user.name", "ab");
        Git(lib, "config", "commit.gpgsign", "false");
        File.WriteAllText(Path.Combine(lib, "lib.txt"), "vendored");
        Git(lib, "add", "lib.txt");
        Git(lib, "commit", "--quiet", "-m", "lib");
        Commit("code.txt", "main");
        Git(Repo, "-c", "protocol.file.allow=always", "submodule", "add", "--quiet", lib, "lib");
        Git(Repo, "commit", "--quiet", "-m", "add lib");
    }

    private string Commit(string file, string content)
    {
        File.WriteAllText(Path.Combine(Repo, file), content);
        Git(Repo, "add", file);
        Git(Repo, "commit", "--quiet", "-m", content);
        return Git(Repo, "rev-parse", "HEAD").Trim();
    }

    private string[] Worktrees() => [.. Lines(Git(Repo, "worktree", "list", "--porcelain"))
        .Where(static l => l.StartsWith("worktree ", StringComparison.Ordinal))
        .Select(static l => l["worktree ".Length..])];

    private static string[] Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    private static string Git(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo("git") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
            start.ArgumentList.Add(argument);
        using Process git = Process.Start(start)!;
        Task<string> error = git.StandardError.ReadToEndAsync();
        string output = git.StandardOutput.ReadToEnd();
        git.WaitForExit();
        return git.ExitCode == 0 ? output : throw new InvalidOperationException($"git {string.Join(' ', arguments)} exited with {git.ExitCode}: {error.Result}");
    }

    /// <summary>
    /// git refuses the file transport for submodules unless a config allows it, and a repository's own config does not reach
    /// the clone git starts for a submodule: the command-line config (GIT_CONFIG_COUNT) does, as a user's https URLs need
    /// nothing. Set for the tool's git processes while a test runs, then restored (the class's tests run one at a time).
    /// </summary>
    private sealed class LocalSubmodulesAllowed : IDisposable
    {
        private static readonly string[] s_names = ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"];
        private readonly string?[] _before = [.. s_names.Select(Environment.GetEnvironmentVariable)];

        private LocalSubmodulesAllowed() => Set(["1", "protocol.file.allow", "always"]);

        public static LocalSubmodulesAllowed Begin() => new();

        public void Dispose() => Set(_before);

        private static void Set(string?[] values)
        {
            for (int i = 0; i < s_names.Length; i++)
                Environment.SetEnvironmentVariable(s_names[i], values[i]);
        }
    }
}
