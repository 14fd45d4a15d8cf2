namespace TextKit;

/// <summary>FNV-1a, the 64-bit variant: a fast non-cryptographic hash for keys and buckets.</summary>
public static class Fnv
{
    private const ulong Offset = 14695981039346656037UL;
    private const ulong Prime = 1099511628211UL;

    /// <summary>The hash of <paramref name="data"/>.</summary>
    public static ulong Hash(ReadOnlySpan<byte> data)
    {
        ulong hash = Offset;
        foreach (byte b in data)
            hash = (hash ^ b) * Prime;
        return hash;
    }
}
