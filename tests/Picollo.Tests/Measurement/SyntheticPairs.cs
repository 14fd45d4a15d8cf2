namespace Picollo.Tests.Measurement;

/// <summary>
/// Paired samples shaped like the ones a 2-vCPU VM gives (docs/VERDICTS.md, "Paired comparisons"): a base level that
/// both sides of a pair share (slow host modes that last hundreds of samples), a little multiplicative jitter, and
/// additive disturbances that land in one sample and not its neighbour (host interrupts: +12 % or +20 %). The candidate
/// is the reference's work times <c>1 + shift</c>.
/// </summary>
internal sealed class SyntheticPairs
{
    /// <summary>The reference's clean cost per sample.</summary>
    public const double Base = 800_000;

    public SyntheticPairs(int pairs, double shift, int seed)
    {
        var random = new Random(seed);
        Reference = new ulong[pairs];
        Candidate = new ulong[pairs];
        double mode = 1;
        for (int k = 0; k < pairs; k++)
        {
            // A slow mode of the host starts or ends about every 300 pairs: both sides of a pair see it.
            if (random.NextDouble() < 1.0 / 300)
                mode = mode == 1 ? 1.25 : 1;
            Reference[k] = Sample(random, Base * mode);
            Candidate[k] = Sample(random, Base * mode * (1 + shift));
        }
    }

    public ulong[] Reference { get; }

    public ulong[] Candidate { get; }

    /// <summary>Also a heavy upper tail on both sides: 60 % of samples get 10 % to 200 % more, independently per side.</summary>
    public SyntheticPairs WithHeavyTails(int seed)
    {
        var random = new Random(seed);
        for (int k = 0; k < Reference.Length; k++)
        {
            if (random.NextDouble() < 0.6)
                Reference[k] += (ulong)(Base * (0.1 + (1.9 * random.NextDouble())));
            if (random.NextDouble() < 0.6)
                Candidate[k] += (ulong)(Base * (0.1 + (1.9 * random.NextDouble())));
        }

        return this;
    }

    /// <summary>Also bursts on the candidate's side only: every 100 pairs, 15 pairs in a row where it takes 3× as long.</summary>
    public SyntheticPairs WithCandidateBursts()
    {
        for (int k = 0; k < Candidate.Length; k++)
        {
            if (k % 100 < 15)
                Candidate[k] *= 3;
        }

        return this;
    }

    private static ulong Sample(Random random, double clean)
    {
        double value = clean * (1 + (0.005 * Gaussian(random)));
        double u = random.NextDouble();
        if (u < 0.3)
            value += clean * 0.12;
        else if (u < 0.4)
            value += clean * 0.20;
        return (ulong)value;
    }

    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
