namespace Picollo.Baselines.Rules;

/// <summary>Φ⁻¹, the quantile function of the standard normal distribution: turns a confidence into a z threshold.</summary>
/// <remarks>
/// Peter Acklam's rational approximation (relative error below 1.2·10⁻⁹ over (0, 1)): one rational function in the
/// central region, another in √(−2 ln p) in each tail. Far more precise than any threshold a user sets needs.
/// </remarks>
internal static class NormalQuantile
{
    private static readonly double[] s_a =
    [
        -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02, -3.066479806614716e+01,
        2.506628277459239e+00,
    ];
    private static readonly double[] s_b =
    [
        -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01,
    ];
    private static readonly double[] s_c =
    [
        -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00, 4.374664141464968e+00,
        2.938163982698783e+00,
    ];
    private static readonly double[] s_d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];

    /// <summary>The z with Φ(z) = <paramref name="p"/>.</summary>
    /// <param name="p">A probability in (0, 1).</param>
    /// <returns>The quantile, e.g. 1.6449 for 0.95.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="p"/> is not in (0, 1).</exception>
    public static double Of(double p)
    {
        if (!(p > 0 && p < 1))
            throw new ArgumentOutOfRangeException(nameof(p), p, "A probability lies in (0, 1).");

        const double Low = 0.02425;
        if (p < Low)
            return Tail(Math.Sqrt(-2 * Math.Log(p)));
        if (p > 1 - Low)
            return -Tail(Math.Sqrt(-2 * Math.Log(1 - p)));

        double q = p - 0.5, r = q * q;
        return (((((s_a[0] * r + s_a[1]) * r + s_a[2]) * r + s_a[3]) * r + s_a[4]) * r + s_a[5]) * q
            / (((((s_b[0] * r + s_b[1]) * r + s_b[2]) * r + s_b[3]) * r + s_b[4]) * r + 1);
    }

    private static double Tail(double q) =>
        (((((s_c[0] * q + s_c[1]) * q + s_c[2]) * q + s_c[3]) * q + s_c[4]) * q + s_c[5])
        / ((((s_d[0] * q + s_d[1]) * q + s_d[2]) * q + s_d[3]) * q + 1);
}
