namespace Picollo.Baselines.Judging;

/// <summary>What a baseline check means for the test.</summary>
internal enum BaselineOutcome
{
    /// <summary>Every counter passed.</summary>
    Pass,

    /// <summary>
    /// The test passes with a notice: missing baselines (locally or as configured in CI) or improvements; a received
    /// file was written.
    /// </summary>
    Notice,

    /// <summary>
    /// The test fails: a counter regressed, or a baseline is missing in CI with
    /// <see cref="MissingBaselinePolicy.Fail"/>.
    /// </summary>
    Fail,

    /// <summary>Update mode: the current machine's entry was merged into the baseline; the test passes.</summary>
    Updated,

    /// <summary>
    /// Not judged: the measurement ran unoptimized code (a Debug build, MinOpt), which is neither compared with a baseline
    /// nor recorded. The message says why and how to run optimized code; the test-framework adapters report the test as skipped.
    /// </summary>
    NotJudged,
}
