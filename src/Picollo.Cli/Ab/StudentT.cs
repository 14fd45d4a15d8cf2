using Picollo.Baselines;
using Picollo.Baselines.Rules;

namespace Picollo.Cli.Ab;

/// <summary>Student's t quantiles, for the interval of a mean over a few process pairs.</summary>
internal static class StudentT
{
    /// <summary>
    /// The quantile <paramref name="p"/> of Student's t with <paramref name="df"/> degrees of freedom: exact for 1 and 2,
    /// the Cornish-Fisher expansion in 1/df from the normal quantile above (within 1 % from 3 on, closer with more).
    /// </summary>
    /// <param name="p">The probability, in (0, 1).</param>
    /// <param name="df">Degrees of freedom, 1 or more.</param>
    /// <returns>The quantile.</returns>
    public static double Quantile(double p, int df)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(df, 1);
        if (df == 1)
            return Math.Tan(Math.PI * (p - 0.5));
        if (df == 2)
            return (2 * p - 1) / Math.Sqrt(2 * p * (1 - p));

        double z = NormalQuantile.Of(p), z2 = z * z;
        double g1 = (z2 + 1) * z / 4;
        double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
        double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
        double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
        double v = df;
        return z + (g1 / v) + (g2 / (v * v)) + (g3 / (v * v * v)) + (g4 / (v * v * v * v));
    }
}
