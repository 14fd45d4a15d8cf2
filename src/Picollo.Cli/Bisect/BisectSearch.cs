namespace Picollo.Cli.Bisect;

/// <summary>
/// The binary search of <c>picollo bisect</c> over the commits after the good one, oldest first, the last being the bad one
/// (known bad: it was measured so before the search). Between the last good and the first bad commit, the next step is the
/// middle one; a commit that was skipped (it does not build, or could not be measured) is replaced by its nearest neighbour
/// in the range not yet skipped, as <c>git bisect skip</c> does. When no commit is left to measure, the first bad commit
/// is found, or, when skipped commits lie before it, it is one of them or it: <see cref="Candidates"/>.
/// </summary>
internal sealed class BisectSearch
{
    private readonly BisectVerdict?[] _verdicts;

    /// <summary>A search over <paramref name="commits"/> commits (at least 1), the last of them bad.</summary>
    /// <param name="commits">How many commits follow the good one, the bad one included.</param>
    public BisectSearch(int commits)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(commits, 1);
        _verdicts = new BisectVerdict?[commits];
        _verdicts[^1] = BisectVerdict.Bad;
        FirstBad = commits - 1;
    }

    /// <summary>The newest commit known good: its index, or -1 for the good ref itself.</summary>
    public int LastGood { get; private set; } = -1;

    /// <summary>The oldest commit known bad: its index (the bad ref's, the last, until a step finds an older one).</summary>
    public int FirstBad { get; private set; }

    /// <summary>Whether the first bad commit is known: no commit lies between the last good and the first bad one.</summary>
    public bool IsFound => FirstBad - LastGood == 1;

    /// <summary>
    /// The commits the first bad one is among once no step is left: the skipped commits after the last good one, and the
    /// first bad one; a single index when <see cref="IsFound"/>.
    /// </summary>
    public IReadOnlyList<int> Candidates => [.. Enumerable.Range(LastGood + 1, FirstBad - LastGood)];

    /// <summary>The commits between the last good and the first bad one that were not skipped: what is left to measure.</summary>
    public int Unknown => Enumerable.Range(LastGood + 1, Math.Max(0, FirstBad - LastGood - 1))
        .Count(i => _verdicts[i] != BisectVerdict.Skipped);

    /// <summary>About how many steps are left: the base-2 logarithm of the commits left to measure, rounded up.</summary>
    public int StepsLeft => Unknown == 0 ? 0 : (int)Math.Ceiling(Math.Log2(Unknown + 1));

    /// <summary>
    /// The commit to measure next: the middle one between the last good and the first bad commit, or when it was skipped the
    /// nearest one that was not (the older first at equal distance); <see langword="null"/> when none is left.
    /// </summary>
    /// <returns>Its index.</returns>
    public int? Next()
    {
        int middle = LastGood + ((FirstBad - LastGood) / 2);
        for (int distance = 0; distance < FirstBad - LastGood; distance++)
        {
            foreach (int i in (int[])[middle - distance, middle + distance])
            {
                if (i > LastGood && i < FirstBad && _verdicts[i] != BisectVerdict.Skipped)
                    return i;
            }
        }

        return null;
    }

    /// <summary>Records what the step at <paramref name="index"/> found.</summary>
    /// <param name="index">The commit, as <see cref="Next"/> returned it.</param>
    /// <param name="verdict">Good, bad or skipped (an undecided step ends the search instead).</param>
    public void Record(int index, BisectVerdict verdict)
    {
        if (index <= LastGood || index >= FirstBad)
        {
            throw new ArgumentOutOfRangeException(
                nameof(index), index, $"Not between the last good ({LastGood}) and first bad ({FirstBad}) commit.");
        }

        _verdicts[index] = verdict;
        switch (verdict)
        {
            case BisectVerdict.Good:
                LastGood = index;
                break;
            case BisectVerdict.Bad:
                FirstBad = index;
                break;
            case BisectVerdict.Skipped:
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(verdict), verdict, "An undecided step ends the search; it is not recorded.");
        }
    }

    /// <summary>What the step at <paramref name="index"/> found, or <see langword="null"/> when it was not measured.</summary>
    /// <param name="index">The commit.</param>
    /// <returns>Its verdict.</returns>
    public BisectVerdict? VerdictOf(int index) => _verdicts[index];
}
