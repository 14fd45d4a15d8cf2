namespace Picollo.Tests.Metrics;

internal static class RandomValues
{
    // Log-uniform: every magnitude of [min, max] gets its share, instead of the top one getting almost all.
    public static ulong LogUniform(Random random, ulong min, ulong max)
    {
        double low = Math.Log2(min + 1.0);
        double high = Math.Log2(max + 1.0);
        double value = Math.Pow(2, low + (random.NextDouble() * (high - low))) - 1;
        return value >= max ? max : Math.Max(min, (ulong)value);
    }
}
