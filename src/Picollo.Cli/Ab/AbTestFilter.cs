namespace Picollo.Cli.Ab;

/// <summary>
/// The <c>--filter</c> of <c>picollo ab</c>, in dotnet test's filter grammar for the properties an A/B run knows
/// (<c>FullyQualifiedName</c>, <c>Name</c>, <c>ClassName</c>): conditions joined with &amp; (binding first) and |,
/// parentheses to group, a backslash before a character that would otherwise be syntax.
/// </summary>
internal static class AbTestFilter
{
    /// <summary>Which tests <paramref name="filter"/> selects.</summary>
    /// <exception cref="AbException">The filter is malformed or names a property an A/B run does not know.</exception>
    public static Func<AbTest, bool> Parse(string filter)
    {
        int position = 0;
        Func<AbTest, bool> expression = Or(filter, ref position, depth: 0);
        return position >= filter.Length
            ? expression
            : throw new AbException(AbMessages.FilterUnopenedParenthesis(filter, position + 1));
    }

    private static Func<AbTest, bool> Or(string filter, ref int position, int depth)
    {
        var terms = new List<Func<AbTest, bool>> { And(filter, ref position, depth) };
        while (position < filter.Length && filter[position] == '|')
        {
            position++;
            terms.Add(And(filter, ref position, depth));
        }

        return terms.Count == 1 ? terms[0] : t => terms.Exists(term => term(t));
    }

    private static Func<AbTest, bool> And(string filter, ref int position, int depth)
    {
        var factors = new List<Func<AbTest, bool>> { Factor(filter, ref position, depth) };
        while (position < filter.Length && filter[position] == '&')
        {
            position++;
            factors.Add(Factor(filter, ref position, depth));
        }

        return factors.Count == 1 ? factors[0] : t => factors.TrueForAll(factor => factor(t));
    }

    private static Func<AbTest, bool> Factor(string filter, ref int position, int depth)
    {
        while (position < filter.Length && char.IsWhiteSpace(filter[position]))
            position++;
        if (position < filter.Length && filter[position] == '(')
        {
            position++;
            Func<AbTest, bool> group = Or(filter, ref position, depth + 1);
            if (position >= filter.Length || filter[position] != ')')
                throw new AbException(AbMessages.FilterUnclosedParenthesis(filter));
            position++;
            while (position < filter.Length && char.IsWhiteSpace(filter[position]))
                position++;
            return group;
        }

        // The condition's characters up to the next operator, each marked when a backslash made it literal. A ')' ends
        // the condition only inside a group, so a bare "Hash(256)" reads as text.
        var characters = new List<(char Value, bool Escaped)>();
        int start = position;
        while (position < filter.Length && filter[position] is not ('|' or '&') && !(depth > 0 && filter[position] == ')'))
        {
            bool escaped = filter[position] == '\\' && position + 1 < filter.Length;
            if (escaped)
                position++;
            characters.Add((filter[position], escaped));
            position++;
        }

        return Condition(filter, characters, start + 1);
    }

    private static Func<AbTest, bool> Condition(string filter, List<(char Value, bool Escaped)> characters, int at)
    {
        int op = characters.FindIndex(static c => !c.Escaped && c.Value is '=' or '~');
        string Text(int from, int to) => new string([.. characters.Skip(from).Take(to - from).Select(static c => c.Value)]).Trim();

        string property, value, comparison;
        if (op < 0)
        {
            // A bare text: the dotnet test shorthand for FullyQualifiedName~text.
            (property, comparison, value) = ("FullyQualifiedName", "~", Text(0, characters.Count));
        }
        else
        {
            bool negated = op > 0 && characters[op - 1] is { Value: '!', Escaped: false };
            property = Text(0, negated ? op - 1 : op);
            comparison = (negated ? "!" : "") + characters[op].Value;
            value = Text(op + 1, characters.Count);
        }

        if (value.Length == 0)
            throw new AbException(AbMessages.FilterEmptyCondition(filter, at));

        Func<AbTest, string> read = property.ToUpperInvariant() switch
        {
            "FULLYQUALIFIEDNAME" => static t => t.FullName,
            "NAME" => static t => t.MethodName,
            "CLASSNAME" => static t => t.ClassName,
            _ => throw new AbException(AbMessages.FilterPropertyNotSupported(property)),
        };

        // Ignoring case, as dotnet test's own filter does for xunit (NUnit's adapter compares exactly).
        return comparison switch
        {
            "=" => t => string.Equals(read(t), value, StringComparison.OrdinalIgnoreCase),
            "!=" => t => !string.Equals(read(t), value, StringComparison.OrdinalIgnoreCase),
            "~" => t => read(t).Contains(value, StringComparison.OrdinalIgnoreCase),
            _ => t => !read(t).Contains(value, StringComparison.OrdinalIgnoreCase),
        };
    }
}
