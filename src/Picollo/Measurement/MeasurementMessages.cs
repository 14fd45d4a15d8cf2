using System.Globalization;
using System.Net.Sockets;
using Picollo.Text;

namespace Picollo.Measurement;

/// <summary>
/// The measurement engine's text in one place: the notes a run carries (how far its numbers can be trusted and
/// what to change), and the errors of the engine, its counters, its lock and the <c>picollo ab</c> worker's channel. Each
/// method is one kind of message, named for the situation, taking the facts it states; the golden file
/// <c>MeasurementMessages.approved.md</c> shows every kind.
/// </summary>
internal static class MeasurementMessages
{
    /// <summary>How a no-GC region note over the size limit starts: that note is a choice, not a caveat.</summary>
    internal const string NoGCRegionOverLimitStart = "No no-GC region: the samples should allocate about ";

    private const string MeasuredBody = "The measured body ";

    private const string FewerSamples = "or ask for fewer samples.";

    /// <summary>The error of a measurement started from inside a measured body.</summary>
    public static string NestedMeasurement() =>
        "Perf.Measure or Perf.Compare was called from inside a measured body: measurements cannot nest.";

    /// <summary>The first note of a run that waited for another process's measurement (the machine-wide lock).</summary>
    /// <param name="waited">How long it waited.</param>
    public static string WaitedForMachineLock(TimeSpan waited) => string.Create(CultureInfo.InvariantCulture,
        $"Waited {waited.TotalSeconds:0.0} s for another process's measurement to end (the machine-wide measurement lock).");

    /// <summary>The engine note of a Picollo.dll built without optimizations.</summary>
    /// <param name="build">How the build was made, e.g. <c>Debug configuration</c>.</param>
    public static string EngineBuiltUnoptimized(string build) =>
        $"Picollo.dll itself was built without optimizations ({build}): its sample loop and counter reads run unoptimized code, " +
        "so each sample boundary costs more than in a Release build (the overhead calibration still subtracts it). " +
        "Use a Release build of Picollo.";

    /// <summary>The first note of a run whose body the JIT compiled with MinOpts.</summary>
    /// <param name="body">The body as a user wrote it, e.g. <c>Parsing.Parse</c> or <c>(a lambda in Parsing.Run)</c>.</param>
    /// <param name="cause">Why the JIT did not optimize it, e.g. <c>under the attached debugger</c>.</param>
    /// <param name="remedy">What to do, a sentence.</param>
    public static string UnoptimizedCode(string body, string cause, string remedy) =>
        $"{MeasuredBody}{body} ran code the JIT compiled without optimizations (MinOpts) {cause}: " +
        $"its numbers are not what optimized code does. {remedy}";

    /// <summary>Why a body in an assembly built without optimizations is not measured (a skip) or not trusted (a note).</summary>
    /// <param name="subject">
    /// What the sentence names, e.g. <c>The perf test Parsing.Parse</c>; the body when <see langword="null"/>.
    /// </param>
    /// <param name="body">The body as a user wrote it.</param>
    /// <param name="module">The assembly's file, e.g. <c>Parsing.Tests.dll</c>.</param>
    /// <param name="build">How it was built, e.g. <c>Debug configuration</c>.</param>
    /// <param name="remedy">What to do, a sentence.</param>
    public static string UnoptimizedBuild(string? subject, string body, string module, string build, string remedy) =>
        $"{subject ?? MeasuredBody + body} is in {module}, built without optimizations ({build}): " +
        $"its numbers are not what Release code does. {remedy}";

    /// <summary>
    /// Why a body that runs code coverlet rewrote for code coverage is not measured (a skip) or not trusted (a note).
    /// </summary>
    /// <param name="subject">
    /// What the sentence names, e.g. <c>The perf test Parsing.Parse</c>; the body when <see langword="null"/>.
    /// </param>
    /// <param name="body">The body as a user wrote it.</param>
    /// <param name="modules">The instrumented assemblies' files, e.g. <c>Parsing.dll</c>.</param>
    /// <param name="tracker">The type coverlet injected into the first of them, by its full name.</param>
    public static string InstrumentedByCoverlet(string? subject, string body, IReadOnlyList<string> modules, string tracker) =>
        $"{subject ?? MeasuredBody + body} runs code instrumented for code coverage: coverlet rewrote {string.Join(", ", modules)} "
        + $"to count every line and branch it runs ({tracker}), so its numbers are not what the shipped code does. "
        + "Run perf tests without coverage, or leave them out of the coverage run: "
        + "`dotnet test --collect:\"XPlat Code Coverage\" --filter Category!=Performance`.";

    /// <summary>
    /// Why a body measured under a CLR profiler (a coverage collector's) is not measured (a skip) or not trusted (a note).
    /// </summary>
    /// <param name="subject">
    /// What the sentence names, e.g. <c>The perf test Parsing.Parse</c>; the body when <see langword="null"/>.
    /// </param>
    /// <param name="body">The body as a user wrote it.</param>
    /// <param name="profiler">The profiler: its library and the variable that named it, and its CLSID.</param>
    /// <param name="enabledBy">The setting that enabled profiling, e.g. <c>CORECLR_ENABLE_PROFILING=1</c>.</param>
    public static string InstrumentedByProfiler(string? subject, string body, string profiler, string enabledBy) =>
        $"{subject ?? MeasuredBody + body} runs under the CLR profiler {profiler}, which {enabledBy} loaded into this process: "
        + "a code-coverage collector (or any profiler) rewrites the methods it instruments, so its numbers are not what the "
        + "shipped code does. Run perf tests without the profiler, or leave them out of the run that loads it: add "
        + "`--filter Category!=Performance` to its `dotnet test`.";

    /// <summary>Why a requested counter is unavailable when the perf session opened it without saying why not.</summary>
    /// <param name="counter">The counter as requested.</param>
    public static string CounterNotOpened(string counter) =>
        $"The counter '{counter}' could not be opened, and the perf session gave no reason. " +
        "picollo doctor (or the perf-availability sample) shows what this machine can count and why.";

    /// <summary>A counter name that is no counter: the perf event catalog refused it for a reason other than an unknown name.</summary>
    /// <param name="counter">The name as written.</param>
    /// <param name="own">Picollo's own counters (tsc and the runtime's).</param>
    /// <param name="reason">The catalog's reason.</param>
    public static string NotACounter(string counter, IEnumerable<string> own, string reason) =>
        $"Unknown counter '{counter}'. {OwnCounters(own)}: {reason}";

    /// <summary>
    /// A counter name that is nothing at all: the nearest names, Picollo's own counters and where perf events are listed.
    /// </summary>
    /// <param name="counter">The name as written.</param>
    /// <param name="own">Picollo's own counters (tsc and the runtime's).</param>
    /// <param name="near">The nearest names of every kind, none when none is near.</param>
    public static string UnknownCounter(string counter, IEnumerable<string> own, IReadOnlyList<string> near)
    {
        string guess = near.Count > 0 ? $"Did you mean {string.Join(" or ", near)}? " : string.Empty;
        string modifiers = counter.Contains(':', StringComparison.Ordinal)
            ? " Event modifiers such as ':u' or ':k' are not part of the name (Picollo counts user space)."
            : string.Empty;
        return $"Unknown counter '{counter}'. {guess}{OwnCounters(own)}, and '{counter}' is none of this machine's: " +
            $"'perf list' shows them (use them as 'event' or 'pmu/event/', or write a raw code 'rUUEE').{modifiers}";
    }

    /// <summary>Why a counter a result was asked for is unavailable: the measurement did not count it.</summary>
    /// <param name="counter">The counter asked for.</param>
    public static string CounterNotMeasured(string counter) =>
        $"The counter '{counter}' was not measured: add it to {nameof(PerfOptions)}.{nameof(PerfOptions.Counters)} " +
        $"(in a perf test, to the attribute's Counters, e.g. Counters = \"tsc,{counter}\").";

    /// <summary>The machine-load line of a test whose machine was busy (other processes' cores, stolen time).</summary>
    /// <param name="line">The machine-load line, <c>Machine: ...</c>.</param>
    public static string MachineWasBusy(string line) =>
        line + " The machine was busy: time counters may be noisier than usual, and the verdicts account for it only in part.";

    /// <summary>The error of a measurement that waited for the machine-wide lock longer than its timeout.</summary>
    /// <param name="timeout">How long it waited.</param>
    /// <param name="what">The lock and how to see its holder, e.g. <c>the named mutex Global\Picollo.Measurement</c>.</param>
    public static string MachineLockTimedOut(TimeSpan timeout, string what) => string.Create(CultureInfo.InvariantCulture,
        $"Another process held the machine-wide measurement lock ({what}) for more than {timeout.TotalSeconds:0} s: " +
        $"a perf test elsewhere on this machine is measuring, or hung. " +
        $"Wait for it or stop it; perf tests measure one at a time so they do not disturb each other.");

    /// <summary>The note of a run whose reference loop ran at two speeds, the first half of the samples against the second.</summary>
    /// <param name="first">The reference loop's floor in the first half, ns per 1,000 steps.</param>
    /// <param name="second">The same in the second half.</param>
    public static string MachineChangedSpeed(double first, double second) => string.Create(CultureInfo.InvariantCulture,
        $"The machine changed speed during the samples: a reference loop took {first:0.#} ns per 1,000 steps in the first half " +
        $"of them and {second:0.#} in the second (a host slowing down or speeding up). Time counters may mix two speeds; " +
        $"a baseline judge measures again by itself. If it happens often, give perf tests a quieter machine or run them alone " +
        $"(dotnet test --filter Category=Performance).");

    /// <summary>The note of a run beside other processes that kept the machine's cores busy.</summary>
    /// <param name="otherCores">The cores other processes used over the samples.</param>
    /// <param name="cores">The machine's cores.</param>
    public static string OtherProcessesBusy(double otherCores, int cores) => string.Create(CultureInfo.InvariantCulture,
        $"Other processes used {otherCores:0.00} of {cores} cores while the samples ran: time counters measured beside that work. " +
        $"Run perf tests alone, apart from other test projects and builds (dotnet test --filter Category=Performance).");

    /// <summary>The note of a run whose samples stopped at twice the time budget.</summary>
    /// <param name="timeBudget">The time budget.</param>
    /// <param name="taken">The samples taken.</param>
    /// <param name="samples">The samples asked for.</param>
    public static string SamplingStoppedAtBudget(TimeSpan timeBudget, int taken, int samples) => string.Create(CultureInfo.InvariantCulture,
        $"Sampling stopped at twice the time budget ({timeBudget.TotalSeconds:0.###} s) after {taken:N0} of {samples:N0} samples. " +
        $"For a body this slow, raise the time budget (TimeBudgetMs on a perf test's attribute, PerfOptions.TimeBudget) {FewerSamples}");

    /// <summary>The note of a comparison whose pairs stopped at twice the time budget.</summary>
    /// <param name="timeBudget">The time budget.</param>
    /// <param name="taken">The pairs taken.</param>
    /// <param name="samples">The pairs asked for.</param>
    public static string PairsStoppedAtBudget(TimeSpan timeBudget, int taken, int samples) => string.Create(CultureInfo.InvariantCulture,
        $"Sampling stopped at twice the time budget ({timeBudget.TotalSeconds:0.###} s) after {taken:N0} of {samples:N0} pairs. " +
        $"For bodies this slow, raise the time budget (TimeBudgetMs on a perf test's attribute, PerfOptions.TimeBudget) {FewerSamples}");

    /// <summary>A measurement of a comparison set aside because either side's code was not final.</summary>
    /// <param name="notes">The run's notes, which say what was not final.</param>
    public static string ComparisonSetAside(string notes) => $"Set aside: a measurement in which either side's code was not final. {notes}";

    /// <summary>After <paramref name="setAside"/> measurements set aside: whether the one judged ran the final code.</summary>
    /// <param name="setAside">The measurements set aside.</param>
    /// <param name="notFinalNotes">The notes of the measurement judged when it was not final either; null when it was.</param>
    public static string ComparisonMeasuredAgain(int setAside, string? notFinalNotes) => notFinalNotes is null
        ? $"Measured again {Times(setAside)}; the pairs judged ran both sides' final code."
        : $"Measured again {Times(setAside)} and the code was still not final; the claim judges that last measurement. " +
          $"{notFinalNotes} Measure a body whose paths have all run before (a setup call outside the measurement, a longer " +
          "WarmupMs), on a machine where the JIT's background compilation gets a core.";

    /// <summary>The note of a run whose time budget capped the operations per sample below what the boundary's cost asks.</summary>
    /// <param name="operations">The operations per sample.</param>
    /// <param name="boundaryShare">The most of a sample the boundary should cost, e.g. 0.01.</param>
    public static string BudgetCappedOperations(long operations, double boundaryShare) => string.Create(CultureInfo.InvariantCulture,
        $"The time budget capped the operations per sample at {operations:N0}: the sample boundary costs more than {boundaryShare:P0} " +
        $"of a sample. Raise the time budget (TimeBudgetMs, PerfOptions.TimeBudget) so a sample holds more operations, {FewerSamples}");

    /// <summary>The note of a run whose measuring thread JIT-compiled methods during sampling.</summary>
    /// <param name="methods">The methods compiled on the measuring thread.</param>
    public static string JitOnMeasuringThread(long methods) => string.Create(CultureInfo.InvariantCulture,
        $"{methods:N0} method(s) were JIT-compiled on the measuring thread during sampling (the body ran code for the first time, " +
        $"or a loop was replaced by on-stack replacement): the code changed between samples, and some samples include the " +
        $"compilation. Measure a body whose paths have all run before (a setup call outside the measurement, a longer WarmupMs).");

    /// <summary>The note of a run during whose samples the process JIT-compiled methods after a warmup that saw no final code.</summary>
    /// <param name="methods">The methods compiled in the process.</param>
    public static string JitInProcess(long methods) => string.Create(CultureInfo.InvariantCulture,
        $"{methods:N0} method(s) were JIT-compiled in the process during sampling, and warmup had not seen the body's final " +
        $"code: its tier-1 code may have replaced slower code between samples. A longer WarmupMs lets it reach its final code " +
        $"first; tests running in parallel beside it delay that.");

    /// <summary>The warmup note of a body whose tier-1 code had not come when warmup reached its cap.</summary>
    /// <param name="milliseconds">How long warmup ran.</param>
    /// <param name="tier">The code the body last ran, e.g. <c>tier-0</c>.</param>
    public static string WarmupStoppedBeforeTier1(long milliseconds, string tier) => string.Create(CultureInfo.InvariantCulture,
        $"Warmup stopped after {milliseconds:N0} ms, before the body's method got its tier-1 code (it last ran {tier} code): " +
        $"the samples measured code that the JIT was about to replace with faster code. Continuous JIT activity elsewhere " +
        $"in the process (e.g. tests running in parallel) delays tiering.");

    /// <summary>The warmup note of a process still JIT-compiling when warmup reached half the time budget.</summary>
    /// <param name="milliseconds">Half the time budget.</param>
    public static string WarmupStoppedWhileCompiling(long milliseconds) => string.Create(CultureInfo.InvariantCulture,
        $"Warmup stopped at half the time budget ({milliseconds} ms) while methods were still being JIT-compiled in the process: " +
        $"the body may not have reached its final optimized code. A longer TimeBudget gives the JIT more time.");

    /// <summary>The note of a run whose samples would allocate more than a no-GC region may hold.</summary>
    /// <param name="expectedBytes">What the samples should allocate.</param>
    /// <param name="maxBytes">The options' limit.</param>
    public static string NoGCRegionOverLimit(double expectedBytes, long maxBytes) => string.Create(CultureInfo.InvariantCulture,
        $"{NoGCRegionOverLimitStart}{expectedBytes:N0} bytes, more than {nameof(PerfOptions.NoGCRegionMaxBytes)} ({maxBytes:N0}): " +
        $"collections may land in samples (gen0-collections counts them). Raise {nameof(PerfOptions.NoGCRegionMaxBytes)}, " +
        $"{FewerSamples}");

    /// <summary>The note of a run whose no-GC region the runtime could not reserve.</summary>
    public static string NoGCRegionNotReserved() =>
        "No no-GC region: the runtime could not reserve it, so collections may land in samples (gen0-collections counts them). " +
        "Fewer samples need a smaller region.";

    /// <summary>The note of a run whose process left the no-GC region during sampling.</summary>
    public static string NoGCRegionLeft() =>
        "The GC left the no-GC region during sampling (the process allocated more than reserved, other threads' allocations " +
        "included): a collection may have landed in a sample. Keep other threads from allocating while measuring, " +
        FewerSamples;

    /// <summary>The note of a run that asked for a pinned thread and could not have it.</summary>
    /// <param name="call">The call that failed, e.g. <c>sched_setaffinity</c>.</param>
    /// <param name="error">The error, described.</param>
    public static string PinningFailed(string call, string error) =>
        $"{call} failed with {error}; the run was not pinned " +
        "(a container or cgroup cpuset can forbid affinity changes): the scheduler may move it between CPUs mid-sample. " +
        "Allow affinity changes in the container, or turn pinning off to silence this (PerfOptions.PinThread = false).";

    /// <summary>The note of a run asked to pin a CPU that the affinity mask cannot hold.</summary>
    /// <param name="cpu">The CPU.</param>
    /// <param name="maskCpus">The CPUs the mask holds.</param>
    public static string CpuOutsideAffinityMask(int cpu, int maskCpus) =>
        $"CPU {cpu} does not fit a {maskCpus}-CPU affinity mask; the run was not pinned.";

    /// <summary>The error of a comparison whose body threw on its first call.</summary>
    /// <param name="side">The side, <c>reference</c> or <c>candidate</c>.</param>
    /// <param name="name">The body's name; the side's own name when it has none.</param>
    /// <param name="exception">The exception's type name.</param>
    /// <param name="message">The exception's message.</param>
    public static string ComparisonBodyThrew(string side, string name, string exception, string message)
    {
        string label = name == side ? $"The {side}" : $"The {side} {name}";
        return $"{label} threw {exception} on its first call: {Sentences.Ended(message)} " +
            "Both bodies of a comparison must run the same input without throwing; fix the body or the input it is given " +
            "(the inner exception has the stack trace).";
    }

    /// <summary>The error of a <c>picollo ab</c> worker given an answer its protocol does not know.</summary>
    /// <param name="answer">The tool's answer.</param>
    public static string AbProtocolUnknown(string answer) =>
        $"picollo ab answered '{answer}', which this worker's protocol does not know: the tool and the tested build's Picollo " +
        "differ in version. Use the same Picollo version in the base and the head, and the picollo tool of that version.";

    /// <summary>The error of a process started by <c>picollo ab</c> whose channel to the tool does not answer.</summary>
    /// <param name="channel">The channel's socket path.</param>
    /// <param name="error">The socket's error.</param>
    public static string AbChannelClosed(string channel, SocketError error) =>
        $"This process was started by picollo ab to measure beside another build, but its channel {channel} does not answer " +
        $"({error}): the tool has ended. Run the test with dotnet test instead, or run picollo ab again.";

    /// <summary>The error of <c>picollo ab</c> reading a worker's record it cannot parse.</summary>
    /// <param name="path">The record's file.</param>
    /// <param name="error">Why it cannot be parsed.</param>
    public static string AbRecordUnreadable(string path, string error) => string.Create(CultureInfo.InvariantCulture,
        $"{path} is not a record a picollo ab worker writes ({error}): the worker and the tool differ in version.");

    /// <summary>Why a simulated counter did not count in a measurement that cannot start a simulation worker.</summary>
    public static string SimulatedNotMeasuredHere(string counter) =>
        $"'{counter}' is counted under simulation, in the worker process a perf test ([PerfFact], [PerfTest]) starts for it: "
        + "Perf.Measure outside a perf test and paired comparisons (Perf.Compare, Against) do not count it.";

    /// <summary>Why a simulated counter was not counted for code that is not optimized, or is instrumented for code coverage.</summary>
    public static string SimulationSkippedUnoptimized(string reason) =>
        "Not simulated: " + Sentences.Ended(reason);

    /// <summary>Why a counter that is not simulated has no value in the simulation worker's own result.</summary>
    public static string MeasuredByTheTestProcess(string counter) =>
        $"'{counter}' is measured by the test's own process; this simulation worker counts the simulated counters only.";

    /// <summary>The note a measurement with simulated counters carries: how they were counted.</summary>
    public static string SimulatedRun(int samples, long operations, string simulator, TimeSpan wallTime) =>
        string.Create(CultureInfo.InvariantCulture, $"Simulated counters: {samples} samples × {operations:N0} operations under ")
        + string.Create(CultureInfo.InvariantCulture, $"{simulator}, in a worker process ({wallTime.TotalSeconds:N1} s); ")
        + "sim-cycles = instructions + 10 × branch misses + 10 × L1 misses + 100 × last-level misses.";

    private static string OwnCounters(IEnumerable<string> own) =>
        $"Picollo's own counters are {string.Join(", ", own)}; anything else must be a perf event";

    private static string Times(int count) => count == 1 ? "once" : $"{count} times";
}
