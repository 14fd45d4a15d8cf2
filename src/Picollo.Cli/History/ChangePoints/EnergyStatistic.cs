namespace Picollo.Cli.History.ChangePoints;

/// <summary>
/// The energy statistic of E-Divisive means (Matteson and James 2014, "A nonparametric approach for multiple change point
/// analysis of multivariate data", α = 1) over one window of a series: for a split τ of a segment [s, κ) into
/// X = [s, τ) and Y = [τ, κ),
/// Q = n·m/(n + m) · (2/(n·m) Σ|xᵢ − yⱼ| − Σ_(i&lt;k)|xᵢ − xₖ| / C(n, 2) − Σ_(j&lt;l)|yⱼ − yₗ| / C(m, 2)),
/// the between-distance against the within-distances, scaled so that longer segments weigh more. The best split of a
/// segment is the τ (with the κ that shows it best, κ ≤ the segment's end) of the largest Q.
/// </summary>
/// <remarks>
/// Every sum of distances over a block of rows × columns is read in O(1) from the window's two-dimensional prefix sums of
/// |zᵢ − zⱼ|, so a segment of w points is searched in O(w²) pairs (τ, κ) after O(w²) set-up.
/// </remarks>
internal sealed class EnergyStatistic
{
    private readonly int _start;
    private readonly int _length;

    // _prefix[(i * (_length + 1)) + j] = Σ |z_a − z_b| over a < i, b < j (window-relative indices).
    private readonly double[] _prefix;

    /// <summary>Sets up the prefix sums of the window [start, end) of <paramref name="series"/>.</summary>
    /// <param name="series">The whole series.</param>
    /// <param name="start">The window's first index.</param>
    /// <param name="end">The index after the window's last.</param>
    public EnergyStatistic(double[] series, int start, int end)
    {
        _start = start;
        _length = end - start;
        int stride = _length + 1;
        _prefix = new double[stride * stride];
        for (int i = 0; i < _length; i++)
        {
            double row = 0;
            for (int j = 0; j < _length; j++)
            {
                row += Math.Abs(series[start + i] - series[start + j]);
                _prefix[((i + 1) * stride) + j + 1] = _prefix[(i * stride) + j + 1] + row;
            }
        }
    }

    /// <summary>
    /// The best split of the segment [<paramref name="from"/>, <paramref name="to"/>) (series indices inside the window)
    /// with at least <paramref name="minSegment"/> points on either side; the earliest on a tie, so the search is the same on
    /// every run.
    /// </summary>
    /// <param name="from">The segment's first index.</param>
    /// <param name="to">The index after its last.</param>
    /// <param name="minSegment">The fewest points on either side, 2 or more.</param>
    /// <returns>The first index of the second part, or -1 when the segment is shorter than two minimum segments.</returns>
    public int BestSplit(int from, int to, int minSegment)
    {
        int s = from - _start, end = to - _start;
        int best = -1;
        double bestQ = double.NegativeInfinity;
        for (int tau = s + minSegment; tau <= end - minSegment; tau++)
        {
            for (int kappa = tau + minSegment; kappa <= end; kappa++)
            {
                double q = Q(s, tau, kappa);
                if (q > bestQ)
                {
                    bestQ = q;
                    best = tau;
                }
            }
        }

        return best < 0 ? -1 : best + _start;
    }

    private double Q(int s, int tau, int kappa)
    {
        double n = tau - s, m = kappa - tau;
        double between = Block(s, tau, tau, kappa);

        // A block of a segment with itself counts every pair twice (and the zero diagonal): half of it is the pairs' sum.
        double withinX = Block(s, tau, s, tau) / 2;
        double withinY = Block(tau, kappa, tau, kappa) / 2;
        double energy = (2 * between / (n * m)) - (withinX / (n * (n - 1) / 2)) - (withinY / (m * (m - 1) / 2));
        return n * m / (n + m) * energy;
    }

    // Σ |z_i − z_j| over rows [r0, r1) × columns [c0, c1), by inclusion-exclusion on the prefix sums.
    private double Block(int r0, int r1, int c0, int c1)
    {
        int stride = _length + 1;
        return _prefix[(r1 * stride) + c1] - _prefix[(r0 * stride) + c1] - _prefix[(r1 * stride) + c0] + _prefix[(r0 * stride) + c0];
    }
}
