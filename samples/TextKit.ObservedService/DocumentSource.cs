using System.Text;

namespace TextKit.ObservedService;

/// <summary>
/// Synthetic documents, the same on every run: paragraphs of sentences whose words come from a small vocabulary with a
/// skewed frequency, as natural text has (a few words make up most of it).
/// </summary>
internal static class DocumentSource
{
    private static readonly string[] s_vocabulary =
    [
        "the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for", "on", "are", "as", "with", "his",
        "they", "at", "be", "this", "have", "from", "or", "one", "had", "by", "word", "but", "not", "what", "all", "were",
        "histogram", "counter", "latency", "allocation", "percentile", "baseline", "regression", "throughput", "kernel",
        "instruction", "cycle", "branch", "cache", "thread", "span", "service", "request", "response", "parser", "token",
        "index", "document", "paragraph", "sentence", "frequency", "bucket", "worker", "queue", "producer", "consumer",
    ];

    /// <summary>
    /// Makes <paramref name="count"/> documents from <paramref name="seed"/>: 3 to 6 paragraphs of 3 to 6 sentences of 6 to
    /// 18 words, about 240 words (1.6 KB) per document.
    /// </summary>
    public static string[] Create(int seed, int count)
    {
        var random = new Random(seed);
        var documents = new string[count];
        var text = new StringBuilder();
        for (int d = 0; d < count; d++)
        {
            text.Clear();
            int paragraphs = random.Next(3, 7);
            for (int p = 0; p < paragraphs; p++)
            {
                int sentences = random.Next(3, 7);
                for (int s = 0; s < sentences; s++)
                {
                    int words = random.Next(6, 19);
                    for (int w = 0; w < words; w++)
                    {
                        // Squaring a uniform draw favours the first (frequent) words, as natural text does.
                        double u = random.NextDouble();
                        string word = s_vocabulary[(int)(u * u * s_vocabulary.Length)];
                        if (w == 0)
                            text.Append(char.ToUpperInvariant(word[0])).Append(word, 1, word.Length - 1);
                        else
                            text.Append(word);
                        text.Append(w == words - 1 ? ". " : random.Next(8) == 0 ? ", " : " ");
                    }
                }

                text.Append("\n\n");
            }

            documents[d] = text.ToString();
        }

        return documents;
    }
}
