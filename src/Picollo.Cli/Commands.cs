using System.CommandLine;
using System.CommandLine.Help;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>picollo's command tree: one command per file, each a thin layer over the library.</summary>
internal static class Commands
{
    /// <summary>The command's name in help and usage lines: the tool's command (ToolCommandName), not its assembly's name.</summary>
    public const string ToolName = "picollo";

    /// <summary>
    /// The root command with every subcommand, writing reports to <paramref name="console"/>, errors and warnings to
    /// <paramref name="errors"/>, and reading answers from <paramref name="input"/>.
    /// </summary>
    /// <remarks>
    /// Not a <see cref="RootCommand"/>: its name is the executable's, and the tool runs as <c>dotnet Picollo.Cli.dll</c>,
    /// so its help said "Picollo.Cli" (issue 27). A command named picollo with the help and version options a root
    /// command adds says what a user types.
    /// </remarks>
    public static Command Build(IAnsiConsole console, IAnsiConsole errors, TextReader input)
    {
        var root = new Command(ToolName, "Picollo's performance-assertion tests from the command line: what this machine can count (doctor) and the counter names it resolves (list), the baselines under a folder (baselines) and accepting received ones (accept), two runs' results compared (compare) or one run shown as a page (report), and a pull request's perf tests measured against its base (ab). Exit codes: 0 pass, 1 a regression, 2 nothing could be judged (a usage or input error; the reason is on standard error).")
        {
            new HelpOption(),
            new VersionOption(),
        };

        var json = new Option<bool>("--json") { Description = "Write the report as JSON instead of tables." };
        var doctor = new Command("doctor", "This machine as Picollo sees it: the baseline key, the PMU, perf_event_paranoid, the TSC, and every counter with why it does or does not count. Exit code 0 when hardware counters are usable, 2 when not.") { json };
        doctor.SetAction(result => DoctorCommand.Run(console, result.GetValue(json)));
        root.Subcommands.Add(doctor);

        var pmu = new Option<string?>("--pmu") { Description = "Only the events of this PMU (e.g. cpu, software)." };
        var list = new Command("list", "The counter names this machine resolves, as perf list names them, plus tsc and the runtime counters.") { pmu };
        list.SetAction(result => ListCommand.Run(console, errors, result.GetValue(pmu)));
        root.Subcommands.Add(list);

        var folder = new Argument<string?>("folder") { Description = "The folder to search (default: the current folder).", Arity = ArgumentArity.ZeroOrOne };
        var baselines = new Command("baselines", "Every baseline (.perf.json) and received file (.received.perf.json) under a folder: the machines each covers, and why each received file was written.") { folder };
        baselines.SetAction(result => BaselinesCommand.Run(console, errors, result.GetValue(folder) ?? Directory.GetCurrentDirectory()));
        root.Subcommands.Add(baselines);

        var acceptFolder = new Argument<string?>("folder") { Description = "The folder to search (default: the current folder).", Arity = ArgumentArity.ZeroOrOne };
        var test = new Option<string?>("--test") { Description = "Only these tests, named as dotnet test names them: the method (Tokenize), Class.Method (TokenizerPerf.Tokenize), the fully qualified name, or a pattern with * and ? (TokenizerPerf.*). A theory's cases go with its method (CountRows); one case is Method.case (CountRows.64)." };
        var all = new Option<bool>("--all") { Description = "Accept every pending entry without asking (the list is shown first)." };
        var dryRun = new Option<bool>("--dry-run") { Description = "Show what would be accepted and what it replaces; change nothing." };
        var accept = new Command("accept", "Review received baselines one by one and accept or skip each (or all at once with --all): accepting merges that machine's entry into the baseline and keeps the others; an entry recorded across processes is replaced with the received one-process recording, and the list shown first says so.") { acceptFolder, test, all, dryRun };
        accept.SetAction(result => AcceptCommand.Run(console, errors, input, new AcceptCommand.Request(result.GetValue(acceptFolder) ?? Directory.GetCurrentDirectory(), result.GetValue(test), result.GetValue(all), result.GetValue(dryRun))));
        root.Subcommands.Add(accept);

        var basePath = new Argument<string>("base") { Description = "The base run's results folder (e.g. main's TestResults/picollo)." };
        var headPath = new Argument<string>("head") { Description = "The head run's results folder (e.g. the pull request's)." };
        var format = new Option<string>("--format") { Description = "markdown (a PR comment), json, or html (one self-contained page with the head run's plots).", DefaultValueFactory = static _ => "markdown" };
        var compare = new Command("compare", "Two runs' results judged test by test and counter by counter with the baselines' rules; the report alone on standard output. Exit code 0 no regression, 1 a regression, 2 nothing to judge (a folder missing or without results; a corrupt file is named on standard error and skipped).") { basePath, headPath, format };
        compare.SetAction(result => CompareCommand.Run(console, errors, result.GetValue(basePath)!, result.GetValue(headPath)!, result.GetValue(format)!));
        root.Subcommands.Add(compare);

        var reportFolder = new Argument<string>("folder") { Description = "A run's results folder (TestResults/picollo, or PICOLLO_RESULTS_DIR)." };
        var html = new Option<string>("--html") { Description = "The page to write.", Required = true };
        var report = new Command("report", "One run's results as one self-contained HTML page: a table of tests and verdicts, each test's counters and percentile plot.") { reportFolder, html };
        report.SetAction(result => ReportCommand.Run(console, errors, result.GetValue(reportFolder)!, result.GetValue(html)!));
        root.Subcommands.Add(report);

        root.Subcommands.Add(AbCommandLine(console, errors));
        return root;
    }

    // picollo ab (issue 26): the head's perf tests judged against the base's, built and measured side by side.
    private static Command AbCommandLine(IAnsiConsole console, IAnsiConsole errors)
    {
        var baseRef = new Option<string>("--base") { Description = "The base: a branch, tag or commit (e.g. origin/main). Its merge-base with the head is measured, as a pull request's diff is.", Required = true };
        var headRef = new Option<string?>("--head") { Description = "The head: a ref to check out (default: the working tree as it is)." };
        var project = new Option<string?>("--project") { Description = "One perf-test project (a .csproj or its folder); default: every project that references Picollo.Testing.Xunit or Picollo.Testing.NUnit." };
        var filter = new Option<string?>("--filter") { Description = "Only these tests, as dotnet test's filter: FullyQualifiedName~Parser, Name=Count, ClassName~Words, joined with | or &." };
        var threshold = new Option<double>("--threshold") { Description = "The change that matters, in percent: unchanged means inside ±threshold (default 3).", DefaultValueFactory = static _ => 3 };
        var confidence = new Option<double>("--confidence") { Description = "The interval's confidence, in percent (default 99).", DefaultValueFactory = static _ => 99 };
        var minPairs = new Option<int>("--min-pairs") { Description = "Process pairs every test gets (default 3).", DefaultValueFactory = static _ => 3 };
        var maxPairs = new Option<int>("--max-pairs") { Description = "The most process pairs an undecided test gets (default 10).", DefaultValueFactory = static _ => 10 };
        var budget = new Option<double>("--time-budget") { Description = "Minutes the pairs may take in all, after the builds; no pair starts after it (default 20).", DefaultValueFactory = static _ => 20 };
        var workerTimeout = new Option<double>("--worker-timeout") { Description = "Seconds a worker may stay silent before its pair is given up as hung (default 120).", DefaultValueFactory = static _ => 120 };
        var format = new Option<string>("--format") { Description = "markdown (a pull-request comment), json, or html.", DefaultValueFactory = static _ => "markdown" };
        var output = new Option<string?>("--output") { Description = "Write the report to this file (the markdown still goes to the console)." };
        var ab = new Command("ab", "The head's perf tests judged against the base's on this machine: both built, each test run side by side in fresh process pairs, samples alternating, no stored time baseline. Exit code 1 on a regression, 0 otherwise, 2 when it could not run.")
        {
            baseRef, headRef, project, filter, threshold, confidence, minPairs, maxPairs, budget, workerTimeout, format, output,
        };
        ab.SetAction(result =>
        {
            double t = result.GetValue(threshold), c = result.GetValue(confidence), minutes = result.GetValue(budget), seconds = result.GetValue(workerTimeout);
            int least = result.GetValue(minPairs), most = result.GetValue(maxPairs);
            string? problem = t is <= 0 or >= 100 ? $"--threshold {t} is not a percentage in (0, 100): the change that matters, e.g. 5."
                : c is < 50 or >= 100 ? $"--confidence {c} is not a percentage in [50, 100): e.g. 99."
                : least < 2 || most < least ? $"--min-pairs {least} and --max-pairs {most}: an interval needs at least 2 pairs, and the most cannot be below the least."
                : minutes <= 0 || seconds <= 0 ? "--time-budget and --worker-timeout must be positive."
                : null;
            if (problem is not null)
            {
                errors.Profile.Out.Writer.WriteLine("picollo ab: " + problem);
                return Ab.AbCommand.CouldNotRun;
            }

            var options = new Ab.AbOptions
            {
                Threshold = t / 100,
                Confidence = c / 100,
                MinPairs = least,
                MaxPairs = most,
                TimeBudget = TimeSpan.FromMinutes(minutes),
                WorkerTimeout = TimeSpan.FromSeconds(seconds),
            };
            return Ab.AbCommand.Run(console, errors, new Ab.AbCommand.Request(
                result.GetValue(baseRef)!, result.GetValue(headRef), result.GetValue(project), result.GetValue(filter), result.GetValue(format)!, result.GetValue(output), options));
        });
        return ab;
    }
}
