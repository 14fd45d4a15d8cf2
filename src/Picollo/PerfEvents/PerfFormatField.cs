using System.Globalization;

namespace Picollo.PerfEvents;

/// <summary>
/// Where one PMU format field (a file in <c>&lt;pmu&gt;/format/</c>, e.g. <c>umask</c> = <c>config:8-15</c>) lives in
/// perf_event_attr: which config word and which bits. A field may span several bit ranges (AMD's <c>event</c> is
/// <c>config:0-7,32-35</c>); the value's bits fill them in ascending bit order, as perf's pmu_format_value does.
/// </summary>
internal sealed class PerfFormatField
{
    private readonly (int Low, int High)[] _ranges;

    private PerfFormatField(string name, int word, (int Low, int High)[] ranges)
    {
        Name = name;
        Word = word;
        _ranges = ranges;
        Width = ranges.Sum(static r => r.High - r.Low + 1);
    }

    /// <summary>The field name (the format file name).</summary>
    internal string Name { get; }

    /// <summary>0 for <c>config</c>, 1 for <c>config1</c>, 2 for <c>config2</c>.</summary>
    internal int Word { get; }

    /// <summary>The number of value bits the field holds.</summary>
    internal int Width { get; }

    /// <summary>Parses the content of a format file.</summary>
    /// <param name="name">The field name.</param>
    /// <param name="text">The file content, e.g. <c>config:0-7</c>, <c>config1:0-63</c>, <c>config:23</c>.</param>
    /// <param name="field">The parsed field.</param>
    /// <returns><see langword="false"/> when the content is not a config bit layout this catalog understands.</returns>
    internal static bool TryParse(string name, string text, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out PerfFormatField? field)
    {
        field = null;
        int colon = text.IndexOf(':', StringComparison.Ordinal);
        if (colon < 0)
            return false;
        int word = text[..colon].Trim() switch
        {
            "config" => 0,
            "config1" => 1,
            "config2" => 2,
            _ => -1,
        };
        if (word < 0)
            return false;

        var ranges = new List<(int Low, int High)>();
        foreach (string part in text[(colon + 1)..].Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            int dash = part.IndexOf('-', StringComparison.Ordinal);
            string lowText = dash < 0 ? part : part[..dash];
            string highText = dash < 0 ? part : part[(dash + 1)..];
            if (!int.TryParse(lowText, NumberStyles.None, CultureInfo.InvariantCulture, out int low)
                || !int.TryParse(highText, NumberStyles.None, CultureInfo.InvariantCulture, out int high)
                || low > high || high > 63)
                return false;
            ranges.Add((low, high));
        }

        if (ranges.Count == 0)
            return false;
        ranges.Sort(static (a, b) => a.Low.CompareTo(b.Low));
        field = new PerfFormatField(name, word, [.. ranges]);
        return true;
    }

    /// <summary>Whether <paramref name="value"/> fits in <see cref="Width"/> bits.</summary>
    /// <param name="value">The term value.</param>
    /// <returns><see langword="true"/> when no bit would be lost.</returns>
    internal bool Fits(ulong value) => Width >= 64 || value >> Width == 0;

    /// <summary>The mask of this field's bits in its config word.</summary>
    internal ulong Mask
    {
        get
        {
            ulong mask = 0;
            foreach ((int low, int high) in _ranges)
                mask |= RangeMask(low, high);
            return mask;
        }
    }

    /// <summary>Scatters <paramref name="value"/>'s low bits into the field's ranges, lowest range first.</summary>
    /// <param name="value">The term value (must <see cref="Fits"/>).</param>
    /// <returns>The bits to OR into the config word (other bits zero).</returns>
    internal ulong Place(ulong value)
    {
        ulong placed = 0;
        int consumed = 0;
        foreach ((int low, int high) in _ranges)
        {
            int width = high - low + 1;
            // Equivalent to (value >> consumed) & ((1 << width) - 1), written so a 64-bit width does not overflow the shift.
            ulong chunk = consumed >= 64 ? 0 : (value >> consumed) & (width >= 64 ? ulong.MaxValue : (1UL << width) - 1);
            placed |= chunk << low;
            consumed += width;
        }

        return placed;
    }

    private static ulong RangeMask(int low, int high)
    {
        int width = high - low + 1;
        return (width >= 64 ? ulong.MaxValue : (1UL << width) - 1) << low;
    }
}
