namespace Picollo.Testing.NUnit;

/// <summary>
/// The NUnit adapter's own messages that need more than a line: what goes wrong between NUnit's test building
/// and Picollo's attributes. The golden file <c>NUnitMessages.approved.md</c> shows each.
/// </summary>
internal static class NUnitMessages
{
    /// <summary>
    /// A test reached Picollo's command without a Picollo attribute having built it: <c>[Test]</c> or <c>[TestCase]</c> on the
    /// same method as <c>[PerfTest]</c> or <c>[PerfTestCase]</c>.
    /// </summary>
    public static string NotBuiltByAPicolloAttribute(string test) =>
        $"{test} was not built by a Picollo attribute: [PerfTest] and [PerfTestCase] "
            + "cannot be combined with [Test] or [TestCase] on one method.";

    /// <summary>
    /// The <paramref name="assembly"/> has no portable PDB holding <paramref name="method"/> (<c>Class.Method</c>), so the
    /// test's source folder, where its baselines live, cannot be found.
    /// </summary>
    public static string NoPortablePdb(string attribute, string method, string assembly) =>
        $"{attribute} {method}: its source folder, where its baselines live, is read from the assembly's debug information, "
            + $"and {assembly} has no portable PDB with this method. Build it with <DebugType>portable</DebugType> or "
            + "<DebugType>embedded</DebugType> (the SDK's default is portable), and keep the .pdb beside the assembly.";
}
