namespace Picollo.Baselines.Judging;

/// <summary>Where a measurement of a judgement came from, and why it was asked for (docs/VERDICTS.md, "Confirmation").</summary>
internal enum EvidenceOrigin
{
    /// <summary>The test's own measurement.</summary>
    Test,

    /// <summary>This process again: the test's measurement never saw the body's final code.</summary>
    FinalCode,

    /// <summary>This process again, until two runs agree: what is written comes from a steady moment.</summary>
    SteadyRecording,

    /// <summary>This process again, spaced: the recording ran slower than the machine's fast level.</summary>
    FastLevel,

    /// <summary>This process again, spaced, in place of fresh processes no adapter can start: the host's levels over time.</summary>
    LevelInThisProcess,

    /// <summary>A fresh process's level for a recording.</summary>
    FreshLevel,

    /// <summary>Another process's simulated counts of the recording's body.</summary>
    SimulatedRepeat,

    /// <summary>This process again: the verdict was judged in other conditions than the recording's.</summary>
    OtherConditions,

    /// <summary>This process again: a regression that could be noise.</summary>
    Confirmation,

    /// <summary>A fresh process asked about a time regression confirmed in this process.</summary>
    FreshConfirmation,

    /// <summary>A fresh process asked about a time pass that rested on the host's branchy state.</summary>
    PastBranchyState,
}
