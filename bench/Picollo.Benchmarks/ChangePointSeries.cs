namespace Picollo.Benchmarks;

/// <summary>
/// Synthetic results histories for <c>bench changepoints</c>, with the noise this repository's benches measure for a
/// fresh process's time floor on this VM (bench/RESULTS.md, "Verdict quality" and "Levels"): each run's P10 off its level
/// by a normal error of 1-3 % (the spread drawn per series: the unchanged arms read −5 … +5 % over 50 runs), and now and
/// then a run in one of the host's slow states, 20-70 % slower (levels: +48 … +51 % in 3 of 10 processes; verdicts:
/// branchy states +26 … +68 %). A slow state starts at a run with probability 0.08 and carries to the next run with
/// probability 0.3 (runs hours apart rarely share one, but sometimes do): about one run in ten is slow, a few in pairs.
/// </summary>
internal static class ChangePointSeries
{
    public const double Level = 100;

    /// <summary>One series of <paramref name="length"/> runs, <paramref name="step"/> slower from <paramref name="at"/> on
    /// (0: stationary).</summary>
    public static double[] Make(Random random, int length, double step, int at)
    {
        double spread = 0.01 + (0.02 * random.NextDouble());
        double[] series = new double[length];
        bool slow = false;
        double slowdown = 0;
        for (int i = 0; i < length; i++)
        {
            bool wasSlow = slow;
            slow = random.NextDouble() < (wasSlow ? 0.3 : 0.08);
            if (slow && !wasSlow)
                slowdown = 0.2 + (0.5 * random.NextDouble());

            double level = i >= at ? Level * (1 + step) : Level;
            series[i] = level * (1 + (spread * Normal(random))) * (slow ? 1 + slowdown : 1);
        }

        return series;
    }

    // Box-Muller: one standard normal draw from two uniform ones.
    private static double Normal(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
