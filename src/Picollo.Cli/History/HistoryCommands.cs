using System.CommandLine;
using Spectre.Console;

namespace Picollo.Cli.History;

/// <summary><c>picollo history</c>: results over time, per machine, test and counter (docs/HISTORY.md).</summary>
internal static class HistoryCommands
{
    /// <summary>The <c>history</c> command and its subcommands.</summary>
    public static Command Build(IAnsiConsole console, IAnsiConsole errors)
    {
        var history = new Command("history", HelpMessages.History());
        history.Subcommands.Add(Add(console, errors));
        history.Subcommands.Add(Prune(console, errors));
        history.Subcommands.Add(Report(console, errors));
        history.Subcommands.Add(Check(console, errors));
        history.Subcommands.Add(Acknowledge(console, errors));
        return history;
    }

    /// <summary><c>--store</c>, which every subcommand takes.</summary>
    public static Option<string?> StoreOption() => new("--store") { Description = HelpMessages.HistoryStoreOption() };

    private static Command Add(IAnsiConsole console, IAnsiConsole errors)
    {
        var folder = new Argument<string>("results-folder")
        {
            Description = "The run's results folder (TestResults/picollo, or PICOLLO_RESULTS_DIR).",
        };
        var commit = new Option<string?>("--commit") { Description = "The commit measured (default: HEAD of the git repository here)." };
        var parent = new Option<string?>("--parent")
        {
            Description = "Its parent commit (default: HEAD's first parent, when the commit is HEAD).",
        };
        var branch = new Option<string?>("--branch")
        {
            Description = "The branch (default: the branch checked out here; none when detached).",
        };
        var machine = new Option<string?>("--machine") { Description = HelpMessages.HistoryMachineOption() };
        Option<string?> store = StoreOption();
        var keep = new Option<double?>("--keep-histograms") { Description = HelpMessages.HistoryKeepHistogramsOption() };

        // The concurrency tests' loop (issue 52, "4 processes appending 100 runs each"): one process start per run would cost
        // the suite minutes, so each process adds the folder this many times, one transaction per run, as separate adds would.
        var repeat = new Option<int>("--repeat")
        {
            Description = "Add the folder this many times (tests only).",
            DefaultValueFactory = _ => 1,
            Hidden = true,
        };
        var add = new Command("add", HelpMessages.HistoryAdd()) { folder, commit, parent, branch, machine, store, keep, repeat };
        add.SetAction(result => HistoryAddCommand.Run(console, errors, new HistoryAddCommand.Request(
            result.GetValue(folder)!, result.GetValue(commit), result.GetValue(parent), result.GetValue(branch), result.GetValue(machine),
            result.GetValue(store), result.GetValue(keep), Math.Max(1, result.GetValue(repeat)))));
        return add;
    }

    private static Command Prune(IAnsiConsole console, IAnsiConsole errors)
    {
        Option<string?> store = StoreOption();
        var keep = new Option<double>("--keep-histograms") { Description = HelpMessages.HistoryKeepHistogramsOption(), Required = true };
        var prune = new Command("prune", HelpMessages.HistoryPrune()) { keep, store };
        prune.SetAction(result => HistoryPruneCommand.Run(console, errors, result.GetValue(store), result.GetValue(keep)));
        return prune;
    }

    private static Command Report(IAnsiConsole console, IAnsiConsole errors)
    {
        Option<string?> store = StoreOption(), test = TestOption(), branch = BranchOption();
        var html = new Option<string?>("--html") { Description = "Also write one self-contained page with a trend per test and counter." };
        var report = new Command("report", HelpMessages.HistoryReport()) { store, test, branch, html };
        report.SetAction(result => HistoryReportCommand.Run(console, errors, new HistoryReportCommand.Request(
            result.GetValue(store), result.GetValue(test), result.GetValue(branch), result.GetValue(html))));
        return report;
    }

    private static Command Check(IAnsiConsole console, IAnsiConsole errors)
    {
        Option<string?> store = StoreOption(), test = TestOption(), branch = BranchOption();
        var newest = new Option<int>("--newest")
        {
            Description = "How many of each series' newest runs a change point must fall among to fail the check.",
            DefaultValueFactory = _ => HistoryCheckCommand.DefaultNewest,
        };
        var bisect = new Option<bool>("--bisect")
        {
            Description = HelpMessages.HistoryBisectOption(),
        };
        var project = new Option<string?>("--project") { Description = "With --bisect: " + HelpMessages.AbProjectOption() };
        var check = new Command("check", HelpMessages.HistoryCheck()) { store, test, branch, newest, bisect, project };
        check.SetAction(result => HistoryCheckCommand.Run(console, errors, new HistoryCheckCommand.Request(
            result.GetValue(store), result.GetValue(test), result.GetValue(branch), result.GetValue(newest),
            result.GetValue(bisect) ? new HistoryCheckCommand.BisectRequest(result.GetValue(project)) : null)));
        return check;
    }

    private static Command Acknowledge(IAnsiConsole console, IAnsiConsole errors)
    {
        Option<string?> store = StoreOption();
        var test = new Option<string>("--test") { Description = "The test (a name or pattern, as the report shows it).", Required = true };
        var counter = new Option<string>("--counter") { Description = "The counter, as the report shows it.", Required = true };
        var commit = new Option<string>("--commit")
        {
            Description = "The commit the change is pinned to (the report's Commit column).",
            Required = true,
        };
        var note = new Option<string>("--note") { Description = "Why the change is intended; the report shows it.", Required = true };
        var machine = new Option<string?>("--machine") { Description = "Only this machine's series (default: every machine's)." };
        var acknowledge = new Command("acknowledge", HelpMessages.HistoryAcknowledge()) { store, test, counter, commit, note, machine };
        acknowledge.SetAction(result => HistoryAcknowledgeCommand.Run(console, errors, new HistoryAcknowledgeCommand.Request(
            result.GetValue(store), result.GetValue(test)!, result.GetValue(counter)!, result.GetValue(commit)!, result.GetValue(note)!,
            result.GetValue(machine))));
        return acknowledge;
    }

    private static Option<string?> TestOption() => new("--test") { Description = "Only tests this name or pattern matches." };

    private static Option<string?> BranchOption() =>
        new("--branch") { Description = "Only runs of this branch (default: every branch's)." };
}
