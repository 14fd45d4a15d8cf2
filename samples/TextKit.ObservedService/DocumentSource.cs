using System.Text;

namespace TextKit.ObservedService;

/// <summary>Synthetic documents, the same on every run: paragraphs of words drawn from a small vocabulary with a skewed frequency.</summary>
internal static class DocumentSource
{
    private static readonly string[] s_vocabulary =
    [
        "the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for", "on", "are", "as", "with", "his",
        "they", "at", "be", "this", "have", "from", "or", "one", "had", "by", "word", "but", "not", "what", "all", "were",
        "histogram", "counter", "latency", "allocation", "percentile", "baseline", "regression", "throughput", "kernel",
        "instruction", "cycle", "branch", "cache", "thread", "span", "service", "request", "response", "parser", "token",
    ];

    /// <summary>Makes <paramref name="count"/> documents of 150 to 400 words from <paramref name="seed"/>.</summary>
    public static string[] Create(int seed, int count)
    {
        var random = new Random(seed);
        var documents = new string[count];
        var text = new StringBuilder();
        for (int d = 0; d < count; d++)
        {
            text.Clear();
            int words = random.Next(150, 400);
            for (int w = 0; w < words; w++)
            {
                // Squaring a uniform draw favours the first (frequent) words, as natural text does.
                double u = random.NextDouble();
                text.Append(s_vocabulary[(int)(u * u * s_vocabulary.Length)]);
                text.Append(w % 17 == 16 ? ".\n" : w % 5 == 4 ? ", " : " ");
            }

            documents[d] = text.ToString();
        }

        return documents;
    }
}
