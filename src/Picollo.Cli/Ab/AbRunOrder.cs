namespace Picollo.Cli.Ab;

/// <summary>
/// The order each build's workers run their tests in, as the pairs so far showed it, and the pairs it plans. xunit v3
/// orders test collections and methods by IDs hashed from the test assembly's path, so the base's and the head's builds
/// (two worktrees) run the same tests in different orders, and one process pair measures paired only the tests both
/// reach in one relative order (docs/VERDICTS.md, "Base against head"). One build's order holds through a run: its path
/// does not change, and a subset of its tests runs in the whole set's order. So a round's first pair shows each build's
/// order, and the next rounds run the tests in pairs whose tests both builds take in the same order.
/// </summary>
internal sealed class AbRunOrder
{
    // Per assembly, per test: the observation that first showed it, and its place there. Places in two observations are
    // not comparable: neither showed both tests.
    private readonly Dictionary<AbTestAssembly, Dictionary<AbTest, (int Seen, int Place)>> _places =
        new(ReferenceEqualityComparer.Instance);

    private int _observations;

    /// <summary>Takes what one side of a pair ran: its tests in the order its worker began them.</summary>
    /// <param name="assembly">The side's build (compared by reference: the runner's own instances).</param>
    /// <param name="tests">The tests, in order.</param>
    public void Observe(AbTestAssembly? assembly, IReadOnlyList<AbTest> tests)
    {
        if (assembly is null || tests.Count == 0)
            return;
        if (!_places.TryGetValue(assembly, out Dictionary<AbTest, (int Seen, int Place)>? places))
            _places[assembly] = places = [];
        int seen = _observations++;
        for (int i = 0; i < tests.Count; i++)
            places.TryAdd(tests[i], (seen, i));
    }

    /// <summary>Whether any of <paramref name="tests"/> has been seen running in <paramref name="assembly"/>.</summary>
    /// <param name="assembly">A build.</param>
    /// <param name="tests">Its tests.</param>
    /// <returns>Whether an order is known for some of them.</returns>
    public bool Knows(AbTestAssembly assembly, IEnumerable<AbTest> tests) =>
        _places.TryGetValue(assembly, out Dictionary<AbTest, (int Seen, int Place)>? places) && tests.Any(places.ContainsKey);

    /// <summary>
    /// The fewest runs of tests that both builds take in one order, each in that order: the tests taken in the head's
    /// order, each added to the first run whose last test both builds were seen to run before it, else starting a run.
    /// A test whose order is not known in both builds runs alone.
    /// </summary>
    /// <typeparam name="T">What carries a test.</typeparam>
    /// <param name="items">The tests to plan.</param>
    /// <param name="test">Each item's test.</param>
    /// <param name="baseAssembly">The base's build.</param>
    /// <param name="headAssembly">The head's build.</param>
    /// <returns>The runs, each in the order both builds run it.</returns>
    public List<List<T>> Runs<T>(IEnumerable<T> items, Func<T, AbTest> test, AbTestAssembly baseAssembly, AbTestAssembly headAssembly)
    {
        var runs = new List<List<T>>();
        foreach (T item in items.OrderBy(i => Place(headAssembly, test(i)) ?? (int.MaxValue, int.MaxValue)))
        {
            List<T>? run = runs.FirstOrDefault(r =>
                Before(baseAssembly, test(r[^1]), test(item)) && Before(headAssembly, test(r[^1]), test(item)));
            if (run is null)
                runs.Add([item]);
            else
                run.Add(item);
        }

        return runs;
    }

    private (int Seen, int Place)? Place(AbTestAssembly assembly, AbTest test) =>
        _places.TryGetValue(assembly, out Dictionary<AbTest, (int Seen, int Place)>? places)
        && places.TryGetValue(test, out (int Seen, int Place) place) ? place : null;

    private bool Before(AbTestAssembly assembly, AbTest first, AbTest second) =>
        Place(assembly, first) is { } a && Place(assembly, second) is { } b && a.Seen == b.Seen && a.Place < b.Place;
}
