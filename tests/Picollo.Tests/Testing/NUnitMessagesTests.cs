using System.Reflection;
using System.Text;
using Picollo.Tests.Support;
using Xunit;

namespace Picollo.Tests.Testing;

/// <summary>
/// The NUnit adapter's own long messages (issue 28): every kind its internal <c>NUnitMessages</c> builds, in the golden file
/// <c>Approved/NUnitMessages.approved.md</c>. The adapter gives no test assembly its internals (an InternalsVisibleTo would
/// be part of its public API snapshot), so the builder is called by name.
/// </summary>
public sealed class NUnitMessagesTests
{
    private static readonly Type s_messages =
        typeof(Picollo.Testing.NUnit.PerfTestAttribute).Assembly.GetType("Picollo.Testing.NUnit.NUnitMessages", throwOnError: true)!;

    [Fact]
    public void EveryMessageKind_IsInTheGoldenFile()
    {
        var text = new StringBuilder();
        Case(text, "NotBuiltByAPicolloAttribute", "Shop.PerfTests.TokenizerPerf.Tokenize");
        Case(text, "NoPortablePdb", "[PerfTestCase]", "TokenizerPerf.CountRows", "Shop.PerfTests");

        Approvals.Verify(text.ToString(), "NUnitMessages");
    }

    private static void Case(StringBuilder text, string kind, params object[] facts)
    {
        MethodInfo method = s_messages.GetMethod(kind, BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)!;
        text.Append("## " + kind + "\n\n" + (string)method.Invoke(null, facts)! + "\n\n");
    }
}
