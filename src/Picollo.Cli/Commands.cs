using System.CommandLine;
using Spectre.Console;

namespace Picollo.Cli;

/// <summary>picollo's command tree: one command per file, each a thin layer over the library.</summary>
internal static class Commands
{
    /// <summary>The root command with every subcommand, writing to <paramref name="console"/> and reading answers from <paramref name="input"/>.</summary>
    public static RootCommand Build(IAnsiConsole console, TextReader input)
    {
        var root = new RootCommand("Picollo: what this machine can count, the baselines under a folder, and accepting received baselines.");

        var json = new Option<bool>("--json") { Description = "Write the report as JSON instead of tables." };
        var doctor = new Command("doctor", "This machine as Picollo sees it: the baseline key, the PMU, perf_event_paranoid, the TSC, and every counter with why it does or does not count. Exit code 0 when hardware counters are usable, 2 when not.") { json };
        doctor.SetAction(result => DoctorCommand.Run(console, result.GetValue(json)));
        root.Subcommands.Add(doctor);

        var pmu = new Option<string?>("--pmu") { Description = "Only the events of this PMU (e.g. cpu, software)." };
        var list = new Command("list", "The counter names this machine resolves, as perf list names them, plus tsc and the runtime counters.") { pmu };
        list.SetAction(result => ListCommand.Run(console, result.GetValue(pmu)));
        root.Subcommands.Add(list);

        var folder = new Argument<string?>("folder") { Description = "The folder to search (default: the current folder).", Arity = ArgumentArity.ZeroOrOne };
        var baselines = new Command("baselines", "Every baseline (.perf.json) and received file (.received.perf.json) under a folder: the machines each covers, and why each received file was written.") { folder };
        baselines.SetAction(result => BaselinesCommand.Run(console, result.GetValue(folder) ?? Directory.GetCurrentDirectory()));
        root.Subcommands.Add(baselines);

        var acceptFolder = new Argument<string?>("folder") { Description = "The folder to search (default: the current folder).", Arity = ArgumentArity.ZeroOrOne };
        var test = new Option<string?>("--test") { Description = "Only received files whose test name contains this text." };
        var all = new Option<bool>("--all") { Description = "Accept every pending entry without asking." };
        var accept = new Command("accept", "Review received baselines one by one and accept or skip each (or all at once with --all): accepting merges that machine's entry into the baseline and keeps the others.") { acceptFolder, test, all };
        accept.SetAction(result => AcceptCommand.Run(console, input, result.GetValue(acceptFolder) ?? Directory.GetCurrentDirectory(), result.GetValue(test), result.GetValue(all)));
        root.Subcommands.Add(accept);

        var basePath = new Argument<string>("base") { Description = "The base run's results folder (e.g. main's TestResults/picollo)." };
        var headPath = new Argument<string>("head") { Description = "The head run's results folder (e.g. the pull request's)." };
        var format = new Option<string>("--format") { Description = "markdown (a PR comment), json, or html (one self-contained page with the head run's plots).", DefaultValueFactory = static _ => "markdown" };
        var compare = new Command("compare", "Two runs' results judged test by test and counter by counter with the baselines' rules. Exit code 1 on a regression.") { basePath, headPath, format };
        compare.SetAction(result => CompareCommand.Run(console, result.GetValue(basePath)!, result.GetValue(headPath)!, result.GetValue(format)!));
        root.Subcommands.Add(compare);

        var reportFolder = new Argument<string>("folder") { Description = "A run's results folder (TestResults/picollo, or PICOLLO_RESULTS_DIR)." };
        var html = new Option<string>("--html") { Description = "The page to write.", Required = true };
        var report = new Command("report", "One run's results as one self-contained HTML page: a table of tests and verdicts, each test's counters and percentile plot.") { reportFolder, html };
        report.SetAction(result => ReportCommand.Run(console, result.GetValue(reportFolder)!, result.GetValue(html)!));
        root.Subcommands.Add(report);

        return root;
    }
}
