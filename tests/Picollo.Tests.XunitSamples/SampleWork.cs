using System.Runtime.CompilerServices;

namespace Picollo.Tests.XunitSamples;

/// <summary>The work the sample perf tests measure, with a factor the acceptance tests turn to inject a regression.</summary>
public static class SampleWork
{
    /// <summary>Steps of the dependent chain per operation; the regression test triples it after recording a baseline.</summary>
    public static int ChainSteps { get; set; } = 200;

    /// <summary>A chain of dependent multiply-adds: time proportional to <paramref name="steps"/>, no allocation.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long Chain(int steps)
    {
        long x = steps;
        for (int i = 0; i < steps; i++)
            x = (x * 6364136223846793005L) + 1442695040888963407L;
        return x;
    }
}
