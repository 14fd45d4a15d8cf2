using System.Globalization;
using Picollo.Cli.Ab;

namespace Picollo.Cli.Bisect;

/// <summary>
/// What <c>picollo bisect</c> tells the user: the refs and ranges it refuses, the change it hunts, each step, and how the
/// search ended. Each method is one situation, taking the facts it states; the golden file
/// <c>BisectMessages.approved.md</c> shows every one. Build, filter and worker problems are <see cref="AbMessages"/>'.
/// </summary>
internal static class BisectMessages
{
    /// <summary>The prefix of every error line.</summary>
    public const string Prefix = "picollo bisect: ";

    /// <summary>picollo bisect was run outside a git repository; <paramref name="reason"/> is git's.</summary>
    public static string NotAGitRepository(string folder, string reason) =>
        $"{folder} is not inside a git repository ({Reason(reason)}): run picollo bisect from a clone "
            + "with the history between --good and --bad.";

    /// <summary>The <paramref name="side"/> option (good, bad) is empty or starts with '-'.</summary>
    public static string NotARef(string side, string reference) =>
        $"--{side} '{reference}' is not a git ref: give a branch, tag or commit (e.g. --{side} v1.4.0).";

    /// <summary>The <paramref name="side"/>'s ref names no commit of the repository.</summary>
    public static string UnknownRef(string side, string reference, string root, bool shallow) =>
        $"--{side} '{reference}' is not a commit in the repository at {root}. "
            + (shallow
                ? "The clone is shallow: fetch the history (git fetch --unshallow, or actions/checkout with fetch-depth: 0)."
                : $"Check the spelling (git log --oneline names the commits), or fetch it (git fetch origin {reference}).");

    /// <summary>Good and bad are the same commit: there is nothing between them.</summary>
    public static string SameCommit(string good, string bad, string sha) =>
        $"--good {good} and --bad {bad} are the same commit ({sha}): there is no commit between them to search. "
            + "Give as --good a commit from before the change.";

    /// <summary>Bad is an ancestor of good: the two were given the wrong way round.</summary>
    public static string Swapped(string good, string bad) =>
        $"--good {good} comes after --bad {bad} in the history: the good commit must be an ancestor of the bad one. "
            + $"Swap them (--good {bad} --bad {good}) if the newer commit is the good one; to find an improvement, "
            + "give the commit from before it as --good anyway: picollo bisect hunts either direction.";

    /// <summary>Good is not an ancestor of bad (they are on branches that forked).</summary>
    public static string NotAnAncestor(string good, string bad, string goodSha, string badSha) =>
        $"--good {good} ({goodSha}) is not an ancestor of --bad {bad} ({badSha}): the two are on branches that forked, so no "
            + $"line of commits leads from one to the other. Give as --good a commit of {bad}'s history "
            + $"(git merge-base {good} {bad} names the fork point).";

    /// <summary>Good is an ancestor of bad, but no commit of bad's first-parent line descends from it.</summary>
    public static string EmptyRange(string good, string bad) =>
        $"No commit on {bad}'s first-parent line descends from --good {good}: {good} is on a branch merged into it. Give as --good "
            + $"a commit of the line itself (git log --first-parent --oneline {bad}), e.g. the merge's first parent.";

    /// <summary>git log or merge-base failed in the repository for another reason; <paramref name="reason"/> is git's.</summary>
    public static string LogFailed(string root, string reason) =>
        $"git could not read the history of the repository at {root} ({Reason(reason)}). Fix that, then run picollo bisect again.";

    /// <summary>The start: the range and the steps a binary search takes over it.</summary>
    public static string Range(string good, string bad, int commits, int steps) =>
        string.Create(CultureInfo.InvariantCulture,
            $"picollo bisect: {commits} commit(s) after good {good} up to bad {bad} (first parents), about {steps} step(s).");

    /// <summary>Bad measured unchanged against good for every test of the filter.</summary>
    public static string NothingToBisect(string bad, string good, string filter, double threshold) =>
        string.Create(CultureInfo.InvariantCulture,
            $"nothing to bisect: {bad} measured unchanged against {good} for the tests of --test \"{filter}\" (threshold "
            + $"±{threshold:0.#%}; the table above). Check that --bad has the change, widen --test, or lower --threshold.");

    /// <summary>The change hunted, and how each step measures it.</summary>
    public static string Hunting(BisectChange change, int maxPairs) =>
        $"Hunting {change}: "
            + (change.Exact
                ? "an exact counter, so one process pair per step decides."
                : string.Create(CultureInfo.InvariantCulture, $"time, so each step takes pairs until it is decided (at most {maxPairs})."));

    /// <summary>Other changes bad showed, not hunted in this run.</summary>
    public static string AlsoChanged(IEnumerable<BisectChange> others) =>
        $"Also changed, not hunted: {string.Join("; ", others)}. To hunt one of them, run picollo bisect again with a --test "
            + "that selects it alone.";

    /// <summary>One step's line: the commit, its verdict, what it measured and how long it took.</summary>
    public static string StepLine(int step, int stepsLeft, BisectCommit commit, BisectStep result, TimeSpan took) =>
        string.Create(CultureInfo.InvariantCulture,
            $"step {step} (~{stepsLeft} left): {commit}: {Word(result.Verdict)} — {result.Summary} ({took.TotalSeconds:0} s)");

    /// <summary>A step's commit does not build; <paramref name="firstError"/> is the build's first error line.</summary>
    public static string DoesNotBuild(string firstError) => $"does not build: {firstError}";

    /// <summary>A step's commit built, but the hunted test was not measured there.</summary>
    public static string NotMeasured(BisectChange change, IReadOnlyList<string> problems) =>
        $"{change.Test.ShortName} was not measured "
            + $"({(problems.Count > 0 ? Reason(problems[0]) : "the commit has no such test or counter")})";

    /// <summary>The answer's first line.</summary>
    public static string FirstBadCommit(BisectCommit commit) => $"first bad commit: {commit.Sha} {commit.Subject}";

    /// <summary>Skipped commits lie before the first bad one: it is one of <paramref name="candidates"/>.</summary>
    public static string Ambiguous(IReadOnlyList<BisectCommit> candidates) =>
        $"could not decide: the first bad commit is one of these {candidates.Count}; all but the last were skipped (they do not "
            + "build, or their test could not be measured):\n" + string.Join('\n', candidates.Select(static c => "  " + c))
            + "\nFix their build (or measure them by hand with picollo ab) to tell which.";

    /// <summary>A step stayed inconclusive after the most pairs: the search stops, and says the range left.</summary>
    public static string Undecided(BisectCommit step, int pairs, BisectCommit lastGood, BisectCommit firstBad, int left) =>
        string.Create(CultureInfo.InvariantCulture,
            $"could not decide: step {step.Short} stayed inconclusive after {pairs} pair(s). The first bad commit is after "
            + $"{lastGood.Short} and no later than {firstBad.Short} ({left} commit(s)): run picollo bisect --good {lastGood.Short} "
            + $"--bad {firstBad.Short} with more --max-pairs or a larger --threshold, on a quieter machine.");

    /// <summary>The time budget ended the search: the range left.</summary>
    public static string BudgetSpent(TimeSpan budget, BisectCommit lastGood, BisectCommit firstBad, int left) =>
        string.Create(CultureInfo.InvariantCulture,
            $"could not decide: the time budget ({budget.TotalMinutes:0.#} min) is spent. The first bad commit is after "
            + $"{lastGood.Short} and no later than {firstBad.Short} ({left} commit(s)): run picollo bisect --good {lastGood.Short} "
            + $"--bad {firstBad.Short}, or give a larger --time-budget.");

    /// <summary>The end line: the steps and the time they took.</summary>
    public static string Took(int steps, int skipped, TimeSpan wall) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{steps} step(s) ({skipped} skipped) after the first measurement; {wall.TotalSeconds:0} s in all.");

    /// <summary>Ctrl+C.</summary>
    public static string Cancelled() =>
        "Cancelled: the workers were stopped and the worktrees removed; the repository is as it was.";

    private static string Word(BisectVerdict verdict) => verdict.ToString().ToLowerInvariant();

    // git's or a problem's words on one line, without a final period (the sentence around goes on).
    private static string Reason(string text)
    {
        string line = string.Join(' ', text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
        return line.Length == 0 ? "no reason given" : line.TrimEnd('.');
    }
}
