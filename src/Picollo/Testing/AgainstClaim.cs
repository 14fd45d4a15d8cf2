namespace Picollo.Testing;

/// <summary>
/// The claim of a perf test against a reference method (<c>Against</c>, <c>MinSpeedup</c>, <c>MaxSlowdown</c>,
/// <c>MinCohensD</c>): the last stage of <see cref="PerfTestSettings.Parse"/>, checking each value and the combinations that
/// cannot mean what they say.
/// </summary>
internal static class AgainstClaim
{
    /// <summary>
    /// Against, MinSpeedup, MaxSlowdown and MinCohensD: each value in range, then the combinations that cannot mean what they
    /// say (a claim without a reference, a baseline knob beside the claim that replaces the baseline). Against and MinSpeedup
    /// are the test's own; MaxSlowdown and MinCohensD may come from the assembly, and apply only to tests with Against.
    /// </summary>
    public static (string? Against, double? MinSpeedup, double? MaxSlowdown, double? MinCohensD) Parse(
        string attribute, IPerfTestDeclaration test, IPerfTestDeclaration? defaults)
    {
        string? against = null;
        if (test.Against is { } named)
        {
            against = named.Trim() is { Length: > 0 } trimmed
                ? trimmed
                : throw new PerfTestConfigurationException(PerfTestMessages.AgainstNamesNoMethod(attribute, named));
        }

        double? minSpeedup = null;
        if (test.MinSpeedup is { } speedup)
        {
            minSpeedup = speedup > 0 && double.IsFinite(speedup)
                ? speedup
                : throw new PerfTestConfigurationException(PerfTestMessages.MinSpeedupOutOfRange(attribute, speedup));
        }

        double? maxSlowdown = null;
        if (PerfTestSettings.Pick(attribute, test.MaxSlowdown, defaults?.MaxSlowdown) is ({ } slowdown, string slowdownSource))
        {
            maxSlowdown = slowdown >= 0 && double.IsFinite(slowdown)
                ? slowdown
                : throw PerfTestSettings.Invalid(
                    slowdownSource, nameof(IPerfTestDeclaration.MaxSlowdown), PerfTestSettings.Text(slowdown),
                    "the allowed slowdown is a finite fraction, 0 or more",
                    "a fraction, e.g. 0.05 for at most 5 % slower than the reference");
        }

        double? minCohensD = null;
        if (PerfTestSettings.Pick(attribute, test.MinCohensD, defaults?.MinCohensD) is ({ } d, string dSource))
        {
            minCohensD = d > 0 && d <= 10
                ? d
                : throw PerfTestSettings.Invalid(
                    dSource, nameof(IPerfTestDeclaration.MinCohensD), PerfTestSettings.Text(d),
                    "Cohen's d_z gate lies in (0, 10]", "an effect size of the paired differences, e.g. 0.8 (large)");
        }

        if (against is null)
        {
            RefuseClaimsWithoutAgainst(attribute, test);
            return (null, null, null, null);
        }

        RefuseBaselineKnobsBesideAgainst(attribute, test, against, minSpeedup);
        return minSpeedup is null
            ? (against, null, maxSlowdown ?? PerfTestSettings.DefaultMaxSlowdown, null)
            : (against, minSpeedup, test.MaxSlowdown is null ? null : maxSlowdown, minCohensD);
    }

    // A relative claim without Against: a claim about the body against a reference the test does not name.
    private static void RefuseClaimsWithoutAgainst(string attribute, IPerfTestDeclaration test)
    {
        foreach ((string knob, double? value) in new[]
        {
            (nameof(IPerfTestDeclaration.MinSpeedup), test.MinSpeedup),
            (nameof(IPerfTestDeclaration.MaxSlowdown), test.MaxSlowdown),
            (nameof(IPerfTestDeclaration.MinCohensD), test.MinCohensD),
        })
        {
            if (value is { } v)
            {
                throw new PerfTestConfigurationException(PerfTestMessages.ClaimWithoutAgainst(attribute, knob, v));
            }
        }
    }

    // The knobs of the stored baseline beside Against, which replaces the baseline, and a d_z gate without the claim it gates.
    private static void RefuseBaselineKnobsBesideAgainst(string attribute, IPerfTestDeclaration test, string against, double? minSpeedup)
    {
        if (test.Baseline == true)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.BaselineBesideAgainst(attribute, against));
        }

        if (test.MaxChange is { } change)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.MaxChangeBesideAgainst(attribute, change, against));
        }

        if (test.MaxCohensD is { } gate)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.MaxCohensDBesideAgainst(attribute, gate, against));
        }

        if (minSpeedup is null && test.MinCohensD is { } alone)
        {
            throw new PerfTestConfigurationException(PerfTestMessages.MinCohensDWithoutMinSpeedup(attribute, alone));
        }
    }
}
