using System.Diagnostics;
using System.Globalization;
using Picollo.Measurement.Engine;

namespace Picollo.Cli.Ab;

/// <summary>
/// The adaptive part of <c>picollo ab</c>: every test gets <see cref="AbOptions.MinPairs"/> process pairs, then one more
/// round at a time for the tests still undecided, up to <see cref="AbOptions.MaxPairs"/> or the time budget. A round's first
/// pair per project runs all of that project's due tests in turn, and the later rounds as few pairs as the two builds'
/// orders of their tests allow (<see cref="AbRunOrder"/>): the level a process settles at is what a
/// pair samples, and one pair of processes samples it for many tests, where a pair per test paid two process starts,
/// discovery and the runtime's warmup for each (3.2 s a pair, about 27 minutes for the A/A of 50 tests at 10 pairs each).
/// A slow spell of the host still falls on several tests' measurements instead of on every pair of one.
/// </summary>
internal static class AbRunner
{
    /// <summary>Runs and judges every test of both builds.</summary>
    /// <param name="baseAssemblies">The base build's test assemblies.</param>
    /// <param name="headAssemblies">The head build's.</param>
    /// <param name="options">Threshold, confidence, pairs, budget.</param>
    /// <param name="progress">Where the run stands, after each pair and when the time budget ends it.</param>
    /// <param name="cancellation">Ctrl+C.</param>
    /// <returns>The tests, judged.</returns>
    public static IReadOnlyList<AbTestResult> Run(
        IReadOnlyList<AbTestAssembly> baseAssemblies,
        IReadOnlyList<AbTestAssembly> headAssemblies,
        AbOptions options,
        Action<AbProgress> progress,
        CancellationToken cancellation)
    {
        List<Entry> tests = Entries(baseAssemblies, headAssemblies);
        var order = new AbRunOrder();
        int cpu = options.Cpu;
        long start = Stopwatch.GetTimestamp();
        int round = 0;
        while (true)
        {
            List<Entry> due = [.. tests.Where(e => e.WantsPair(options, round))];
            if (due.Count == 0)
                break;
            foreach (List<Entry> group in Groups(due, options.TestsPerPair, order))
            {
                if (Stopwatch.GetElapsedTime(start) > options.TimeBudget && round >= 1)
                {
                    IReadOnlyList<AbTestResult> final = [.. tests.Select(e => e.Result(options, final: true))];
                    string line = AbMessages.TimeBudgetSpent(options.TimeBudget);
                    progress(new AbProgress(line, final, tests.Count, Stopwatch.GetElapsedTime(start), 0) { EndsEarly = true });
                    return final;
                }

                cancellation.ThrowIfCancellationRequested();
                AbPairResult pair = AbPairRun.Run(
                    group[0].Base, group[0].Head, [.. group.Select(static e => e.Test)], round, cpu, options.WorkerTimeout,
                    options.SamplesPerPair, cancellation);
                order.Observe(group[0].Base, pair.BaseOrder);
                order.Observe(group[0].Head, pair.HeadOrder);
                foreach (Entry entry in group)
                {
                    if (pair.Outcomes.TryGetValue(entry.Test, out AbPairOutcome? outcome))
                    {
                        entry.Pairs.Add(outcome);
                        progress(Progress(entry, options, Stopwatch.GetElapsedTime(start), tests));
                    }
                    else if (pair.Unpaired.Contains(entry.Test))
                    {
                        // Measured on both sides, each alone: the builds run their tests in different orders. The next
                        // round's pairs follow the orders this one showed.
                        entry.Unpaired++;
                    }
                    else
                    {
                        // Not reached: a worker crashed on an earlier test of the pair. The next round runs it alone.
                        entry.Missed++;
                    }
                }
            }

            round++;
        }

        return [.. tests.Select(e => e.Result(options, final: true))];
    }

    // Every test of the head, with the base's assembly where the base has it; then the tests only the base has.
    private static List<Entry> Entries(IReadOnlyList<AbTestAssembly> baseAssemblies, IReadOnlyList<AbTestAssembly> headAssemblies)
    {
        var tests = new List<Entry>();
        foreach (AbTestAssembly head in headAssemblies)
        {
            AbTestAssembly? baseAssembly = baseAssemblies.FirstOrDefault(b => b.ProjectRelativePath == head.ProjectRelativePath);
            foreach (AbTest test in head.Tests)
            {
                bool atBase = baseAssembly?.Tests.Any(t => t.FullName == test.FullName) == true;
                tests.Add(new Entry(test, head.ProjectRelativePath, atBase ? baseAssembly : null, head));
            }
        }

        foreach (AbTestAssembly baseAssembly in baseAssemblies)
        {
            foreach (AbTest test in baseAssembly.Tests)
            {
                if (!tests.Any(e => e.Project == baseAssembly.ProjectRelativePath && e.Test.FullName == test.FullName))
                    tests.Add(new Entry(test, baseAssembly.ProjectRelativePath, baseAssembly, null));
            }
        }

        return tests;
    }

    // The round's process pairs: the due tests of one project share a pair (the tests both builds have; the tests only the
    // head has share a head-only one), in runs both builds take in one order once a pair has shown their orders
    // (AbRunOrder). A test a crash kept from its last pair, one out of order twice, and tests whose short names collide,
    // run in a pair of their own.
    private static IEnumerable<List<Entry>> Groups(List<Entry> due, int testsPerPair, AbRunOrder order)
    {
        foreach (var sameBuilds in due.GroupBy(static e => (e.Base, e.Head)))
        {
            List<Entry> shared = [.. sameBuilds.Where(static e => e.Missed == 0 && e.Unpaired < 2)];
            if (!AbTestOrder.Distinct(shared.Select(static e => e.Test)))
                shared = [];
            foreach (List<Entry> run in Runs(shared, sameBuilds.Key.Base, sameBuilds.Key.Head, order))
            {
                foreach (Entry[] chunk in run.Chunk(Math.Max(1, testsPerPair)))
                    yield return [.. chunk];
            }

            foreach (Entry alone in sameBuilds.Where(e => !shared.Contains(e)))
                yield return [alone];
        }
    }

    // Tests both builds have, once either build's order of them is known: runs in one order for both (those whose order
    // is not known yet run alone); the rest (the first round, a build of its own) in one pair that shows the orders.
    private static List<List<Entry>> Runs(List<Entry> shared, AbTestAssembly? baseAssembly, AbTestAssembly? headAssembly, AbRunOrder order)
    {
        List<AbTest> tests = [.. shared.Select(static e => e.Test)];
        if (shared.Count <= 1 || baseAssembly is null || headAssembly is null
            || !(order.Knows(baseAssembly, tests) || order.Knows(headAssembly, tests)))
            return shared.Count == 0 ? [] : [shared];
        return order.Runs(shared, static e => e.Test, baseAssembly, headAssembly);
    }

    private static AbProgress Progress(Entry entry, AbOptions options, TimeSpan elapsed, List<Entry> tests)
    {
        AbTestResult result = entry.Result(options, final: false);
        string what = result.Measurements.FirstOrDefault(static m => m.Time is not null)?.Time?.Summary
            ?? result.Verdict.ToString().ToLowerInvariant();
        int done = tests.Count(e => !e.WantsPair(options, int.MaxValue));
        int pairsRun = tests.Sum(static e => e.Pairs.Count);
        double perPair = elapsed.TotalSeconds / Math.Max(1, pairsRun);
        int left = tests.Sum(e => e.Base is null || e.Head is null
            ? Math.Max(0, 1 - e.Pairs.Count)
            : e.WantsPair(options, int.MaxValue) ? Math.Max(0, options.MinPairs - e.Pairs.Count) + 1 : 0);
        string problem = entry.Pairs[^1].Problem is { } p ? " — " + p
            : AbStatistics.SetAside(entry.Pairs[^1]) is { } aside ? " — " + aside
            : string.Empty;
        string line = string.Create(CultureInfo.InvariantCulture,
            $"[{elapsed.TotalSeconds,5:0} s] {entry.Test.ShortName}: pair {entry.Pairs.Count}: {what}, {Describe(result.Verdict)}{problem}"
            + $" · {done}/{tests.Count} tests decided, ~{left * perPair:0} s left");
        IReadOnlyList<AbTestResult> results = [.. tests.Select(e => e == entry ? result : e.Result(options, final: false))];
        return new AbProgress(line, results, done, elapsed, left * perPair);
    }

    /// <summary>A verdict as the report words it.</summary>
    /// <param name="verdict">The verdict.</param>
    /// <returns>The word.</returns>
    public static string Describe(AbVerdict verdict) => verdict switch
    {
        AbVerdict.NotJudged => "not judged",
        AbVerdict.Relative => "relative claims held",
        _ => verdict.ToString().ToLowerInvariant(),
    };

    private sealed class Entry(AbTest test, string project, AbTestAssembly? baseAssembly, AbTestAssembly? head)
    {
        public AbTest Test { get; } = test;

        public string Project { get; } = project;

        public AbTestAssembly? Base { get; } = baseAssembly;

        public AbTestAssembly? Head { get; } = head;

        public List<AbPairOutcome> Pairs { get; } = [];

        // Pairs that ended before they reached this test.
        public int Missed { get; set; }

        // Pairs that measured it on both sides, each alone: the builds ran it at different places in their orders.
        public int Unpaired { get; set; }

        // Removed tests are not run; new tests run once (the head alone: its numbers and budgets); the others get the least
        // pairs, then more while a measurement is undecided, unless a pair failed outright (a crash is not noise).
        public bool WantsPair(AbOptions options, int round)
        {
            if (Head is null)
                return false;
            if (Base is null)
                return Pairs.Count == 0;
            if (Pairs.Count >= options.MaxPairs || Pairs.Any(static p => p.Problem is not null || p.Failures.Count > 0))
                return false;
            if (Pairs.Count == 0)
                return true;
            IReadOnlyList<AbMeasurement> measurements = AbStatistics.Judge(Pairs, options, final: false);
            if (IsRelativeOnly(measurements) || IsSimulatedOnly(measurements))
                return false;
            if (Pairs.Count < options.MinPairs)
                return true;
            return measurements.Count == 0 || measurements.Any(static m => AbStatistics.WantsMorePairs(m.Verdict));
        }

        // A test whose measurements are all relative (Against, Perf.Compare) is judged inside the head's own build, and each
        // of its pairs runs the two sides one after the other: one pair says whether its claims held, and every further pair
        // cost two solo measurements to say it again (the samples' WordsPerf.CountBeatsSplit: 6 s a pair, to the cap of 10).
        // A test with no time counter whose simulated counters decided it: they repeat exactly, so its first pair said all.
        private static bool IsSimulatedOnly(IReadOnlyList<AbMeasurement> measurements) =>
            measurements.Count > 0 && measurements.All(static m => m.Time is null && m.Exact.Any(static e => e.IsSimulated));

        private bool IsRelativeOnly(IReadOnlyList<AbMeasurement> measurements) =>
            measurements.Count == 0 && Pairs.Any(static p => p.Measurements.Any(static r => r.Kind == "relative" && r.Side == "head"));

        public AbTestResult Result(AbOptions options, bool final)
        {
            var problems = new List<string>();
            foreach (AbPairOutcome pair in Pairs)
            {
                foreach (PairedRecord failure in pair.Failures)
                    problems.Add($"The {failure.Side}'s {failure.Test} failed: {failure.Message}");
                if (pair.Problem is { } problem)
                    problems.Add(char.ToUpperInvariant(problem[0]) + problem[1..]);
            }

            if (Head is null)
                return new AbTestResult(Test, Project, AbVerdict.Removed, [], 0, problems);

            IReadOnlyList<AbMeasurement> measurements = AbStatistics.Judge(Pairs, options, final);
            AbVerdict verdict;
            // The head's test failing, crashing or hanging is the pull request's doing: failed, as dotnet test would say.
            if (Pairs.Any(static p => p.Failures.Any(static f => f.Side == "head") || p.ProblemSide == "head"))
                verdict = AbVerdict.Failed;
            else if (Base is null)
                verdict = AbVerdict.New;
            else if (Pairs.Any(static p => p.Failures.Any(static f => f.Side == "base"))
                || (problems.Count > 0 && measurements.All(static m => m.Time is null && m.Exact.Count == 0)))
                verdict = AbVerdict.NotJudged;
            else if (IsRelativeOnly(measurements))
                verdict = AbVerdict.Relative;
            else if (measurements.Count == 0)
                verdict = AbVerdict.NotJudged;
            else
                verdict = measurements.Min(static m => m.Verdict);

            if (measurements.Max(static m => (int?)m.SetAsidePairs) is > 0 and int setAside)
                problems.Add(AbMessages.PairsSetAside(setAside, Pairs.Count));
            if (verdict == AbVerdict.Relative)
                problems.Add(AbMessages.RelativeClaimsHeld());
            else if (measurements.Count == 0 && problems.Count == 0 && Base is not null && Pairs.Count > 0)
                problems.Add(AbMessages.NothingMeasured());
            else if (verdict == AbVerdict.NotJudged && problems.Count == 0)
                problems.Add(AbMessages.NoTimeToCompare());
            return new AbTestResult(Test, Project, verdict, measurements, Pairs.Count, problems) { PairOutcomes = [.. Pairs] };
        }
    }
}
