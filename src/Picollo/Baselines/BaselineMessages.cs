using System.Globalization;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Rules;
using Picollo.Measurement;
using Picollo.Measurement.Conditions;
using Picollo.Text;

namespace Picollo.Baselines;

/// <summary>
/// The notices of a judgement against a stored baseline and of a recording: why a measurement was not judged,
/// measured again or not failed, how a baseline was recorded (a steady moment, the machine's fast level, the levels of
/// several processes) and what it cannot see, and what extending an entry did. <see cref="BaselineJudge"/>,
/// <see cref="SteadyRecording"/> and <see cref="TimeSpread"/> decide; this class words it. Each kind is shown in
/// <c>Approved/BaselineMessages.approved.md</c>.
/// </summary>
// Longer than 400 lines: a catalogue, one method per kind of notice and each shown in BaselineMessages.approved.md; the
// kinds change for one reason, their wording, and are reviewed together as one golden file.
internal static class BaselineMessages
{
    /// <summary><c>PICOLLO_RECORDING_SPACING</c> holds no number of seconds from 0 to 60: the default spacing was used.</summary>
    /// <param name="value">The variable's value.</param>
    /// <param name="used">The spacing used instead.</param>
    public static string InvalidRecordingSpacing(string value, TimeSpan used) => string.Create(CultureInfo.InvariantCulture,
        $"{BaselineStoreOptions.RecordingSpacingVariable}=\"{value}\" is not a number of seconds from 0 to 60 (e.g. 1 or 2.5): the fresh "
        + $"processes were started {used.TotalSeconds:0.###} s apart, the default. Fix or unset the variable.");

    /// <summary>A recording whose simulated counts differed between its two processes, which therefore writes nothing.</summary>
    public static string SimulatedCountsDiffer(IEnumerable<string> counters) =>
        "Nothing recorded: the simulated counts differed between two processes (" + string.Join("; ", counters) + "), so a baseline "
        + "of them would fail unchanged code. The body's work depends on its process: seed its random input (new Random(42)), "
        + "do not hash strings with string.GetHashCode, read no clock; then record again.";

    /// <summary>One simulated counter that differed between a recording's two processes.</summary>
    public static string SimulatedCountDiffered(string counter, double first, double second, double tolerance) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"{counter} P50 {CounterVerdict.Number(first)} and {CounterVerdict.Number(second)} per operation, ")
        + string.Create(CultureInfo.InvariantCulture, $"beyond ±{tolerance * 100:0.0##}%");

    /// <summary>The notice of a baseline updated with this run's entries (the host's, and the simulated machine's).</summary>
    public static string BaselineUpdated(string path, IReadOnlyList<string> entries) =>
        $"Baseline updated: {path} ({(entries.Count == 1 ? "entry" : "entries")} of {string.Join(" and ", entries)}).";

    /// <summary>A recording whose second simulation worker failed, which therefore writes nothing.</summary>
    public static string SimulatedRepeatFailed(string failure) =>
        "Nothing recorded: counting the simulated counters again in a second process, to check that they repeat, failed: "
        + Sentences.Ended(failure);

    /// <summary>What the recording's second process showed when its simulated counts agreed.</summary>
    public static string SimulatedCountsRepeated(int counters) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"Simulated counters counted again in a second process: all {counters} repeated within their tolerance.");

    /// <summary>The notice of a judgement in a simulation worker, which leaves judging to the test's own process.</summary>
    public static string SimulationWorker() =>
        "Not judged here: this process is a simulation worker; the test's own process judges the counts it wrote.";

    /// <summary>A picollo ab worker's measurement: the tool judges it, the stored baseline is neither read nor written.</summary>
    public static string PairedWorker() =>
        "Not compared with the stored baseline: picollo ab judges this measurement against the other build's, measured beside it.";

    /// <summary>The first measurement's warmup never saw the body's final code, so it was measured again before judging.</summary>
    /// <param name="notes">The first run's notes (what was not final).</param>
    /// <param name="thisOneDid">Whether the second measurement ran the final code.</param>
    public static string MeasuredAgainForFinalCode(string notes, bool thisOneDid) =>
        "Measured again before judging: the first measurement did not run the body's final code ("
        + notes + ")" + (thisOneDid ? "; this one did." : "; neither did this one.");

    /// <summary>
    /// An entry (the baseline's or a received one) was written from a measurement whose code may not have been final: its
    /// statistical counters (time, cycles, misses) were not taken from it; this machine's earlier ones were kept, if any.
    /// </summary>
    /// <param name="entry">Which entry: "The baseline entry" or "The received entry".</param>
    /// <param name="notes">The run's notes (what was not final).</param>
    /// <param name="leftOut">The counters not taken from the measurement, e.g. <c>tsc, task-clock</c>; with
    /// <paramref name="earlier"/>, the earlier ones kept instead.</param>
    /// <param name="exact">The exact counters written from it, e.g. <c>allocated-bytes</c>; empty when none.</param>
    /// <param name="earlier">When this machine's earlier statistical counters, kept instead, were recorded; <see langword="null"/>
    /// when the entry had none.</param>
    public static string RecordedFromCodeNotFinal(string entry, string notes, string leftOut, string exact, string? earlier) =>
        (earlier is null ? $"{entry} holds no {leftOut}" : $"{entry} keeps this machine's earlier {leftOut} (recorded {earlier})")
        + $": no measurement of the recording ran the body's final code ({notes.TrimEnd('.')}), and time measured on code that "
        + "is not yet final reads up to several times slower, so a baseline of it would pass a regression that large. "
        + (exact.Length > 0 ? $"Its exact counters ({exact}) are this measurement's. " : string.Empty)
        + (earlier is null
            ? "Until it is recorded again, verdicts on the others have no baseline from this machine. "
            : "Verdicts on the others compare with the earlier recording until it is recorded again. ")
        + "To record them, run the perf tests alone (dotnet test --filter Category=Performance) or give the test a longer "
        + $"TimeBudget, with {BaselineStoreOptions.UpdateVariable}=1.";

    /// <summary>An entry of exact counters only was written from a measurement whose code may not have been final.</summary>
    /// <param name="entry">Which entry: "The baseline entry" or "The received entry".</param>
    /// <param name="notes">The run's notes (what was not final).</param>
    /// <param name="exact">The exact counters written, e.g. <c>allocated-bytes</c>.</param>
    public static string RecordedExactFromCodeNotFinal(string entry, string notes, string exact) =>
        $"{entry} ({exact}) was recorded from a measurement whose code was not final ({notes.TrimEnd('.')}): code the JIT "
        + "was about to replace can allocate what final code keeps on the stack, so it may read high and hide a regression "
        + "that small. Record it again with the perf tests alone (dotnet test --filter Category=Performance) or with a "
        + $"longer TimeBudget ({BaselineStoreOptions.UpdateVariable}=1).";

    /// <summary><c>PICOLLO_UPDATE_BASELINES=add</c> left the entry as it was: the measurement's code was not final.</summary>
    /// <param name="notes">The run's notes (what was not final).</param>
    public static string NotAddedFromCodeNotFinal(string notes) =>
        $"Not added to the baseline's levels: the measurement did not run the body's final code ({notes.TrimEnd('.')}), so "
        + $"its time is no level of the body; the entry is unchanged. Run the perf tests alone to add one "
        + $"({BaselineStoreOptions.UpdateVariable}=add dotnet test --filter Category=Performance).";

    /// <summary>Time was judged with an allowance for conditions other than the recording's (a busy or slower machine).</summary>
    /// <param name="measurements">How many measurements looked for the recording's conditions (1 when none was repeated).</param>
    /// <param name="verdict">The widened verdict's line.</param>
    public static string JudgedWithConditionsAllowance(int measurements, string verdict)
    {
        string taken = measurements > 1 ? string.Create(CultureInfo.InvariantCulture, $" in {measurements} measurements") : string.Empty;
        return $"Time judged with an allowance for the conditions{taken}: {verdict}. Run perf tests alone "
            + "(dotnet test --filter Category=Performance) for finer verdicts; if a machine-speed allowance persists on a quiet "
            + "machine, the baseline was recorded at another speed of the host: record it again "
            + $"({BaselineStoreOptions.UpdateVariable}=1).";
    }

    /// <summary>A recording whose references ran slow was measured again until one ran at the machine's fast level.</summary>
    /// <param name="slower">How much slower the first recording's references ran than the fastest remembered (1.3 = 30 %).</param>
    /// <param name="measurement">The measurement that ran at the fast level (2 for the first one taken again).</param>
    public static string RecordedAtFastLevel(double slower, int measurement) => string.Create(CultureInfo.InvariantCulture,
        $"Recorded at the machine's fast level: the first recording's references ran {(slower - 1) * 100:0}% slower than "
        + $"this machine's fastest remembered, measurement {measurement} did not.");

    /// <summary>
    /// A recording slower than the machine's fast level on the branchy reference alone kept that slower state: measured at the
    /// fast level, the body ran no faster there (it does not follow the host's branchy state).
    /// </summary>
    /// <param name="slower">The branchy reference of the recording, ns per 1,000 characters.</param>
    /// <param name="fast">The branchy reference at the fast level.</param>
    /// <param name="slope">How far the body's time followed the reference between them (0: not at all).</param>
    /// <param name="measurement">The measurement that reached the fast level.</param>
    /// <returns>The sentence.</returns>
    public static string RecordedInSlowerBranchyState(double? slower, double? fast, double slope, int measurement) =>
        string.Create(CultureInfo.InvariantCulture,
            $"Recorded in the host's slower branchy state (the branchy reference at {slower:0} ns): measurement {measurement} "
            + $"found the machine's fast level ({fast:0} ns) and this body's time followed the reference at a slope of "
            + $"{slope:0.00} there, so later runs in the slower state are judged with no allowance for it.");

    /// <summary>
    /// No measurement of a recording reached the machine's fast level, and only the branchy reference was slower than it:
    /// the baseline was recorded in the host's slower branchy state.
    /// </summary>
    /// <param name="slower">How much slower the branchy reference ran than the fastest remembered (1.5 = 50 %).</param>
    /// <param name="measurements">The measurements taken, 1.5 s apart.</param>
    /// <returns>The sentence.</returns>
    public static string RecordedInSlowBranchyStateOnly(double slower, int measurements) => string.Create(CultureInfo.InvariantCulture,
        $"Recorded while the host ran branchy code {(slower - 1) * 100:0}% slower than its fastest remembered level (the "
        + $"branchy reference, in {measurements} measurements 1.5 s apart; the core loop and the allocation reference at their "
        + $"fast level): later runs in this state are judged as recorded. In the faster state a body that follows the reference "
        + $"reads faster, and a regression up to that size can hide there (the verdict line says how much); a body that does "
        + $"not follow it loses nothing. Record it again when the branchy reference is fast: the recording then compares the "
        + $"two states and keeps the one that serves this body.");

    /// <summary>No measurement of a recording reached the machine's fast level: the baseline was recorded at a slow one.</summary>
    /// <param name="slower">How much slower the references ran than the fastest remembered (1.3 = 30 %).</param>
    /// <param name="measurements">The measurements taken, 1.5 s apart.</param>
    /// <param name="otherCores">
    /// The most cores other processes used during any of them (<see cref="double.NaN"/> when unknown): on a quiet machine the
    /// slow level is the host's own state, which waiting for quiet does not end, so the advice differs.
    /// </param>
    public static string RecordedAtSlowLevel(double slower, int measurements, double otherCores)
    {
        string head = string.Create(CultureInfo.InvariantCulture,
            $"Recorded while the machine's references ran {(slower - 1) * 100:0}% slower than its fastest remembered level "
            + $"(in {measurements} measurements 1.5 s apart): verdicts scale an allocating body's time by the allocation "
            + $"reference and allow for the machine speed, but they see finer against a baseline recorded at the fast level; ");
        return double.IsNaN(otherCores) || MachineLoad.IsBusy(otherCores)
            ? head + "record it again when the machine is quieter."
            : head + string.Create(CultureInfo.InvariantCulture,
                $"other processes used at most {otherCores:0.00} cores, so the host itself ran "
                + $"slower (a shared VM's speed changes over minutes): record it again later to get the fast level.");
    }

    /// <summary>Some processes of a recording could not measure: the first failure says why.</summary>
    /// <param name="recorded">The processes recorded.</param>
    /// <param name="processes">The processes started, this one included.</param>
    /// <param name="failure">The first failure.</param>
    public static string RecordedInFewerProcesses(int recorded, int processes, string failure) =>
        $"Recorded in {recorded} of {processes} processes: {failure}";

    /// <summary>Only this process's level could join the spread, even after more fresh processes were started.</summary>
    /// <param name="processes">The processes measured, this one included.</param>
    public static string RecordedWithNoSpread(int processes) => string.Create(CultureInfo.InvariantCulture,
        $"Recorded with no spread: only this process's level could join in {processes} processes (the others measured in "
        + $"another state of the host; see the recording line). Record again when the machine is quieter, or extend the "
        + $"entry later with PICOLLO_UPDATE_BASELINES=add.");

    /// <summary>Without an adapter that starts fresh processes, the levels were measured in this process, spaced out.</summary>
    /// <param name="measurements">The measurements taken besides the recording.</param>
    /// <param name="spacingSeconds">The time between them, in seconds.</param>
    public static string MeasuredLevelsInThisProcess(int measurements, double spacingSeconds) => string.Create(CultureInfo.InvariantCulture,
        $"Measured {measurements} more times in this process, {spacingSeconds:0.#} s apart, for the levels of the body's time "
        + $"(a test adapter would start fresh processes).");

    /// <summary>A recording across fresh processes: the levels that joined, each time counter's spread, the processes left out.</summary>
    /// <param name="processes">The processes measured, this one included.</param>
    /// <param name="joined">The processes whose levels joined the spread.</param>
    /// <param name="measurementsPerProcess">The measurements each fresh process took.</param>
    /// <param name="spreads">Each time counter's spread, e.g. <c>tsc levels spread 1.37×</c>.</param>
    /// <param name="excluded">One sentence per process left out, with why.</param>
    public static string RecordedAcrossProcesses(
        int processes, int joined, int measurementsPerProcess, string spreads, IReadOnlyList<string> excluded)
    {
        ArgumentNullException.ThrowIfNull(excluded);
        string left = excluded.Count == 0 ? string.Empty : " Left out: " + string.Join("; ", excluded) + ".";
        // The count the baseline file stores is of the levels that joined: a user reading "processes": 3 after "across 4"
        // would suspect a lost process.
        string across = joined == processes ? $"{processes}" : $"{joined} of {processes}";
        return string.Create(CultureInfo.InvariantCulture,
            $"Recorded across {across} processes (this one and {processes - 1} fresh, {measurementsPerProcess} measurements each): "
            + $"{spreads}; the fastest level is the baseline.{left}");
    }

    /// <summary>A time counter's recorded levels spread wider than its threshold: smaller regressions pass on this machine.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="spread">The slowest recorded level over the fastest.</param>
    /// <param name="processes">The processes the levels were recorded in.</param>
    /// <param name="detectable">The smallest change a verdict detects (0.4 = +40 %).</param>
    public static string WideSpread(string counter, double spread, int processes, double detectable) => string.Create(
        CultureInfo.InvariantCulture,
        $"{counter}: its floor ran at levels up to {spread:0.##}× apart in {processes} process{(processes == 1 ? string.Empty : "es")} "
        + $"of this machine, so time on this machine detects ≥ +{detectable * 100:0}%: a smaller regression passes unless it "
        + $"shows beyond the slowest level. For finer time verdicts, run `picollo ab` (the change against its base, in "
        + $"pairs on one machine) or a relative claim (`Against`, `Perf.Compare`); guard the body with an exact counter as "
        + $"well (allocated-bytes, a zero budget).");

    /// <summary>A regression was measured a second time: what each measurement showed.</summary>
    /// <param name="before">The first measurement's regressed verdicts.</param>
    /// <param name="confirmed">Whether the second confirmed it (on code that was final in one of them).</param>
    /// <param name="regressedAgain">Whether the second regressed on the same counters.</param>
    /// <param name="again">The second measurement's verdicts of those counters.</param>
    public static string MeasuredTwice(string before, bool confirmed, bool regressedAgain, string again)
    {
        string outcome = confirmed ? "confirmed it" : regressedAgain ? "regressed too, on code that was not final either" : "did not";
        return $"Measured twice: the first measurement regressed ({before}); the second, reported here, {outcome} ({again}).";
    }

    /// <summary>A regression a second measurement confirmed: the verdicts that fail.</summary>
    /// <param name="verdicts">The confirmed verdicts' lines, joined.</param>
    public static string ConfirmedBySecondMeasurement(string verdicts) => "Confirmed by a second measurement: " + verdicts + ".";

    /// <summary>A regression measured twice on code that was not final in either measurement: reported, not failed.</summary>
    /// <param name="before">The first measurement's regressed verdicts.</param>
    /// <param name="again">The second's.</param>
    /// <param name="notes">The second run's notes (why its code was not final).</param>
    public static string NotFailingOnCodeNotFinal(string before, string again, string notes) =>
        $"Not failing on a regression measured on code that was not final in either measurement ({before}; then {again}): "
        + $"{notes} Run the test alone, or give it a longer TimeBudget, to judge it.";

    /// <summary>A regression a second measurement did not confirm.</summary>
    /// <param name="before">The first measurement's regressed verdicts.</param>
    /// <param name="again">The second's.</param>
    public static string NotFailingOnUnconfirmed(string before, string again) =>
        $"Not failing on an unconfirmed regression: the first measurement regressed ({before}), a second one did not ({again}).";

    /// <summary>A fresh process started to confirm a time regression could not measure it: the measurements so far decide.</summary>
    /// <param name="failure">Why it could not.</param>
    public static string FreshProcessCouldNotMeasure(string failure) =>
        $"A fresh process could not measure it to confirm: {Sentences.Unended(failure)}.";

    /// <summary>A fresh process asked to look past this process's branchy state could not measure.</summary>
    /// <param name="failure">Why.</param>
    public static string FreshProcessCouldNotLook(string failure) =>
        $"A fresh process could not measure it to look past this process's branchy state: {Sentences.Unended(failure)}.";

    /// <summary>
    /// A time verdict passed only on the branchy reference's bound; fresh processes judged it in their own conditions and did
    /// not fail it.
    /// </summary>
    /// <param name="freshProcesses">The fresh processes that measured.</param>
    /// <param name="cleared">Whether one passed it without a branchy bound (otherwise none did, and fewer than two regressed).</param>
    /// <param name="measured">Their verdicts, process by process.</param>
    public static string LookedPastBranchyState(int freshProcesses, bool cleared, string measured)
    {
        string outcome = cleared
            ? (freshProcesses == 1 ? "which passed it without that bound" : "one of which passed it without that bound")
            : "which did not settle it: none passed it without that bound, and fewer than two regressed";
        return $"Time passed here only on the host's slow branchy state (the branchy reference's bound), which a process draws at "
            + $"its start: measured in {FreshProcesses(freshProcesses)}, {outcome} ({measured}).";
    }

    /// <summary>
    /// A time verdict passed only on the branchy reference's bound, and fresh processes, judged in their own conditions,
    /// regressed: the confirmation a failure shows.
    /// </summary>
    /// <param name="passedHere">This process's verdicts, which passed within the branchy bound.</param>
    /// <param name="freshProcesses">The fresh processes that measured.</param>
    /// <param name="regressed">Those that regressed; the others needed the branchy bound too and could not tell.</param>
    /// <param name="measured">Their verdicts, process by process.</param>
    public static string RegressedPastBranchyState(string passedHere, int freshProcesses, int regressed, string measured)
    {
        string who = regressed == freshProcesses
            ? $"{FreshProcesses(freshProcesses)} regressed beyond the recording"
            : string.Create(CultureInfo.InvariantCulture, $"{regressed} of {freshProcesses} fresh processes regressed beyond the recording")
                + ", the others did not";
        return $"Regressed in fresh processes: this process passed only on the host's slow branchy state ({passedHere}); judged in "
            + $"their own conditions, {who} ({measured}).";
    }

    /// <summary>Fresh processes measured a time regression confirmed in this process: how many confirmed it, as a sentence.</summary>
    /// <param name="measured">The fresh processes that measured.</param>
    /// <param name="confirming">Those that regressed too.</param>
    /// <param name="gross">Whether the regression lay twice beyond its band, so one fresh process was enough.</param>
    /// <returns>The sentence without its final period (it is followed by the measurements or ends a confirmation).</returns>
    public static string ConfirmedByFreshProcesses(int measured, int confirming, bool gross)
    {
        string who = confirming == measured
            ? (measured == 1
                ? (gross ? "a fresh process confirmed it too (twice beyond its band, one is enough)" : "a fresh process confirmed it too")
                : string.Create(CultureInfo.InvariantCulture, $"{measured} fresh processes confirmed it too"))
            : confirming == 0
                ? string.Create(CultureInfo.InvariantCulture,
                    $"the fresh processes ({measured}) measured in conditions that allowed more and could not tell, so the two "
                    + $"measurements of this process decide")
                : string.Create(CultureInfo.InvariantCulture,
                    $"{confirming} of {measured} fresh processes confirmed it too, the others measured in conditions that allowed "
                    + $"more and could not tell");
        return char.ToUpperInvariant(who[0]) + who[1..];
    }

    /// <summary>A time regression confirmed twice in this process that a fresh process did not show: not failed.</summary>
    /// <param name="counters">The counters no longer failing.</param>
    /// <param name="freshProcesses">The fresh processes measured; the last one did not regress.</param>
    /// <param name="measured">Their verdicts, joined with "; then ".</param>
    public static string NotFailingAfterFreshProcess(IReadOnlyList<string> counters, int freshProcesses, string measured) =>
        $"Not failing on {string.Join(", ", counters)}: this process regressed twice, but {FreshProcess(freshProcesses)} did not "
        + $"({measured}): this process ran at a level the recording did not see. If it persists, extend the baseline's levels "
        + $"from unchanged code ({BaselineStoreOptions.UpdateVariable}=add).";

    /// <summary>What the fresh processes of a confirmation measured when one of them did not regress.</summary>
    /// <param name="freshProcesses">The fresh processes measured.</param>
    /// <param name="measured">Their verdicts, joined with "; then ".</param>
    public static string MeasuredInFreshProcesses(int freshProcesses, string measured) =>
        $"Measured in fresh processes to confirm: {FreshProcess(freshProcesses)} did not regress ({measured}).";

    /// <summary>A recording found two measurements that agree and kept the faster.</summary>
    /// <param name="measurements">The measurements taken.</param>
    /// <param name="agreed">The two that agreed, counter by counter.</param>
    public static string RecordedFromSteadyMoment(int measurements, string agreed) => string.Create(CultureInfo.InvariantCulture,
        $"Recorded from a steady moment: {measurements} measurements, the faster of the two that agreed ({agreed}).");

    /// <summary>No two measurements of a recording agreed: the faster of the closest two was kept.</summary>
    /// <param name="measurements">The measurements taken.</param>
    /// <param name="whyNoneAgreed">What kept them apart.</param>
    /// <param name="closest">The closest two, counter by counter.</param>
    /// <param name="busy">Whether either of the closest two ran beside busy processes.</param>
    public static string RecordedOnUnsteadyMachine(int measurements, string whyNoneAgreed, string closest, bool busy)
    {
        string beside = busy ? ", taken beside busy processes" : string.Empty;
        return string.Create(CultureInfo.InvariantCulture,
            $"Recorded on an unsteady machine: {measurements} measurements, no two that agree: {whyNoneAgreed}. "
            + $"The faster of the closest two was kept ({closest}{beside}).");
    }

    /// <summary>The notice of a recording on an unsteady machine: what it means for the verdicts against it.</summary>
    /// <param name="recorded">The recording's note (<see cref="RecordedOnUnsteadyMachine"/>).</param>
    public static string UnsteadyRecordingNotice(string recorded) =>
        recorded + " Verdicts against it count the drift it saw, so they see less: record it again when the machine is quieter "
        + "(nothing else running).";

    /// <summary>A baseline counter that cannot tell the policy's threshold from its own noise, with the fixes.</summary>
    /// <param name="counter">The counter.</param>
    /// <param name="statistic">The statistic judged.</param>
    /// <param name="detectable">The smallest change the baseline detects (0.12 = 12 %).</param>
    /// <param name="threshold">The change the policy judges (0.08 = 8 %).</param>
    public static string BlindBaseline(string counter, BaselineStatistic statistic, double detectable, double threshold) => string.Create(
        CultureInfo.InvariantCulture,
        $"{counter}: this baseline detects only changes of its {statistic} ≥ {detectable * 100:0.#}%, above the "
        + $"{threshold * 100:0.#}% the policy judges: its numbers are too noisy to see a regression of that size. Record it "
        + $"again on a quieter machine, give each measurement more samples or time (PerfOptions.Samples, TimeBudget), or raise "
        + $"the threshold (maxChange).");

    /// <summary>Why no two measurements of a recording agreed: some ran beside busy processes.</summary>
    /// <param name="busy">The measurements taken beside busy processes.</param>
    /// <param name="measurements">All measurements of the recording.</param>
    /// <param name="fewestCores">The least other processes used while one of them measured, in cores.</param>
    /// <param name="mostCores">The most, in cores.</param>
    /// <param name="processorCount">The machine's cores.</param>
    public static string BusyMeasurementsAgreeWithNone(int busy, int measurements, double fewestCores, double mostCores, int processorCount)
    {
        string cores = busy == 1 ? Cores(fewestCores) : $"{Cores(fewestCores)} to {Cores(mostCores)}";
        string which = busy == measurements ? $"all {measurements}" : $"{busy} of them";
        return $"{which} ran while other processes kept the machine busy ({cores} of {processorCount} cores besides this test), "
            + "and such a measurement agrees with none: the other work slows its time";
    }

    /// <summary>Why no two measurements of a recording agreed: some did not run the body's final code.</summary>
    /// <param name="notFinal">The measurements whose code was not final.</param>
    /// <param name="measurements">All the recording's measurements.</param>
    public static string NotFinalMeasurementsAgreeWithNone(int notFinal, int measurements) =>
        (notFinal == measurements ? $"none of the {measurements} ran" : $"{notFinal} of them did not run")
        + " the body's final code, and such a measurement agrees with none: code that is not yet final runs slower";

    /// <summary>Why no two measurements of a recording agreed: the closest two quiet ones differ by more than verdicts allow.</summary>
    /// <param name="quiet">The measurements taken on a quiet machine.</param>
    /// <param name="anyBusy">Whether others were taken beside busy processes.</param>
    /// <param name="percent">How far apart the two are on the counter, in percent.</param>
    /// <param name="counter">The counter furthest apart.</param>
    /// <param name="statistic">Its statistic.</param>
    /// <param name="a">One value.</param>
    /// <param name="b">The other.</param>
    /// <param name="allowed">What verdicts allow, in percent.</param>
    public static string ClosestTwoDiffer(
        int quiet, bool anyBusy, double percent, string counter, BaselineStatistic statistic, double a, double b, double allowed)
    {
        string those = anyBusy ? $"the closest two of the {quiet} quiet ones" : "the closest two";
        return string.Create(
            CultureInfo.InvariantCulture,
            $"{those} differ by {percent:0.#}% on {counter} {statistic} ({CounterVerdict.Number(a)} and {CounterVerdict.Number(b)}), "
            + $"more than the {allowed:0.#}% the verdicts allow");
    }

    /// <summary><c>PICOLLO_UPDATE_BASELINES=add</c> replaced the entry: an exact counter changed, so the code did.</summary>
    /// <param name="verdicts">The exact counters' verdicts, joined.</param>
    public static string ReplacedNotExtended(string verdicts) =>
        $"replaced, not extended: {verdicts}; an exact counter changed, so the code did and the recorded levels no longer apply";

    /// <summary><c>PICOLLO_UPDATE_BASELINES=add</c> left the entry: the measurement measured other counters.</summary>
    /// <param name="measured">The counters measured, joined.</param>
    /// <param name="held">The counters the entry holds, joined.</param>
    public static string NotExtendedOtherCounters(string measured, string held) =>
        $"not extended: it measured {measured}, the entry holds {held}; its levels need the same counters (record it again "
        + $"with {BaselineStoreOptions.UpdateVariable}=1 to start over)";

    /// <summary><c>PICOLLO_UPDATE_BASELINES=add</c> left the entry: the measurement's level could not join.</summary>
    /// <param name="reason">Why it could not join (a <see cref="LevelRanOtherCode"/>-like reason).</param>
    public static string NotExtendedOtherConditions(string reason) =>
        $"not extended: {reason}; a level is added only from a run in the recording's conditions";

    /// <summary><c>PICOLLO_UPDATE_BASELINES=add</c> extended the entry by the measurement's level.</summary>
    /// <param name="spreads">Each time counter's spread now, e.g. <c>tsc 1.37×</c>.</param>
    /// <param name="withinLevels">Whether the spreads are unchanged (the level lay within the recorded ones).</param>
    public static string Extended(string spreads, bool withinLevels) => withinLevels
        ? $"extended by one process, its time within the recorded levels (spread {spreads})"
        : $"extended by one process: spread {spreads}";

    /// <summary>A process's level left out of a recording: an exact counter differs from the first process's.</summary>
    /// <param name="counter">The exact counter.</param>
    /// <param name="first">Its value in the first process, per operation.</param>
    /// <param name="level">Its value in the level's process.</param>
    /// <param name="unit">Its unit.</param>
    public static string LevelRanOtherCode(string counter, double first, double level, string unit) => string.Create(
        CultureInfo.InvariantCulture,
        $"its {counter} differ ({CounterVerdict.Number(first)} → {CounterVerdict.Number(level)} {unit}/op), "
        + $"so it did not run the same code");

    /// <summary>A process's level left out of a recording: other processes kept the machine busy while it measured.</summary>
    /// <param name="otherCores">Other processes' load, in cores.</param>
    /// <param name="processorCount">The machine's cores.</param>
    public static string LevelBesideBusyProcesses(double otherCores, int processorCount) => string.Create(CultureInfo.InvariantCulture,
        $"other processes used {otherCores:0.00} of {processorCount} cores while it measured");

    /// <summary>A process's level left out of a recording: the host ran branchy code in its slow state.</summary>
    /// <param name="fast">The branchy reference in the recording's fast state, ns per 1,000 characters.</param>
    /// <param name="level">The branchy reference in the level's process.</param>
    public static string LevelInSlowBranchyState(double? fast, double? level) => string.Create(CultureInfo.InvariantCulture,
        $"the host ran branchy code slower than in the recording's fast state (a reference word count {fast:0.#} → {level:0.#} "
        + $"ns per 1,000 characters)");

    /// <summary>A process's level left out of a recording: the machine ran at another speed (a body that allocates nothing).</summary>
    /// <param name="first">The reference loop in the first process, ns per 1,000 steps.</param>
    /// <param name="level">The reference loop in the level's process.</param>
    public static string LevelAtOtherMachineSpeed(double? first, double? level) => string.Create(CultureInfo.InvariantCulture,
        $"the machine ran at another speed (a reference loop {first:0.#} → {level:0.#} ns per 1,000 steps)");

    private static string FreshProcesses(int count) =>
        count == 1 ? "a fresh process" : string.Create(CultureInfo.InvariantCulture, $"{count} fresh processes");

    private static string FreshProcess(int count) =>
        count == 1 ? "a fresh process" : string.Create(CultureInfo.InvariantCulture, $"fresh process {count}");

    private static string Cores(double cores) => cores.ToString("0.00", CultureInfo.InvariantCulture);
}
