using System.Globalization;
using Picollo.Text;

namespace Picollo.Testing;

/// <summary>
/// The test layer's text in one place: why a method cannot be a perf test, a knob that cannot be used, an
/// <c>Against</c> reference that cannot be bound, a fresh process that measured nothing, and what a test says when it
/// skips or falls back. Each method is one kind of message, named for the situation, taking the facts it states; the
/// golden file <c>PerfTestMessages.approved.md</c> shows every kind.
/// </summary>
// Longer than 400 lines: a catalogue, one method per kind of message and each shown in PerfTestMessages.approved.md; the
// kinds change for one reason, their wording, and are reviewed together as one golden file.
internal static class PerfTestMessages
{
    /// <summary>A method that is async.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    /// <param name="method">The method's name, for the form that works.</param>
    public static string AsyncTest(string attribute, string test, string method) =>
        $"{attribute} {test} is async: a perf test measures synchronous work, repeated thousands of times on one pinned thread. " +
        $"Take a PerfContext and measure the work synchronously: {ContextForm(method)}";

    /// <summary>A generic method.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    public static string GenericTest(string attribute, string test) =>
        $"{attribute} {test} is generic: a perf test needs concrete types. Make it non-generic, one test per type.";

    /// <summary>A method whose <see cref="PerfContext"/> is not its last parameter.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    /// <param name="parameter">The context's parameter name.</param>
    public static string ContextNotLast(string attribute, string test, string? parameter) =>
        $"{attribute} {test} takes its PerfContext '{parameter}' before other parameters: it must be the last one.";

    /// <summary>A method with a parameter passed by reference, a pointer or a ref struct.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    /// <param name="parameter">The parameter's name.</param>
    /// <param name="isRefStruct">Whether its type is a ref struct (else by reference or a pointer).</param>
    public static string ParameterNotAValue(string attribute, string test, string? parameter, bool isRefStruct) =>
        $"{attribute} {test}'s parameter '{parameter}' is {(isRefStruct ? "a ref struct" : "passed by reference or a pointer")}: " +
        "test data must be ordinary values.";

    /// <summary>A method with parameters under an attribute that gives no data (a fact, not a theory).</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    /// <param name="method">The method's name, for the form that works.</param>
    /// <param name="parameters">The data parameters' names.</param>
    public static string ParametersWithoutData(string attribute, string test, string method, IEnumerable<string?> parameters) =>
        $"{attribute} {test} takes parameters ({string.Join(", ", parameters)}) that no data fills. " +
        $"Measure inside the method with a PerfContext: {ContextForm(method)}; " +
        "or give the data with a theory (xunit: [PerfTheory] + [InlineData]; NUnit: [PerfTestCase]).";

    /// <summary>A method measured as the operation with more data parameters than the binder passes.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfTheory]</c>.</param>
    /// <param name="test">The test, <c>Class.Method</c>.</param>
    /// <param name="method">The method's name, for the form that works.</param>
    /// <param name="count">Its data parameters.</param>
    /// <param name="max">The most the binder passes.</param>
    public static string TooManyParameters(string attribute, string test, string method, int count, int max) =>
        $"{attribute} {test} takes {count} parameters: a method measured as the operation takes at most {max}. " +
        $"Take a PerfContext as the last parameter and measure a region instead: {ContextForm(method)}";

    /// <summary>A PerfContext test with budgets or <c>Baseline = true</c> that measured other than one region.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="test">The test's display name.</param>
    /// <param name="regions">The regions it measured.</param>
    public static string DeclaredChecksNeedOneRegion(string attribute, string test, int regions) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{attribute} {test} declares budgets or Baseline = true, which apply to the one region the method measures, " +
            $"but it measured {regions}. Assert each result in the method instead " +
            $"(result.Tsc.ShouldHaveP99AtMost(...), result.ShouldNotRegress(caseName: \"...\")).");

    /// <summary>The output line of a test that waited for another test process's measurement (the machine-wide lock).</summary>
    /// <param name="waited">How long it waited.</param>
    public static string WaitedForMachineLock(TimeSpan waited) => string.Create(CultureInfo.InvariantCulture,
        $"Waited {waited.TotalSeconds:0.0} s for the machine-wide measurement lock: another test process was measuring.");

    /// <summary>The output line of a test that waited for its process to stop JIT-compiling before it measured.</summary>
    /// <param name="waited">How long it waited.</param>
    public static string WaitedForJit(TimeSpan waited) => string.Create(CultureInfo.InvariantCulture,
        $"Waited {waited.TotalSeconds:0.0} s for the test process to stop compiling code (the runner's own work) before measuring.");

    /// <summary>A PerfContext test case whose data values do not match its data parameters.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfTheory]</c>.</param>
    /// <param name="method">The method's name.</param>
    /// <param name="values">The values the case gives.</param>
    /// <param name="parameters">The method's data parameters.</param>
    public static string CaseDataMismatch(string attribute, string method, int values, int parameters) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{attribute} {method}: the case gives {values} data value(s) for {parameters} data parameter(s).");

    /// <summary>The warning of a budget checked on its declared fallback because its counter is unavailable.</summary>
    /// <param name="counter">The budget's counter.</param>
    /// <param name="reason">Why it is unavailable.</param>
    /// <param name="fallback">The counter checked instead.</param>
    public static string FallbackChecked(string counter, string? reason, string fallback) =>
        string.Create(CultureInfo.InvariantCulture,
            $"{counter} is unavailable on this machine ({reason}); the declared fallback {fallback} was checked instead " +
            $"(Fallback = \"{counter}->{fallback}\").");

    /// <summary>The skip of a test none of whose assertions could run, with each unavailable counter's reason.</summary>
    /// <param name="unavailable">What could not be checked, one line each (at least one).</param>
    public static string NoAssertionCouldRun(IReadOnlyList<string> unavailable) =>
        unavailable.Count == 1
            ? $"No assertion could run on this machine: {unavailable[0]}"
            : "No assertion could run on this machine:\n- " + string.Join("\n- ", unavailable);

    /// <summary>The outcome of a theory row that a fresh process measuring another row runs too.</summary>
    /// <param name="baseline">The baseline the process measures.</param>
    public static string NotThisRow(string? baseline) =>
        $"Not measured: this process measures {baseline} for another process, not this row.";

    /// <summary>An <c>Against</c> on a test method that belongs to no class (a dynamic method).</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="method">The method's name.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    public static string NoClassForReference(string attribute, string method, string against) =>
        $"{attribute} {method} Against = \"{against}\": the test method has no class to find the reference in.";

    /// <summary>An <c>Against</c> on a test that takes a <see cref="PerfContext"/>.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    public static string AgainstWithContext(string test, string against) =>
        $"{test}: the test takes a PerfContext, so its body is not the measured operation and has nothing to compare. " +
        $"Compare inside the method instead, PerfComparison c = perf.Compare(input, static s => {against}(s), static s => New(s)); " +
        "c.Tsc.ShouldBeFasterBy(2.0); or drop the PerfContext so the body is the candidate.";

    /// <summary>An <c>Against</c> that names no method of the class, with the names near it.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <param name="signature">The test's signature, e.g. <c>int (string text)</c>.</param>
    /// <param name="near">The nearest names of the class (at least one).</param>
    public static string ReferenceMisspelt(string test, string type, string against, string signature, IReadOnlyList<string> near) =>
        $"{NoSuchMethod(test, type, against)} Did you mean {string.Join(" or ", near)}? " +
        $"{AgainstForm(type, signature)}: Against = nameof({near[0]}).";

    /// <summary>An <c>Against</c> that names no method of the class, with the methods that have the test's signature.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <param name="signature">The test's signature, e.g. <c>int (string text)</c>.</param>
    /// <param name="fitting">The methods with that signature (the first five are named).</param>
    public static string ReferenceNotAmong(string test, string type, string against, string signature, IEnumerable<string> fitting) =>
        $"{NoSuchMethod(test, type, against)} {AgainstForm(type, signature)}. " +
        $"The methods with that signature: {string.Join(", ", fitting.Take(5))}.";

    /// <summary>An <c>Against</c> that names no method of a class that has none with the test's signature.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <param name="signature">The test's signature, e.g. <c>int (string text)</c>.</param>
    /// <param name="returnType">The test's return type, as C# spells it.</param>
    /// <param name="parameters">The test's parameters, e.g. <c>string text</c>.</param>
    public static string ReferenceMissing(
        string test, string type, string against, string signature, string returnType, string parameters) =>
        $"{NoSuchMethod(test, type, against)} {AgainstForm(type, signature)}, and {type} has none: add the reference, " +
        $"e.g. public {returnType} {against}({parameters}) {{ ... }}.";

    /// <summary>An <c>Against</c> that names the test method itself.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Fast"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="signature">The test's signature, e.g. <c>int (string text)</c>.</param>
    public static string ReferenceIsTheTest(string test, string type, string signature) =>
        $"{test}: it names the test method itself, which would be compared with itself. " +
        $"The reference is another method of {type} with the test's signature {signature}: the code the body must beat or match, " +
        "e.g. the naive or the previous version, Against = nameof(NaiveCount).";

    /// <summary>An <c>Against</c> whose method takes other parameters than the test, or is generic.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <param name="referenceParameters">The reference's parameters; <see langword="null"/> when it is generic.</param>
    /// <param name="testParameters">The test's parameters, e.g. <c>string text</c>.</param>
    public static string ReferenceParametersDiffer(
        string test, string type, string against, string? referenceParameters, string testParameters)
    {
        string reason = referenceParameters is null
            ? $"{type}.{against} is generic"
            : $"{type}.{against} takes ({referenceParameters}) and the test takes ({testParameters})";
        return $"{test}: {reason}: both sides are called with the same data. " +
            $"Give {against} the test's parameters ({testParameters}), or name a method that has them.";
    }

    /// <summary>An <c>Against</c> whose method returns another type than the test.</summary>
    /// <param name="test">The test and its knob, e.g. <c>[PerfFact] Counting.Fast Against = "Slow"</c>.</param>
    /// <param name="type">The test's class.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    /// <param name="referenceReturns">The reference's return type, as C# spells it.</param>
    /// <param name="testReturns">The test's return type, as C# spells it.</param>
    public static string ReferenceReturnsOther(string test, string type, string against, string referenceReturns, string testReturns) =>
        $"{test}: {type}.{against} returns {referenceReturns} and the test returns {testReturns}: " +
        "both sides are measured the same way, their results consumed alike. " +
        $"Make {against} return {testReturns}, or name a method that does.";

    /// <summary>A theory case whose data does not fit the types of the method measured as the operation.</summary>
    /// <param name="method">The method's name.</param>
    /// <param name="parameterTypes">Its parameters' type names, as the runtime spells them.</param>
    /// <param name="error">The cast's error.</param>
    public static string DataDoesNotFit(string method, IEnumerable<string> parameterTypes, string error) =>
        $"{method}: the case's data does not fit the method's parameters ({string.Join(", ", parameterTypes)}): {error}";

    /// <summary>A knob whose value cannot be used: the knob, the value as written, why, and the valid form.</summary>
    /// <param name="source">Where it is declared: the test's attribute, or <c>[assembly: PerfDefaults]</c>.</param>
    /// <param name="knob">The knob, e.g. <c>Samples</c>.</param>
    /// <param name="value">The value as written: a number is shown bare, anything else in quotes.</param>
    /// <param name="reason">Why it cannot be used.</param>
    /// <param name="form">The valid form.</param>
    public static string InvalidKnob(string source, string knob, string value, string reason, string form) =>
        $"{source} {knob} = {Quote(value)}: {reason}. The valid form is {form}.";

    /// <summary>An <c>Against</c> that is empty or blank.</summary>
    /// <param name="source">The test's attribute as written.</param>
    /// <param name="value">The value as written.</param>
    public static string AgainstNamesNoMethod(string source, string value) =>
        InvalidKnob(source, nameof(IPerfTestDeclaration.Against), value, "it names no method",
            "the name of a method of the same class with the test's parameters and return type, e.g. Against = nameof(NaiveCount)");

    /// <summary>A <c>MinSpeedup</c> that is not a finite factor above 0.</summary>
    /// <param name="source">The test's attribute as written.</param>
    /// <param name="value">The value.</param>
    public static string MinSpeedupOutOfRange(string source, double value) =>
        InvalidKnob(source, nameof(IPerfTestDeclaration.MinSpeedup), Number(value), "a speed-up is a finite factor above 0",
            "a factor, e.g. 2.0 for at least twice as fast as the reference " +
            "(below 1 allows a bounded slowdown: 0.95 allows about 5 % slower)");

    /// <summary>A relative claim (<c>MinSpeedup</c>, <c>MaxSlowdown</c>, <c>MinCohensD</c>) on a test without <c>Against</c>.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="knob">The claim's knob.</param>
    /// <param name="value">Its value.</param>
    public static string ClaimWithoutAgainst(string attribute, string knob, double value) =>
        $"{attribute} {knob} = {Number(value)} without Against: it is a claim about the test's body against a reference, " +
        "and the test names none. Name the reference beside it, e.g. Against = nameof(NaiveCount): a method of the same class " +
        "with the test's parameters and return type.";

    /// <summary><c>Baseline = true</c> beside <c>Against</c>, which replaces the stored baseline.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    public static string BaselineBesideAgainst(string attribute, string against) =>
        $"{attribute} Baseline = true with Against = \"{against}\": the claim against the reference replaces the stored baseline. " +
        "Drop Baseline = true, or drop Against to judge the baseline alone.";

    /// <summary><c>MaxChange</c> (the stored baseline's threshold) beside <c>Against</c>.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="change">The declared MaxChange.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    public static string MaxChangeBesideAgainst(string attribute, double change, string against) =>
        $"{attribute} MaxChange = {Number(change)} with Against = \"{against}\": MaxChange is the stored baseline's threshold, " +
        $"and Against replaces the baseline. For the largest slowdown against the reference, write MaxSlowdown = {Number(change)}.";

    /// <summary><c>MaxCohensD</c> (the stored baseline's gate) beside <c>Against</c>.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="gate">The declared MaxCohensD.</param>
    /// <param name="against">The name <c>Against</c> gives.</param>
    public static string MaxCohensDBesideAgainst(string attribute, double gate, string against) =>
        $"{attribute} MaxCohensD = {Number(gate)} with Against = \"{against}\": MaxCohensD gates a regression against the stored " +
        "baseline, and Against replaces the baseline. " +
        $"To gate a speed-up over the reference, write MinSpeedup with MinCohensD = {Number(gate)}.";

    /// <summary><c>MinCohensD</c> on a test that claims no speed-up.</summary>
    /// <param name="attribute">The attribute as written, e.g. <c>[PerfFact]</c>.</param>
    /// <param name="value">The declared MinCohensD.</param>
    public static string MinCohensDWithoutMinSpeedup(string attribute, double value) =>
        $"{attribute} MinCohensD = {Number(value)} without MinSpeedup: it gates a speed-up claim, and the test claims none. " +
        "Add the least speed-up, e.g. MinSpeedup = 1.5, or drop MinCohensD.";

    /// <summary>A fresh process whose start the system refused.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="file">The program started.</param>
    public static string FreshProcessDidNotStart(string test, string file) =>
        $"the fresh process for {test} did not start ({file}).";

    /// <summary>A fresh process whose program could not be started at all.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="file">The program started.</param>
    /// <param name="error">The error's message.</param>
    public static string FreshProcessCouldNotStart(string test, string file, string error) =>
        $"the fresh process for {test} could not start {file}: {Sentences.Unended(error)}. " +
        "Check that the dotnet host is on the PATH or set DOTNET_HOST_PATH.";

    /// <summary>A fresh process whose measurement file cannot be read.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="error">Why it cannot be read.</param>
    public static string FreshProcessUnreadable(string test, string error) =>
        $"the fresh process for {test} wrote an unreadable measurement: {Sentences.Ended(error)}";

    /// <summary>A fresh process stopped at its timeout before it measured.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="timeout">Its timeout.</param>
    /// <param name="lastOutput">The last lines it printed, none when it printed nothing.</param>
    public static string FreshProcessTimedOut(string test, TimeSpan timeout, IReadOnlyList<string> lastOutput) =>
        MeasuredNothing(
            test,
            string.Create(CultureInfo.InvariantCulture, $"it did not finish within {timeout.TotalSeconds:0} s and was stopped"),
            lastOutput);

    /// <summary>A fresh process that exited without measuring.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="exitCode">Its exit code.</param>
    /// <param name="lastOutput">The last lines it printed, none when it printed nothing.</param>
    public static string FreshProcessExitedEarly(string test, int exitCode, IReadOnlyList<string> lastOutput) =>
        MeasuredNothing(test, string.Create(CultureInfo.InvariantCulture, $"it exited with code {exitCode} without measuring"), lastOutput);

    /// <summary>A fresh process whose measurements all ran code that was not final: no level of the body.</summary>
    /// <param name="test">The test as the worker names it, e.g. <c>WordsPerf.Count in TextKit.PerfTests.dll</c>.</param>
    /// <param name="measurements">How many measurements it took.</param>
    /// <param name="notes">The last measurement's notes (what was not final).</param>
    public static string FreshProcessRanNoFinalCode(string test, int measurements, string notes) => string.Create(
        CultureInfo.InvariantCulture,
        $"the fresh process for {test} has no level of the body: none of its {measurements} measurements ran the body's final "
        + $"code ({notes.TrimEnd('.')}).");

    /// <summary>The simulation worker's program started no process.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="valgrind">The valgrind program.</param>
    public static string SimulationWorkerDidNotStart(string test, string valgrind) =>
        $"The simulation worker for {test} did not start ({valgrind} gave no process): no simulated counter was counted.";

    /// <summary>The simulation worker's program could not be started.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="valgrind">The valgrind program.</param>
    /// <param name="error">Why.</param>
    public static string SimulationWorkerCouldNotStart(string test, string valgrind, string error) =>
        $"The simulation worker for {test} could not start {valgrind}: {Sentences.Unended(error)}. Install Valgrind "
        + "(sudo apt-get install valgrind) or set PICOLLO_VALGRIND to a valgrind that runs.";

    /// <summary>The simulated measurement failed in the worker: the body threw or the counts could not be read.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="what">What happened there.</param>
    /// <param name="lastWords">The worker's last lines and Valgrind's.</param>
    public static string SimulationFailed(string test, string what, IReadOnlyList<string> lastWords) =>
        $"Under simulation, {test} failed in its worker: {Sentences.Unended(what)}. Nothing was recorded." + LastWords(lastWords);

    /// <summary>The simulation worker ended before measuring a region.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="exitCode">Its exit code.</param>
    /// <param name="region">The region it was to measure, from 0.</param>
    /// <param name="lastWords">The worker's last lines and Valgrind's.</param>
    public static string SimulationWorkerExitedEarly(string test, int exitCode, int region, IReadOnlyList<string> lastWords) =>
        string.Create(
            CultureInfo.InvariantCulture,
            $"The simulation worker for {test} exited with code {exitCode} before measuring the test's measurement {region + 1} ")
        + "with simulated counters: nothing was recorded. Valgrind's lines below say when it cannot run this .NET; the test's "
        + "own when it failed or measured differently in the worker." + LastWords(lastWords);

    /// <summary>The simulation worker ran out of time.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="limit">The timeout.</param>
    /// <param name="variable">The variable that sets it.</param>
    /// <param name="lastWords">The worker's last lines and Valgrind's.</param>
    public static string SimulationTimedOut(string test, TimeSpan limit, string variable, IReadOnlyList<string> lastWords) =>
        string.Create(CultureInfo.InvariantCulture, $"The simulation worker for {test} did not finish within {limit.TotalSeconds:0} s ")
        + "and was stopped: nothing was recorded. Under simulation code runs about 50 times slower than natively; a body that "
        + $"takes milliseconds per operation needs more time: set {variable} (seconds) higher, or give the simulated counters a "
        + "smaller body." + LastWords(lastWords);

    /// <summary>The simulation worker wrote a file that cannot be read.</summary>
    /// <param name="test">The test as the worker names it.</param>
    /// <param name="error">Why.</param>
    public static string SimulationUnreadable(string test, string error) =>
        $"The simulation worker for {test} wrote an unreadable measurement: {Sentences.Ended(error)}";

    /// <summary>Why a picollo ab pair after a test's first counts no simulated counters.</summary>
    public static string SimulatedInTheFirstPair() =>
        "Counted in the test's first process pair of picollo ab: simulated counts repeat exactly, so later pairs leave them out.";

    /// <summary>In a simulation worker, why a test other than the one it was started for measures nothing.</summary>
    /// <param name="wanted">The test the worker measures.</param>
    public static string NotThisSimulatedTest(string? wanted) =>
        $"Not measured: this process is the simulation worker of {wanted}.";

    /// <summary>A lean worker's data could not be read.</summary>
    /// <param name="error">Why.</param>
    public static string LeanDataUnreadable(string error) =>
        $"The test case's data handed to the simulation worker could not be read: {Sentences.Ended(error)}";

    /// <summary>A type of a lean worker's data is not among the loaded assemblies.</summary>
    /// <param name="type">The type's assembly-qualified name.</param>
    public static string LeanTypeNotFound(string type) => $"The type {type} of the test case's data is not found in the worker.";

    /// <summary>A lean worker's last line after running its test.</summary>
    /// <param name="test">The test.</param>
    /// <param name="skip">Why it was skipped, or <see langword="null"/>.</param>
    public static string LeanWorkerRan(string test, string? skip) =>
        skip is null ? $"Picollo simulation worker: {test} ran." : $"Picollo simulation worker: {test} skipped: {skip}";

    /// <summary>A lean worker that could not run its test.</summary>
    /// <param name="exception">The exception's type.</param>
    /// <param name="message">Its message.</param>
    public static string LeanWorkerCouldNotRun(string exception, string message) =>
        $"Picollo simulation worker: the test could not be run without its framework ({exception}: {Sentences.Unended(message)}).";

    /// <summary>A lean worker whose test failed.</summary>
    /// <param name="exception">The exception's type.</param>
    /// <param name="message">Its message.</param>
    public static string LeanWorkerTestFailed(string exception, string message) =>
        $"Picollo simulation worker: the test failed: {exception}: {Sentences.Unended(message)}.";

    /// <summary>Why a test's simulated counters cannot be counted: the adapter cannot start it in another process.</summary>
    /// <param name="test">The test's display name.</param>
    public static string NoSimulationWorker(string test) =>
        $"{test} cannot be started in a worker process (its test assembly is not a program with a runtimeconfig.json, or the "
        + "test framework runs it in-process), so its simulated counters cannot be counted: run it with dotnet test.";

    private static string MeasuredNothing(string test, string why, IReadOnlyList<string> lastOutput) =>
        $"the fresh process for {test} measured nothing: {why}." +
        (lastOutput.Count == 0 ? string.Empty : " Its last output: " + string.Join(" | ", lastOutput));

    private static string LastWords(IReadOnlyList<string> lines) =>
        lines.Count == 0 ? string.Empty : " Its last output: " + string.Join(" | ", lines);

    private static string ContextForm(string method) =>
        $"public void {method}(PerfContext perf) {{ var input = ...; PerfResult r = perf.Measure(input, static s => Work(s)); " +
        "r.ShouldNotRegress(); }";

    private static string NoSuchMethod(string test, string type, string against) => $"{test}: {type} has no method {against}.";

    private static string AgainstForm(string type, string signature) =>
        $"Against names a method of {type} with the test's signature {signature}; nameof keeps the name right";

    private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    // Strings are shown as written, in quotes; numbers bare.
    private static string Quote(string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out _) ? value : $"\"{value}\"";
}
