using System.Text;
using Picollo.Cli.Ab;
using Picollo.Cli.Bisect;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Cli.Bisect;

/// <summary>
/// What <c>picollo bisect</c> says (issue 52): every kind <see cref="BisectMessages"/> builds, in situations a search meets,
/// in the golden file <c>Approved/BisectMessages.approved.md</c>.
/// </summary>
public sealed class BisectMessagesTests
{
    private const string Repo = "/home/dev/shop";
    private static readonly BisectCommit s_good = new("1a2b3c4d5e6f708192a3b4c5d6e7f80912345678", "Cache the parsed rows");
    private static readonly BisectCommit s_step = new("9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", "Parse tables in one pass");
    private static readonly BisectCommit s_bad = new("0123456789abcdef0123456789abcdef01234567", "Release 2.1");
    private static readonly BisectChange s_alloc = new(
        new AbTest("Shop.PerfTests.TablePerf.Parse", "Shop.PerfTests.TablePerf", "Parse"), "tests/Shop.PerfTests/Shop.PerfTests.csproj",
        "TablePerf.Parse#0", "allocated-bytes", AbVerdict.Regressed, Exact: true, "303816 → 320136 bytes/op");
    private static readonly BisectChange s_time = s_alloc with
    {
        Counter = "tsc",
        Direction = AbVerdict.Improved,
        Exact = false,
        Summary = "×0.186 (-81.4%)",
    };

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Refs(text);
        Search(text);
        Endings(text);

        Approvals.Verify(text.ToString(), "BisectMessages");
    }

    private static void Refs(StringBuilder text)
    {
        Case(text, nameof(BisectMessages.NotAGitRepository), BisectMessages.NotAGitRepository(
            "/home/dev/Downloads", "fatal: not a git repository (or any of the parent directories): .git"));
        Case(text, nameof(BisectMessages.NotARef), BisectMessages.NotARef("good", "-v1"));
        Case(text, "UnknownRef: a misspelled tag", BisectMessages.UnknownRef("good", "v2.O", Repo, shallow: false));
        Case(text, "UnknownRef: in a shallow clone", BisectMessages.UnknownRef("good", "v2.0", Repo, shallow: true));
        Case(text, nameof(BisectMessages.SameCommit), BisectMessages.SameCommit("v2.1", "main", "0123456789"));
        Case(text, nameof(BisectMessages.Swapped), BisectMessages.Swapped("main", "v2.0"));
        Case(text, nameof(BisectMessages.NotAnAncestor), BisectMessages.NotAnAncestor("feature/cache", "main", "1a2b3c4d5e", "0123456789"));
        Case(text, nameof(BisectMessages.EmptyRange), BisectMessages.EmptyRange("feature/cache~1", "main"));
        Case(text, nameof(BisectMessages.LogFailed), BisectMessages.LogFailed(Repo, "fatal: bad object 1a2b3c4d5e"));
    }

    private static void Search(StringBuilder text)
    {
        Case(text, nameof(BisectMessages.Range), BisectMessages.Range("v2.0 (1a2b3c4d5e)", "main (0123456789)", 12, 4));
        Case(text, nameof(BisectMessages.NothingToBisect), BisectMessages.NothingToBisect("--bad main", "--good v2.0", "TablePerf", 0.03));
        Case(text, "Hunting: an exact counter", BisectMessages.Hunting(s_alloc, 10));
        Case(text, "Hunting: time", BisectMessages.Hunting(s_time, 10));
        Case(text, nameof(BisectMessages.AlsoChanged), BisectMessages.AlsoChanged([s_time]));
        Case(text, "StepLine: bad", BisectMessages.StepLine(
            2, 1, s_step, new BisectStep(BisectVerdict.Bad, "allocated-bytes 303816 → 320136 bytes/op"), TimeSpan.FromSeconds(41)));
        string doesNotBuild = BisectMessages.DoesNotBuild("src/Shop/Table.cs(9,21): error CS0103: The name 'rows' does not exist in the current context");
        Case(text, nameof(BisectMessages.DoesNotBuild), doesNotBuild);
        Case(text, "StepLine: skipped", BisectMessages.StepLine(
            3, 1, s_step, new BisectStep(BisectVerdict.Skipped, doesNotBuild), TimeSpan.FromSeconds(6)));
        Case(text, nameof(BisectMessages.NotMeasured), BisectMessages.NotMeasured(s_alloc, ["The head worker exited with code 3 without measuring."]));
    }

    private static void Endings(StringBuilder text)
    {
        Case(text, nameof(BisectMessages.FirstBadCommit), BisectMessages.FirstBadCommit(s_step));
        Case(text, nameof(BisectMessages.Ambiguous), BisectMessages.Ambiguous([s_good, s_step]));
        Case(text, nameof(BisectMessages.Undecided), BisectMessages.Undecided(s_step, 10, s_good, s_bad, 5));
        Case(text, nameof(BisectMessages.BudgetSpent), BisectMessages.BudgetSpent(TimeSpan.FromMinutes(60), s_good, s_bad, 5));
        Case(text, nameof(BisectMessages.Took), BisectMessages.Took(4, 1, TimeSpan.FromSeconds(312)));
        Case(text, nameof(BisectMessages.Cancelled), BisectMessages.Cancelled());
    }

    private static void Case(StringBuilder text, string name, string message) => text.Append("## " + name + "\n\n" + message + "\n\n");
}
