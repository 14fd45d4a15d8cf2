using System.Xml.Linq;

namespace Picollo.Packaging.Tests;

/// <summary>One test's result as VSTest's TRX logger wrote it: what a CI system shows a user.</summary>
public sealed record TrxResult(string Name, string Outcome, string Message, string Output)
{
    private static readonly XNamespace s_ns = "http://microsoft.com/schemas/VisualStudio/TeamTest/2010";

    /// <summary>Every test result of one TRX file.</summary>
    public static IReadOnlyList<TrxResult> Read(string path)
    {
        XDocument trx = XDocument.Load(path);
        return [.. trx.Descendants(s_ns + "UnitTestResult").Select(static r => new TrxResult(
            (string?)r.Attribute("testName") ?? "",
            (string?)r.Attribute("outcome") ?? "",
            string.Join("\n", r.Descendants(s_ns + "ErrorInfo").Elements(s_ns + "Message").Select(static m => m.Value)),
            string.Join("\n", r.Descendants(s_ns + "Output").Elements(s_ns + "StdOut").Select(static m => m.Value))))];
    }
}
