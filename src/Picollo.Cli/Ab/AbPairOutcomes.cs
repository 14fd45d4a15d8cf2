using Picollo.Measurement.Engine;
using Side = Picollo.Cli.Ab.AbPairRun.Side;
using Trouble = Picollo.Cli.Ab.AbPairRun.Trouble;

namespace Picollo.Cli.Ab;

/// <summary>
/// What a process pair of <c>picollo ab</c> leaves for each test (<see cref="AbPairRun"/> runs the pair): the records its
/// workers wrote, and the pair's problem laid on the test it belongs to.
/// </summary>
internal static class AbPairOutcomes
{
    /// <summary>
    /// Each test's records, and the pair's problem laid where it belongs (<see cref="Blamed"/>). Tests a crashed side has
    /// nothing for are left out: they run alone in a later pair. So are tests both sides measured, each alone: the builds
    /// run their tests in different orders, which the result gives (<see cref="AbRunOrder"/> plans the next pairs by them).
    /// </summary>
    public static AbPairResult Collect(string folder, List<Side> sides, AbTestOrder order, Trouble? trouble)
    {
        var measurements = new List<PairedRecord>();
        var failures = new List<PairedRecord>();
        var skips = new List<PairedRecord>();
        foreach (string path in Directory.GetFiles(folder, "*.json").Order(StringComparer.Ordinal))
        {
            PairedRecord record;
            try
            {
                record = PairedRecord.Read(path);
            }
            catch (InvalidDataException e)
            {
                trouble ??= new Trouble("tool", e.Message);
                continue;
            }

            (record.Kind switch { "failure" => failures, "skipped" => skips, _ => measurements }).Add(record);
        }

        AbTest? blamed = trouble is null ? null : Blamed(sides, order, trouble, measurements);
        var unpaired = new HashSet<AbTest>();
        Dictionary<AbTest, AbPairOutcome> outcomes = PerTest(sides, order, trouble, blamed, measurements, failures, skips, unpaired);
        return new AbPairResult(outcomes, unpaired, Began(sides, "base", order), Began(sides, "head", order));
    }

    // The tests in the order one side began their measurements.
    private static List<AbTest> Began(List<Side> sides, string name, AbTestOrder order)
    {
        var tests = new List<AbTest>();
        foreach (string key in sides.FirstOrDefault(s => s.Name == name)?.Began ?? [])
        {
            if (order.TestOfKey(key) is { } test && !tests.Contains(test))
                tests.Add(test);
        }

        return tests;
    }

    /// <summary>
    /// Whether both sides measured a test and never paired: each reached it while the other waited at another test.
    /// In a pair of one test that cannot be the order: there the records stand, whatever they hold.
    /// </summary>
    /// <param name="own">The test's measurement records from both sides.</param>
    /// <param name="testsInPair">How many tests the pair ran.</param>
    /// <returns>Whether the records are no pair of the test's.</returns>
    internal static bool NeverPaired(IReadOnlyList<PairedRecord> own, int testsInPair) =>
        testsInPair > 1
        && own.Any(static r => r.Kind == "measurement" && r.Side == "base")
        && own.Any(static r => r.Kind == "measurement" && r.Side == "head")
        && !own.Any(static r => r.Kind == "measurement" && r.IsPaired);

    // Each test's outcome: its records, the pair's trouble where it was laid, or what a side that had nothing for it says.
    private static Dictionary<AbTest, AbPairOutcome> PerTest(
        List<Side> sides,
        AbTestOrder order,
        Trouble? trouble,
        AbTest? blamed,
        List<PairedRecord> measurements,
        List<PairedRecord> failures,
        List<PairedRecord> skips,
        HashSet<AbTest> unpaired)
    {
        var outcomes = new Dictionary<AbTest, AbPairOutcome>();
        foreach (AbTest test in order.Tests)
        {
            List<PairedRecord> own = [.. measurements.Where(r => order.TestOf(r.Test) == test)];
            List<PairedRecord> failed = [.. failures.Where(r => order.TestOf(r.Test) == test)];
            Trouble? problem = test == blamed ? trouble : null;
            if (problem is null && failed.Count == 0 && NeverPaired(own, order.Tests.Count))
            {
                unpaired.Add(test);
                continue;
            }

            bool unreached = false;
            foreach (Side side in sides)
            {
                if (problem is not null || own.Any(r => r.Side == side.Name) || failed.Any(r => r.Side == side.Name)
                    || !side.Worker.HasExited)
                    continue;

                // A worker that said why it measured nothing (its code is not what ships: a coverage run, a Debug build) is quoted.
                if (skips.FirstOrDefault(r => r.Side == side.Name && order.TestOf(r.Test) == test) is { Message: { } reason } skip)
                {
                    problem = new Trouble("none", AbMessages.WorkerSkipped(side.Name, skip.Test, reason));
                    continue;
                }

                // xunit's exit code 1 says a test failed, which that test's failure record says already.
                bool crashed = side.Worker.ExitCode != 0 && !(side.Worker.ExitCode == 1 && failures.Any(r => r.Side == side.Name));

                // After a pair given up (its trouble laid on its test), or a side that crashed in a pair of several tests
                // (which one took it down is a guess: a class's constructor can end it before its test says anything), a
                // test a side has nothing for was not reached: it runs alone next round, where nothing is a guess. Alone, a
                // crash is its side's problem; a clean exit without a measurement is a skip there, nobody's fault.
                if (trouble is not null || (crashed && order.Tests.Count > 1))
                {
                    unreached = true;
                    continue;
                }

                string said = AbMessages.WorkerExitedWithoutMeasuring(side.Name, side.Worker.ExitCode, side.Worker.Tail());
                problem = new Trouble(crashed ? side.Name : "none", said);
            }

            bool reached = own.Count > 0 || failed.Count > 0 || problem is not null;
            if (unreached && problem is null || (trouble is not null && !reached))
                continue;
            outcomes[test] = new AbPairOutcome(own, failed, problem?.Text) { ProblemSide = problem?.Side };
        }

        return outcomes;
    }

    // The test a pair given up belongs to: the measurement the troubled side waits at, or the one it was taking alone and
    // wrote no record for; for the tool's own trouble, the measurement either side waits at; else, in a pair of one test,
    // that test. The other side's measurement says nothing of the troubled side's: the two builds run their tests in
    // different orders (docs/VERDICTS.md, "Base against head"). In a pair of several with nothing to say which test the
    // side ended in, none is blamed, and each test it has nothing for runs alone in the next round.
    private static AbTest? Blamed(List<Side> sides, AbTestOrder order, Trouble trouble, List<PairedRecord> measurements)
    {
        Side? troubled = sides.FirstOrDefault(s => s.Name == trouble.Side);
        string? solo = troubled?.Solo is { } key0 && !measurements.Any(r => r.Side == troubled.Name && r.Key == key0) ? key0 : null;
        IEnumerable<string?> keys = troubled is null ? sides.Select(static s => s.Pending) : [troubled.Pending, solo];
        foreach (string? key in keys)
        {
            if (key is not null && order.TestOfKey(key) is { } test)
                return test;
        }

        return order.Tests.Count == 1 ? order.Tests[0] : null;
    }
}
