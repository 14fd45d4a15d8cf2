using System.Text;
using System.Text.RegularExpressions;
using Picollo.PerfEvents;

namespace Picollo.Cli;

/// <summary>
/// <c>picollo accept --test NAME</c>: which baselines a test name means, the way <c>dotnet test --filter</c> users name
/// tests. A baseline is <c>&lt;Class&gt;.&lt;Method&gt;[.&lt;case&gt;].perf.json</c>; the name matches when it is
/// the method (all of a theory's cases), <c>Method.case</c> (one case), <c>Class.Method</c>, <c>Class.Method.case</c>, a
/// fully qualified name ending in one of those, the class's exact name (all of its tests, as <c>Class.*</c>), or the path
/// under the searched folder; case is ignored. With <c>*</c> or
/// <c>?</c> it is a pattern whose wildcards stay within one part of the name: <c>Tokenize*</c> matches the methods
/// <c>Tokenize</c> and <c>TokenizeLarge</c>, never the class <c>TokenizerPerf</c>'s other methods, which a text search
/// for "Tokenize" did.
/// </summary>
internal sealed class TestNameFilter
{
    private const int MaxSuggestions = 3;

    private readonly string _text;
    private readonly bool _wildcards;
    private readonly Regex _name;
    private readonly Regex[] _qualified;

    /// <summary>Reads <paramref name="text"/> as a name or, with <c>*</c> or <c>?</c>, a pattern.</summary>
    public TestNameFilter(string text)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(text);
        _text = text.Trim().Replace('\\', '/');
        _wildcards = _text.AsSpan().IndexOfAny('*', '?') >= 0;
        _name = Glob(_text);

        // A fully qualified name (Namespace.Class.Method) ends in Class.Method: each of its tails of two parts or more is
        // tried against the class-qualified names.
        var tails = new List<Regex>();
        for (int dot = _text.IndexOf('.', StringComparison.Ordinal); dot >= 0; dot = _text.IndexOf('.', dot + 1))
        {
            string tail = _text[(dot + 1)..];
            if (tail.Contains('.', StringComparison.Ordinal))
                tails.Add(Glob(tail));
        }

        _qualified = [_name, .. tails];
    }

    /// <summary>The name as given.</summary>
    public string Text => _text;

    /// <summary>
    /// Whether <paramref name="test"/> (a baseline's path under the searched folder, without <c>.perf.json</c>) is meant.
    /// </summary>
    public bool Matches(string test)
    {
        (string path, string className, string method, string? caseName) = Parts(test);
        string classMethod = $"{className}.{method}";
        string[] unqualified = caseName is null ? [method] : [method, $"{method}.{caseName}"];
        string[] qualified = caseName is null ? [classMethod] : [classMethod, $"{classMethod}.{caseName}"];
        // The class's exact name means all of its tests; a pattern never matches a class, or "Tokenize*" would take every
        // test of TokenizerPerf.
        return unqualified.Any(_name.IsMatch)
            || (!_wildcards && _name.IsMatch(className))
            || qualified.Any(n => _qualified.Any(q => q.IsMatch(n)))
            || (!_wildcards && string.Equals(_text, path, StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>
    /// The names of <paramref name="tests"/> nearest to this one by edit distance (at most three, as <c>Class.Method</c>),
    /// for the message that says the name matches no test.
    /// </summary>
    public IReadOnlyList<string> Nearest(IEnumerable<string> tests) =>
        [.. tests
            .Select(static t => Parts(t))
            .Select(static p => $"{p.Class}.{p.Method}")
            .Distinct(StringComparer.OrdinalIgnoreCase)
            .Select(n => (Name: n, Distance: Math.Min(
                PerfEventSuggestions.EditDistance(_text, n),
                PerfEventSuggestions.EditDistance(_text, n[(n.IndexOf('.', StringComparison.Ordinal) + 1)..]))))
            .OrderBy(static n => n.Distance)
            .ThenBy(static n => n.Name, StringComparer.Ordinal)
            .Take(MaxSuggestions)
            .Select(static n => n.Name)];

    // "sub/TokenizerPerf.CountRows.64" → the path, TokenizerPerf, CountRows, 64. Class and method are C# names, so the
    // first two dots of the file name separate them; a theory case may hold dots of its own (BaselineLocator.GetFileName).
    private static (string Path, string Class, string Method, string? Case) Parts(string test)
    {
        string path = test.Replace('\\', '/');
        string name = path[(path.LastIndexOf('/') + 1)..];
        string[] parts = name.Split('.', 3);
        return parts.Length switch
        {
            1 => (path, parts[0], parts[0], null),
            2 => (path, parts[0], parts[1], null),
            _ => (path, parts[0], parts[1], parts[2]),
        };
    }

    // The whole name, ignoring case; * is any run of characters within one part of it (no '.' or '/'), ? one such character.
    private static Regex Glob(string pattern)
    {
        var regex = new StringBuilder("^");
        foreach (char c in pattern)
        {
            regex.Append(c switch
            {
                '*' => "[^./]*",
                '?' => "[^./]",
                _ => Regex.Escape(c.ToString()),
            });
        }

        return new Regex(regex.Append('$').ToString(), RegexOptions.IgnoreCase | RegexOptions.CultureInvariant, TimeSpan.FromSeconds(1));
    }
}
