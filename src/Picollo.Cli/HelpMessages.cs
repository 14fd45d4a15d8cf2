namespace Picollo.Cli;

/// <summary>
/// The help texts of picollo's commands and of their options that need more than a line: what <c>--help</c>
/// prints beside each command. Short option descriptions stay beside their options in <see cref="Commands"/>.
/// </summary>
internal static class HelpMessages
{
    /// <summary>What <c>picollo --help</c> says the tool does: its commands and its exit codes.</summary>
    public static string Tool() =>
        "Picollo's performance-assertion tests from the command line: what this machine can count (doctor) and the counter names it "
            + "resolves (list), the baselines under a folder (baselines) and accepting received ones (accept), two runs' results "
            + "compared (compare) or one run shown as a page (report), a pull request's perf tests measured against its base (ab), "
            + "each run's results kept over time (history), and the first commit that changed a test's performance (bisect). "
            + "Exit codes: 0 pass, 1 a regression, 2 nothing could be judged (a usage or input error; the reason is on standard error).";

    /// <summary><c>picollo doctor</c> in help: what it shows of this machine, and its exit codes.</summary>
    public static string Doctor() =>
        "This machine as Picollo sees it: the baseline key, the PMU, perf_event_paranoid, the TSC, and every counter "
            + "with why it does or does not count. Exit code 0 when hardware counters are usable, 2 when not.";

    /// <summary><c>picollo list</c> in help: the counter names it prints.</summary>
    public static string List() =>
        "The counter names this machine resolves, as perf list names them, plus tsc, clock and the runtime counters.";

    /// <summary><c>picollo baselines</c> in help: the files it lists.</summary>
    public static string Baselines() =>
        "Every baseline (.perf.json) and received file (.received.perf.json) under a "
            + "folder: the machines each covers, and why each received file was written.";

    /// <summary><c>picollo accept</c> in help: what accepting does to a baseline.</summary>
    public static string Accept() =>
        "Review received baselines one by one and accept or skip each (or all at once with --all): accepting "
            + "merges that machine's entry into the baseline and keeps the others; an entry recorded across "
            + "processes is replaced with the received one-process recording, and the list shown first says so.";

    /// <summary><c>picollo accept --test</c> in help: the ways a test may be named.</summary>
    public static string AcceptTestOption() =>
        "Only these tests, named as dotnet test names them: the method (Tokenize), Class.Method "
            + "(TokenizerPerf.Tokenize), the fully qualified name, or a pattern with * and ? (TokenizerPerf.*). "
            + "A theory's cases go with its method (CountRows); one case is Method.case (CountRows.64).";

    /// <summary><c>picollo compare</c> in help: what it judges, and its exit codes.</summary>
    public static string Compare() =>
        "Two runs' results judged test by test and counter by counter with the baselines' rules; the report "
            + "alone on standard output. Exit code 0 no regression, 1 a regression, 2 nothing to judge (a "
            + "folder missing or without results; a corrupt file is named on standard error and skipped).";

    /// <summary><c>picollo report</c> in help: the page it writes.</summary>
    public static string Report() =>
        "One run's results as one self-contained HTML page: a table of tests and verdicts, each test's counters and percentile plot.";

    /// <summary><c>picollo ab</c> in help: how base and head are measured, and its exit codes.</summary>
    public static string Ab() =>
        "The head's perf tests judged against the base's on this machine: both built, each test run in pairs in fresh process "
            + "pairs, samples alternating, no stored time baseline. Exit code 1 on a regression, 0 otherwise, 2 when it could not run.";

    /// <summary><c>picollo ab --base</c> in help: the ref, and that its merge-base with the head is measured.</summary>
    public static string AbBaseOption() =>
        "The base: a branch, tag or commit (e.g. origin/main). Its merge-base with the head is measured, as a pull request's diff is.";

    /// <summary><c>picollo ab --project</c> in help: one project, or every perf-test project.</summary>
    public static string AbProjectOption() =>
        "One perf-test project (a .csproj or its folder); default: every project "
            + "that references Picollo.Testing.Xunit or Picollo.Testing.NUnit.";

    /// <summary><c>picollo ab --filter</c> in help: the filter's forms.</summary>
    public static string AbFilterOption() =>
        "Only these tests, as dotnet test's filter: FullyQualifiedName~Parser, Name=Count, ClassName~Words, joined with | or &.";

    /// <summary><c>picollo history report</c> in help.</summary>
    public static string HistoryReport() =>
        "Every series' change points as markdown (a comment's text): the commit, the magnitude and the runs around each; "
            + "with --html, one page with a trend per test and counter.";

    /// <summary><c>picollo history check</c> in help, with its exit codes.</summary>
    public static string HistoryCheck() =>
        "For a nightly or post-merge job: exit 1 when a change point that made a test slower or costlier, not acknowledged, lies "
            + "among a series' newest runs; 0 when none does; 2 when nothing could be judged.";

    /// <summary><c>picollo history check --bisect</c> in help.</summary>
    public static string HistoryBisectOption() =>
        "On a failed check, run picollo bisect on the newest alerting change, between the commits of the runs around it "
            + "(in this git repository, with the whole history fetched).";

    /// <summary><c>picollo history acknowledge</c> in help.</summary>
    public static string HistoryAcknowledge() =>
        "Marks the change at a commit intended, with a note: it stops alerting, and the runs from it on are the new normal.";

    /// <summary><c>picollo bisect</c> in help: how the first bad commit is searched, and its exit codes.</summary>
    public static string Bisect() =>
        "The first commit between a good and a bad one that shows the bad one's change: bad is measured against good as picollo ab "
            + "does, then a binary search over the commits between (first parents), each built in a worktree of its own and measured "
            + "against good in process pairs; a commit that does not build is skipped. Exact counters decide a step in one pair. "
            + "Exit code 0 with the first bad commit and its table, 2 when it could not decide or run.";

    /// <summary><c>picollo bisect --good</c> in help.</summary>
    public static string BisectGoodOption() =>
        "A commit before the change (branch, tag or sha): an ancestor of --bad.";

    /// <summary><c>picollo bisect --bad</c> in help.</summary>
    public static string BisectBadOption() =>
        "A commit with the change (e.g. main): its test measured against --good's says which change to hunt.";

    /// <summary><c>picollo bisect --test</c> in help: the filter's forms, as ab's.</summary>
    public static string BisectTestOption() =>
        "The tests whose change to hunt, as dotnet test's filter (FullyQualifiedName~Parser, Name=Count) or a bare part of the name.";

    /// <summary><c>picollo history</c> in help: the results history and its commands.</summary>
    public static string History() =>
        "The results history: each run's results appended to a store (an SQLite file by default, or one PostgreSQL server for "
            + "many runners), per machine key, test and counter, with the commit and branch measured; change points found per "
            + "series, reported with the commit that opened them, and checked by a nightly job.";

    /// <summary><c>picollo history add</c> in help: what it records, and its exit codes.</summary>
    public static string HistoryAdd() =>
        "Append one run's results (the *.result.json files of a results folder) to the history as one run: this machine's key, "
            + "the commit, parent and branch (from git here unless given), each test's counters with their statistics and histogram. "
            + "Unreadable files are named and skipped. Exit code 0 added, 2 nothing added (no folder, nothing readable, a store "
            + "that cannot be used).";

    /// <summary><c>picollo history prune</c> in help: retention.</summary>
    public static string HistoryPrune() =>
        "Drop the histograms of runs older than --keep-histograms days; their summaries (percentiles, mean, standard deviation) "
            + "stay, so trends and change points keep their whole history while the store stops growing with histograms.";

    /// <summary><c>--store</c> of the history commands in help: where the store is, and the forms it takes.</summary>
    public static string HistoryStoreOption() =>
        "The store: an SQLite file's path, or a PostgreSQL connection string (Host=...;Username=...;Password=...;Database=...) "
            + "or postgres:// URI. Default: PICOLLO_HISTORY, else ./picollo-history.db.";

    /// <summary><c>--keep-histograms</c> in help: the retention in days.</summary>
    public static string HistoryKeepHistogramsOption() =>
        "Retention: drop the histograms of runs older than this many days (summaries are kept). With add, pruned after adding.";

    /// <summary><c>picollo history add --machine</c> in help: the machine key.</summary>
    public static string HistoryMachineOption() =>
        "The machine key the run is filed under (default: this machine's baseline key, as picollo doctor shows it).";
}
