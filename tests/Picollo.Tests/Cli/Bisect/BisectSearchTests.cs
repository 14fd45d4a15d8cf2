using Picollo.Cli.Bisect;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Cli.Bisect;

/// <summary>
/// <see cref="BisectSearch"/> from tables, nothing built (issue 52): the steps it takes over commits whose first bad one
/// and skipped ones are given, and the answer: the first bad commit, or the candidates when skipped commits lie right
/// before it.
/// </summary>
public sealed class BisectSearchTests
{
    /// <summary>Commits after good, the first bad one's index, the ones that do not build, the steps expected, the answer.</summary>
    public static TheoryData<int, int, int[], int[], int[]> Searches => new()
    {
        // 8 commits, the 6th bad: the middle (index 3), then halves.
        { 8, 5, [], [3, 5, 4], [5] },

        // The middle does not build: its older neighbour instead, then the search goes on around it.
        { 8, 5, [3], [3, 2, 4, 5], [5] },

        // The commit right before the first bad one does not build: it or the first bad one, which cannot be told.
        { 8, 4, [3], [3, 2, 4], [3, 4] },

        // Every commit between good and bad does not build: any of them, or bad.
        { 4, 3, [0, 1, 2], [1, 0, 2], [0, 1, 2, 3] },

        // The bad commit alone: nothing to measure, it is the first bad one.
        { 1, 0, [], [], [0] },

        // Two commits, the first bad: one step.
        { 2, 0, [], [0], [0] },

        // The bad commit itself is the first bad one: every step is good.
        { 8, 7, [], [3, 5, 6], [7] },
    };

    [Theory]
    [MemberData(nameof(Searches))]
    public void Search_TakesTheseSteps_AndAnswers(int commits, int firstBad, int[] skipped, int[] steps, int[] answer)
    {
        (List<int> taken, BisectSearch search) = Run(commits, firstBad, skipped);

        taken.ShouldBe(steps);
        search.Candidates.ShouldBe(answer);
        search.IsFound.ShouldBe(answer.Length == 1);
        if (search.IsFound)
            search.FirstBad.ShouldBe(firstBad);
    }

    [Fact]
    public void Search_WithoutSkips_FindsEveryFirstBadCommit_InAtMostLog2Steps()
    {
        for (int commits = 1; commits <= 40; commits++)
        {
            int bound = (int)Math.Ceiling(Math.Log2(commits));
            for (int firstBad = 0; firstBad < commits; firstBad++)
            {
                (List<int> taken, BisectSearch search) = Run(commits, firstBad, []);

                search.IsFound.ShouldBeTrue($"{commits} commits, first bad {firstBad}");
                search.FirstBad.ShouldBe(firstBad, $"{commits} commits");
                taken.Count.ShouldBeLessThanOrEqualTo(bound, $"{commits} commits, first bad {firstBad}: {string.Join(", ", taken)}");
            }
        }
    }

    [Fact]
    public void StepsLeft_IsTheLogarithmOfTheCommitsLeftToMeasure()
    {
        var search = new BisectSearch(8);
        search.StepsLeft.ShouldBe(3);
        search.Record(3, BisectVerdict.Good);
        search.StepsLeft.ShouldBe(2);
        search.Record(5, BisectVerdict.Skipped);
        search.Unknown.ShouldBe(2);
        search.VerdictOf(5).ShouldBe(BisectVerdict.Skipped);
    }

    [Fact]
    public void Record_OutsideTheRange_OrUndecided_Throws()
    {
        var search = new BisectSearch(8);
        search.Record(3, BisectVerdict.Good);

        Should.Throw<ArgumentOutOfRangeException>(() => search.Record(2, BisectVerdict.Bad));
        Should.Throw<ArgumentOutOfRangeException>(() => search.Record(7, BisectVerdict.Bad));
        Should.Throw<ArgumentOutOfRangeException>(() => search.Record(5, BisectVerdict.Undecided));
    }

    // Steps the search until it stops: a skipped commit is skipped, an older one than the first bad good, the others bad.
    private static (List<int> Taken, BisectSearch Search) Run(int commits, int firstBad, int[] skipped)
    {
        var search = new BisectSearch(commits);
        var taken = new List<int>();
        while (search.Next() is int next)
        {
            taken.Add(next);
            search.Record(next, skipped.Contains(next) ? BisectVerdict.Skipped : next >= firstBad ? BisectVerdict.Bad : BisectVerdict.Good);
        }

        return (taken, search);
    }
}
