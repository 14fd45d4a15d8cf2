namespace Picollo.Cli;

/// <summary>A result file (<c>*.result.json</c>) that could not be read: named and skipped, never half-read.</summary>
/// <param name="Path">The file's full path.</param>
/// <param name="Reason">Why it could not be read, with the JSON position when there is one.</param>
internal sealed record UnreadableResult(string Path, string Reason)
{
    private const string Extension = ".result.json";

    /// <summary>
    /// The test the file is named after (<c>&lt;TestClass&gt;.&lt;Method&gt;[.&lt;case&gt;]</c>, as the library names result
    /// files), so a comparison can say that test was not compared rather than call it new or removed.
    /// </summary>
    public string Test
    {
        get
        {
            string name = System.IO.Path.GetFileName(Path);
            return name.EndsWith(Extension, StringComparison.Ordinal) ? name[..^Extension.Length] : name;
        }
    }

    /// <summary>The file and the reason, for one line on standard error.</summary>
    public override string ToString() => $"{Path}: {Reason}";
}
