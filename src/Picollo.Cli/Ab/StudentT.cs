using Picollo.Baselines;
using Picollo.Baselines.Rules;

namespace Picollo.Cli.Ab;

/// <summary>
/// Student's t: quantiles, for the interval of a mean over a few process pairs (picollo ab), and two-sided p-values, for
/// the test between two segments of a results history (the change-point detector).
/// </summary>
internal static class StudentT
{
    // Lanczos' coefficients for g = 7 (LogGamma).
    private static readonly double[] s_lanczos =
    [
        0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
        12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
    ];

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

    /// <summary>
    /// The two-sided p-value of <paramref name="t"/> under Student's t with <paramref name="df"/> degrees of freedom:
    /// P(|T| ≥ |t|) = I_x(df/2, 1/2) with x = df / (df + t²), the regularized incomplete beta function.
    /// </summary>
    /// <param name="t">The statistic; its sign does not matter.</param>
    /// <param name="df">Degrees of freedom, 1 or more.</param>
    /// <returns>The probability, in [0, 1]; 1 for t = 0, 0 for an infinite t.</returns>
    public static double TwoSidedP(double t, int df)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(df, 1);
        if (double.IsNaN(t))
            throw new ArgumentOutOfRangeException(nameof(t), t, "A t statistic is a number.");
        if (double.IsInfinity(t))
            return 0;

        return IncompleteBeta(df / (df + (t * t)), df / 2.0, 0.5);
    }

    // I_x(a, b), the regularized incomplete beta function: the continued fraction of Numerical Recipes (§ 6.4), evaluated by
    // the modified Lentz method, on the side of x where it converges fast (x < (a + 1) / (a + b + 2)), else by symmetry
    // I_x(a, b) = 1 − I_(1−x)(b, a).
    private static double IncompleteBeta(double x, double a, double b)
    {
        if (x <= 0)
            return 0;
        if (x >= 1)
            return 1;

        double front = Math.Exp((a * Math.Log(x)) + (b * Math.Log(1 - x)) - LogBeta(a, b));
        return x < (a + 1) / (a + b + 2)
            ? front * BetaFraction(x, a, b) / a
            : 1 - (front * BetaFraction(1 - x, b, a) / b);
    }

    private static double BetaFraction(double x, double a, double b)
    {
        const double Tiny = 1e-300, Epsilon = 1e-15;
        double c = 1, d = 1 - ((a + b) * x / (a + 1));
        d = 1 / (Math.Abs(d) < Tiny ? Tiny : d);
        double h = d;
        for (int m = 1; m <= 300; m++)
        {
            // The even step d_2m = m(b − m)x / ((a + 2m − 1)(a + 2m)), then the odd one
            // d_2m+1 = −(a + m)(a + b + m)x / ((a + 2m)(a + 2m + 1)).
            double even = m * (b - m) * x / ((a + (2 * m) - 1) * (a + (2 * m)));
            d = 1 / NotTiny(1 + (even * d));
            c = NotTiny(1 + (even / c));
            h *= d * c;
            double odd = -(a + m) * (a + b + m) * x / ((a + (2 * m)) * (a + (2 * m) + 1));
            d = 1 / NotTiny(1 + (odd * d));
            c = NotTiny(1 + (odd / c));
            double step = d * c;
            h *= step;
            if (Math.Abs(step - 1) < Epsilon)
                break;
        }

        return h;

        static double NotTiny(double v) => Math.Abs(v) < Tiny ? Tiny : v;
    }

    // ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b), Γ by Lanczos' approximation (g = 7, nine coefficients: relative error
    // about 1e-15 for positive arguments).
    private static double LogBeta(double a, double b) => LogGamma(a) + LogGamma(b) - LogGamma(a + b);

    // For x ≥ 1/2, all the arguments above (df/2 and 1/2): no reflection formula needed.
    private static double LogGamma(double x)
    {
        x -= 1;
        double sum = s_lanczos[0];
        for (int i = 1; i < s_lanczos.Length; i++)
            sum += s_lanczos[i] / (x + i);
        double t = x + 7.5;
        return (0.5 * Math.Log(2 * Math.PI)) + ((x + 0.5) * Math.Log(t)) - t + Math.Log(sum);
    }
}
