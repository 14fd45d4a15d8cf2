using System.Globalization;

namespace Picollo.Cli.Ab;

/// <summary>
/// The tests one process pair runs, in the order both workers are expected to run them (an order the two builds share once
/// a pair has shown theirs, <see cref="AbRunOrder"/>; the first pair's guess before that), and the way back from what a worker names (a
/// measurement's test display name, <c>WordsPerf.Count</c> or <c>FnvPerf.Hash(64)</c>, and its key,
/// <c>WordsPerf.Count#0</c>) to the test method: a pair's records are laid out per test, and a side that waits at a later
/// test than the other lets the other go alone.
/// </summary>
internal sealed class AbTestOrder
{
    /// <summary>Takes the tests in the order given; their short names must differ (<see cref="Distinct"/>).</summary>
    /// <param name="tests">The tests, in the order both builds are expected to run them.</param>
    public AbTestOrder(IReadOnlyList<AbTest> tests) => Tests = tests;

    /// <summary>The tests, in order.</summary>
    public IReadOnlyList<AbTest> Tests { get; }

    /// <summary>
    /// Whether tests can share a pair: a record names its test by the class's own name and the method, so two classes of
    /// the same name in different namespaces would be told apart by nothing.
    /// </summary>
    /// <param name="tests">Candidate tests for one pair.</param>
    /// <returns>Whether their short names are all different.</returns>
    public static bool Distinct(IEnumerable<AbTest> tests) =>
        tests.GroupBy(static t => t.ShortName, StringComparer.Ordinal).All(static g => g.Count() == 1);

    /// <summary>The test a display name belongs to: its short name, or its short name and a case.</summary>
    /// <param name="displayName">A record's test, e.g. <c>FnvPerf.Hash(64)</c>.</param>
    /// <returns>The test, or <see langword="null"/> when none of the pair's tests is named so.</returns>
    public AbTest? TestOf(string displayName)
    {
        AbTest? best = null;
        foreach (AbTest test in Tests)
        {
            string name = test.ShortName;
            bool matches = displayName.StartsWith(name, StringComparison.Ordinal)
                && (displayName.Length == name.Length || displayName[name.Length] is '(' or '.' or ' ' or '<');
            if (matches && (best is null || name.Length > best.ShortName.Length))
                best = test;
        }

        return best;
    }

    /// <summary>The test a measurement key belongs to (<c>WordsPerf.Count#0</c>: its display name, then its order in it).</summary>
    /// <param name="key">A key, <c>display#n</c>.</param>
    /// <returns>The test, or <see langword="null"/> when none of the pair's tests is named so.</returns>
    public AbTest? TestOfKey(string key) => TestOf(key[..Math.Max(0, key.LastIndexOf('#'))]);

    /// <summary>Which of two measurement keys comes first in the round: by test, then by measurement within one name.</summary>
    /// <param name="a">A key, <c>display#n</c>.</param>
    /// <param name="b">Another.</param>
    /// <returns>Negative when <paramref name="a"/> comes first, positive when <paramref name="b"/> does, 0 when the order cannot
    /// tell (two cases of one test, or a name no test has).</returns>
    public int Compare(string a, string b)
    {
        (string nameA, int indexA) = Split(a);
        (string nameB, int indexB) = Split(b);
        if (nameA == nameB)
            return indexA.CompareTo(indexB);
        int testA = TestOf(nameA) is { } ta ? IndexOf(ta) : -1, testB = TestOf(nameB) is { } tb ? IndexOf(tb) : -1;
        return testA < 0 || testB < 0 || testA == testB ? 0 : testA.CompareTo(testB);
    }

    private int IndexOf(AbTest test)
    {
        for (int i = 0; i < Tests.Count; i++)
        {
            if (Tests[i] == test)
                return i;
        }

        return -1;
    }

    private static (string Name, int Index) Split(string key)
    {
        int hash = key.LastIndexOf('#');
        return hash >= 0 && int.TryParse(key.AsSpan(hash + 1), NumberStyles.Integer, CultureInfo.InvariantCulture, out int index)
            ? (key[..hash], index)
            : (key, 0);
    }
}
