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
    /// so its help said "Picollo.Cli". A command named picollo with the help and version options a root
    /// command adds says what a user types.
    /// </remarks>
    public static Command Build(IAnsiConsole console, IAnsiConsole errors, TextReader input)
    {
        var root = new Command(ToolName, HelpMessages.Tool())
        {
            new HelpOption(),
            new VersionOption(),
        };

        var json = new Option<bool>("--json") { Description = "Write the report as JSON instead of tables." };
        var doctor = new Command("doctor", HelpMessages.Doctor()) { json };
        doctor.SetAction(result => DoctorCommand.Run(console, result.GetValue(json)));
        root.Subcommands.Add(doctor);

        var probe = new Command(SimulationProbeCommand.Name, "picollo doctor's probe of Valgrind running .NET.") { Hidden = true };
        probe.SetAction(_ => SimulationProbeCommand.Run(console.Profile.Out.Writer));
        root.Subcommands.Add(probe);

        var pmu = new Option<string?>("--pmu") { Description = "Only the events of this PMU (e.g. cpu, software)." };
        var list = new Command("list", HelpMessages.List()) { pmu };
        list.SetAction(result => ListCommand.Run(console, errors, result.GetValue(pmu)));
        root.Subcommands.Add(list);

        Argument<string?> folder = SearchedFolder();
        var baselines = new Command("baselines", HelpMessages.Baselines()) { folder };
        baselines.SetAction(result => BaselinesCommand.Run(console, errors, result.GetValue(folder) ?? Directory.GetCurrentDirectory()));
        root.Subcommands.Add(baselines);

        Argument<string?> acceptFolder = SearchedFolder();
        var test = new Option<string?>("--test") { Description = HelpMessages.AcceptTestOption() };
        var all = new Option<bool>("--all") { Description = "Accept every pending entry without asking (the list is shown first)." };
        var dryRun = new Option<bool>("--dry-run") { Description = "Show what would be accepted and what it replaces; change nothing." };
        var accept = new Command("accept", HelpMessages.Accept()) { acceptFolder, test, all, dryRun };
        accept.SetAction(result => AcceptCommand.Run(console, errors, input, new AcceptCommand.Request(
            result.GetValue(acceptFolder) ?? Directory.GetCurrentDirectory(), result.GetValue(test), result.GetValue(all),
            result.GetValue(dryRun))));
        root.Subcommands.Add(accept);

        var basePath = new Argument<string>("base") { Description = "The base run's results folder (e.g. main's TestResults/picollo)." };
        var headPath = new Argument<string>("head") { Description = "The head run's results folder (e.g. the pull request's)." };
        Option<string> format = Defaulted(
            "--format", "markdown", "markdown (a PR comment), json, or html (one self-contained page with the head run's plots).");
        var compare = new Command("compare", HelpMessages.Compare()) { basePath, headPath, format };
        compare.SetAction(result =>
            CompareCommand.Run(console, errors, result.GetValue(basePath)!, result.GetValue(headPath)!, result.GetValue(format)!));
        root.Subcommands.Add(compare);

        var reportFolder = new Argument<string>("folder")
        {
            Description = "A run's results folder (TestResults/picollo, or PICOLLO_RESULTS_DIR).",
        };
        var html = new Option<string>("--html") { Description = "The page to write.", Required = true };
        var report = new Command("report", HelpMessages.Report()) { reportFolder, html };
        report.SetAction(result => ReportCommand.Run(console, errors, result.GetValue(reportFolder)!, result.GetValue(html)!));
        root.Subcommands.Add(report);

        root.Subcommands.Add(AbCommandLine(console, errors));
        root.Subcommands.Add(History.HistoryCommands.Build(console, errors));
        root.Subcommands.Add(BisectCommandLine(console, errors));
        return root;
    }

    // picollo ab (issue 26): the head's perf tests judged against the base's, built and measured in pairs.
    private static Command AbCommandLine(IAnsiConsole console, IAnsiConsole errors)
    {
        var baseRef = new Option<string>("--base") { Description = HelpMessages.AbBaseOption(), Required = true };
        var headRef = new Option<string?>("--head") { Description = "The head: a ref to check out (default: the working tree as it is)." };
        var project = new Option<string?>("--project") { Description = HelpMessages.AbProjectOption() };
        var filter = new Option<string?>("--filter") { Description = HelpMessages.AbFilterOption() };
        Option<double> threshold = Defaulted(
            "--threshold", 3.0, "The change that matters, in percent: unchanged means inside ±threshold (default 3).");
        Option<double> confidence = Defaulted("--confidence", 99.0, "The interval's confidence, in percent (default 99).");
        Option<int> minPairs = Defaulted("--min-pairs", 3, "Process pairs every test gets (default 3).");
        Option<int> maxPairs = Defaulted("--max-pairs", 10, "The most process pairs an undecided test gets (default 10).");
        Option<double> budget = Defaulted(
            "--time-budget", 20.0, "Minutes the pairs may take in all, after the builds; no pair starts after it (default 20).");
        Option<double> workerTimeout = Defaulted(
            "--worker-timeout", 120.0, "Seconds a worker may stay silent before its pair is given up as hung (default 120).");
        Option<string> format = Defaulted("--format", "markdown", "markdown (a pull-request comment), json, or html.");
        var output = new Option<string?>("--output")
        {
            Description = "Write the report to this file (the markdown still goes to the console).",
        };
        var ab = new Command("ab", HelpMessages.Ab())
        {
            baseRef, headRef, project, filter, threshold, confidence, minPairs, maxPairs, budget, workerTimeout, format, output,
        };
        ab.SetAction(result =>
        {
            double t = result.GetValue(threshold), c = result.GetValue(confidence);
            double minutes = result.GetValue(budget), seconds = result.GetValue(workerTimeout);
            int least = result.GetValue(minPairs), most = result.GetValue(maxPairs);
            string? problem = AbOptionsProblem(t, c, least, most, minutes, seconds);
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
                result.GetValue(baseRef)!, result.GetValue(headRef), result.GetValue(project), result.GetValue(filter),
                result.GetValue(format)!, result.GetValue(output), options));
        });
        return ab;
    }

    // picollo bisect (issue 52): the first commit between a good and a bad one that shows the bad one's change, measured as ab does.
    private static Command BisectCommandLine(IAnsiConsole console, IAnsiConsole errors)
    {
        var good = new Option<string>("--good") { Description = HelpMessages.BisectGoodOption(), Required = true };
        var bad = new Option<string>("--bad") { Description = HelpMessages.BisectBadOption(), Required = true };
        var test = new Option<string>("--test") { Description = HelpMessages.BisectTestOption(), Required = true };
        var project = new Option<string?>("--project") { Description = HelpMessages.AbProjectOption() };
        Option<double> threshold = Defaulted(
            "--threshold", 3.0, "The change that matters, in percent: unchanged means inside ±threshold (default 3).");
        Option<double> confidence = Defaulted("--confidence", 99.0, "The interval's confidence, in percent (default 99).");
        Option<int> minPairs = Defaulted("--min-pairs", 3, "Process pairs a time measurement gets (default 3; exact counters: 1 a step).");
        Option<int> maxPairs = Defaulted("--max-pairs", 10, "The most process pairs an undecided time measurement gets (default 10).");
        Option<double> budget = Defaulted(
            "--time-budget", Bisect.BisectCommand.DefaultTimeBudgetMinutes,
            "Minutes the whole search may take, builds included; no step starts after it (default 60).");
        var bisect = new Command("bisect", HelpMessages.Bisect())
        {
            good, bad, test, project, threshold, confidence, minPairs, maxPairs, budget,
        };
        bisect.SetAction(result =>
        {
            double t = result.GetValue(threshold), c = result.GetValue(confidence), minutes = result.GetValue(budget);
            int least = result.GetValue(minPairs), most = result.GetValue(maxPairs);
            string? problem = AbOptionsProblem(t, c, least, most, minutes, seconds: 1);
            if (problem is not null)
                return Bisect.BisectCommand.Fail(errors, problem);

            var options = new Ab.AbOptions
            {
                Threshold = t / 100,
                Confidence = c / 100,
                MinPairs = least,
                MaxPairs = most,
                TimeBudget = TimeSpan.FromMinutes(minutes),
            };
            return Bisect.BisectCommand.Run(console, errors, new Bisect.BisectCommand.Request(
                result.GetValue(good)!, result.GetValue(bad)!, result.GetValue(test)!, result.GetValue(project), options));
        });
        return bisect;
    }

    // What is wrong with the measuring options picollo ab and picollo bisect share (percentages, pairs, budgets), or null.
    private static string? AbOptionsProblem(double threshold, double confidence, int least, int most, double minutes, double seconds) =>
        threshold is <= 0 or >= 100 ? Ab.AbMessages.ThresholdNotAPercentage(threshold)
            : confidence is < 50 or >= 100 ? Ab.AbMessages.ConfidenceNotAPercentage(confidence)
            : least < 2 || most < least ? Ab.AbMessages.PairsOutOfRange(least, most)
            : minutes <= 0 || seconds <= 0 ? Ab.AbMessages.BudgetsNotPositive()
            : null;

    // The folder picollo baselines and picollo accept search.
    private static Argument<string?> SearchedFolder() =>
        new("folder") { Description = "The folder to search (default: the current folder).", Arity = ArgumentArity.ZeroOrOne };

    // An option with a default value, which help shows beside its description.
    private static Option<T> Defaulted<T>(string name, T value, string description) =>
        new(name) { Description = description, DefaultValueFactory = _ => value };
}
