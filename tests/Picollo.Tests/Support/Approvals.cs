using System.Runtime.CompilerServices;
using System.Text.RegularExpressions;
using Xunit;

namespace Picollo.Tests.Support;

/// <summary>
/// Verify-style stored expectations: <c>Approved/{name}.approved.{ext}</c> beside the calling test file.
/// A mismatch writes <c>{name}.received.{ext}</c> next to it (git-ignored) and fails with both paths;
/// accept a change by renaming the received file over the approved one.
/// </summary>
internal static partial class Approvals
{
    /// <summary>Compares the text exactly (line endings normalized to LF).</summary>
    public static void Verify(string actual, string name, string extension = "md", [CallerFilePath] string callerFile = "")
        => Compare(actual, name, extension, callerFile, static s => s);

    /// <summary>Compares with runs of spaces collapsed: for expectations copied from rendered web pages.</summary>
    public static void VerifyIgnoringPadding(string actual, string name, string extension = "txt", [CallerFilePath] string callerFile = "")
        => Compare(actual, name, extension, callerFile, static s => Spaces().Replace(s, " "));

    private static void Compare(string actual, string name, string extension, string callerFile, Func<string, string> normalize)
    {
        string folder = Path.Combine(Path.GetDirectoryName(callerFile)!, "Approved");
        string approvedPath = Path.Combine(folder, $"{name}.approved.{extension}");
        string receivedPath = Path.Combine(folder, $"{name}.received.{extension}");
        actual = actual.ReplaceLineEndings("\n");

        string? approved = File.Exists(approvedPath) ? File.ReadAllText(approvedPath).ReplaceLineEndings("\n") : null;
        if (approved is not null && normalize(approved) == normalize(actual))
        {
            File.Delete(receivedPath);
            return;
        }

        Directory.CreateDirectory(folder);
        File.WriteAllText(receivedPath, actual);
        Assert.Fail(approved is null
            ? $"No approved file {approvedPath}. Review {receivedPath} and rename it to approve."
            : $"{name} differs from {approvedPath}.{Environment.NewLine}First difference: {FirstDifference(normalize(approved), normalize(actual))}" +
              $"{Environment.NewLine}Received: {receivedPath}");
    }

    private static string FirstDifference(string expected, string actual)
    {
        string[] e = expected.Split('\n'), a = actual.Split('\n');
        for (int i = 0; i < Math.Max(e.Length, a.Length); i++)
        {
            string el = i < e.Length ? e[i] : "<end>", al = i < a.Length ? a[i] : "<end>";
            if (el != al)
                return $"line {i + 1}: expected «{el}» but was «{al}»";
        }

        return "none";
    }

    [GeneratedRegex(" +")]
    private static partial Regex Spaces();
}
