using System.Runtime.InteropServices;
using System.Text;

namespace TextKit.ObservedService;

/// <summary>
/// One worker's indexing pipeline: tokenize a document, hash its tokens, count its terms into the worker's term-frequency
/// map, each stage under its span and the whole document under an outer one.
/// </summary>
internal sealed class Indexer(IndexerSpans spans)
{
    private readonly Dictionary<string, int> _termFrequencies = new(StringComparer.Ordinal);
    private ulong _checksum;

    /// <summary>Distinct terms seen so far.</summary>
    public int Terms => _termFrequencies.Count;

    /// <summary>A combination of every token hash: keeps the hashing from being optimized away, and is printed.</summary>
    public ulong Checksum => _checksum;

    /// <summary>Indexes one document.</summary>
    public void Index(string document)
    {
        using (spans.Document.Enter())
        {
            List<string> tokens;
            using (spans.Tokenize.Enter())
                tokens = Words.Tokenize(document);

            using (spans.Hash.Enter())
            {
                Span<byte> utf8 = stackalloc byte[256];
                foreach (string token in tokens)
                {
                    // Tokens are short words; a longer one is hashed on its first 64 characters (at most 192 UTF-8 bytes).
                    int length = Encoding.UTF8.GetBytes(token.AsSpan(0, Math.Min(token.Length, 64)), utf8);
                    _checksum = (_checksum * 31) ^ Fnv.Hash(utf8[..length]);
                }
            }

            using (spans.Index.Enter())
            {
                // The document's own term vector (what an index keeps per document to score it): a new dictionary per
                // document, so this stage allocates on every document, then merged into the worker's map.
                var vector = new Dictionary<string, int>(StringComparer.Ordinal);
                foreach (string token in tokens)
                    CollectionsMarshal.GetValueRefOrAddDefault(vector, token, out _)++;
                foreach ((string term, int count) in vector)
                    CollectionsMarshal.GetValueRefOrAddDefault(_termFrequencies, term, out _) += count;
            }
        }
    }
}
