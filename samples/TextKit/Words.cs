namespace TextKit;

/// <summary>Word-level helpers: what a log pipeline or a search index calls millions of times.</summary>
public static class Words
{
    /// <summary>Counts the words (runs of letters or digits) in <paramref name="text"/> without allocating.</summary>
    public static int Count(ReadOnlySpan<char> text)
    {
        int words = 0;
        bool inWord = false;
        foreach (char c in text)
        {
            bool letter = char.IsLetterOrDigit(c);
            if (letter && !inWord)
                words++;
            inWord = letter;
        }

        return words;
    }

    /// <summary>Splits <paramref name="text"/> into lower-cased words: allocates one string per word and the list.</summary>
    public static List<string> Tokenize(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var tokens = new List<string>();
        int start = -1;
        for (int i = 0; i <= text.Length; i++)
        {
            bool letter = i < text.Length && char.IsLetterOrDigit(text[i]);
            if (letter && start < 0)
            {
                start = i;
            }
            else if (!letter && start >= 0)
            {
                tokens.Add(text[start..i].ToLowerInvariant());
                start = -1;
            }
        }

        return tokens;
    }
}
