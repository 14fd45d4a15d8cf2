namespace Picollo.Cli.Ab;

/// <summary>What <c>picollo ab</c> concluded about a test or one of its measurements, worst first.</summary>
internal enum AbVerdict
{
    /// <summary>The head's test failed (its budgets or its own assertions, or it threw).</summary>
    Failed,

    /// <summary>Slower (time), or more of an exact counter.</summary>
    Regressed,

    /// <summary>The pairs could not run or measured nothing on a side: not judged, and why.</summary>
    NotJudged,

    /// <summary>After the most pairs, the interval still holds both no change and a change beyond the threshold.</summary>
    Inconclusive,

    /// <summary>Faster, or less of an exact counter.</summary>
    Improved,

    /// <summary>The interval lies inside ±threshold, and exact counters are equal.</summary>
    Unchanged,

    /// <summary>
    /// A test that compares two bodies inside its own build (<c>Against</c>, <c>Perf.Compare</c>): its relative claims held on
    /// the head; the tool does not pair it across builds.
    /// </summary>
    Relative,

    /// <summary>A test only the head has.</summary>
    New,

    /// <summary>A test only the base has.</summary>
    Removed,
}
