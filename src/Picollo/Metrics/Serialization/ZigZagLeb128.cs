namespace Picollo.Metrics.Serialization;

/// <summary>
/// HdrHistogram's "ZigZag LEB128-64b9B" varint: a ZigZag-mapped 64-bit integer written 7 bits per byte,
/// least significant group first, each byte but the last flagged with 0x80 — except that a ninth byte
/// carries the last 8 bits whole, so any 64-bit value takes at most 9 bytes (standard LEB128 needs 10).
/// It is not protobuf's varint: only the first 8 bytes have a continuation bit.
/// </summary>
internal static class ZigZagLeb128
{
    /// <summary>The longest encoding: 8 bytes of 7 bits, then one of 8 bits.</summary>
    public const int MaxLength = 9;

    // Bytes that carry 7 bits and a continuation flag; the byte after them carries 8 bits.
    private const int SevenBitBytes = MaxLength - 1;

    /// <summary>Writes <paramref name="value"/> and returns the number of bytes written (1 to 9).</summary>
    public static int Write(long value, Span<byte> destination)
    {
        // ZigZag: 0, -1, 1, -2, 2 … become 0, 1, 2, 3, 4 …, so small magnitudes of either sign stay
        // short. (v << 1) ^ (v >> 63): the arithmetic shift spreads the sign bit over every bit.
        ulong zigzag = (ulong)((value << 1) ^ (value >> 63));
        for (int i = 0; i < SevenBitBytes; i++)
        {
            if (zigzag < 0x80)
            {
                destination[i] = (byte)zigzag;
                return i + 1;
            }

            destination[i] = (byte)(zigzag | 0x80);
            zigzag >>= 7;
        }

        // 8 × 7 = 56 bits are out; the remaining 8 fill the ninth byte, which needs no flag.
        destination[SevenBitBytes] = (byte)zigzag;
        return MaxLength;
    }

    /// <summary>Reads one value; <see langword="false"/> when <paramref name="source"/> ends inside it.</summary>
    public static bool TryRead(ReadOnlySpan<byte> source, out long value, out int bytesRead)
    {
        ulong zigzag = 0;
        bytesRead = 0;
        while (true)
        {
            if (bytesRead == source.Length)
            {
                value = 0;
                return false;
            }

            byte b = source[bytesRead];
            if (bytesRead == SevenBitBytes)
            {
                zigzag |= (ulong)b << (7 * SevenBitBytes);
                bytesRead++;
                break;
            }

            zigzag |= (ulong)(b & 0x7F) << (7 * bytesRead);
            bytesRead++;
            if ((b & 0x80) == 0)
                break;
        }

        // Inverse ZigZag: (z >>> 1) ^ -(z & 1) flips every bit back for odd (negative) codes.
        value = (long)(zigzag >> 1) ^ -(long)(zigzag & 1);
        return true;
    }
}
