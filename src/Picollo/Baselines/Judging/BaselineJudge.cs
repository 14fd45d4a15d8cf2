using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Baselines.Storage;
using Picollo.Measurement;
using Picollo.Measurement.Engine;
using Picollo.Measurement.Simulated;

namespace Picollo.Baselines.Judging;

/// <summary>
/// Judges a measurement against its baseline the way a test must: never on noise, never on code that was not final,
/// never losing a baseline, never hiding a gross regression (docs/ARCHITECTURE.md, "Baselines and verdicts"). One entry for the
/// assertion and both test-framework adapters: the gate (<see cref="Gate"/>) says which measurements are not judged at
/// all; the rest are decided from their evidence (<see cref="JudgementDecision.Decide"/>), and this driver takes each
/// measurement a decision asks for and writes the concluded judgement's plan once.
/// </summary>
internal static class BaselineJudge
{
    /// <summary>Judges <paramref name="result"/> against the baseline of the test, writing what the outcome calls for.</summary>
    /// <param name="result">The measurement.</param>
    /// <param name="callerFilePath">The test's source file, whose folder holds the baseline.</param>
    /// <param name="testClass">The test class's name.</param>
    /// <param name="testMethod">The test method's name.</param>
    /// <param name="caseName">The theory case, or <see langword="null"/>.</param>
    /// <param name="options">How the baseline is judged and written.</param>
    /// <returns>The judgement.</returns>
    /// <exception cref="BaselineFormatException">The baseline file is corrupt; it is left untouched.</exception>
    public static BaselineJudgement Judge(
        PerfResult result, string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
    {
        ArgumentNullException.ThrowIfNull(result);
        ArgumentNullException.ThrowIfNull(options);
        (string baselinePath, string? folderProblem) = Locate(callerFilePath, testClass, testMethod, caseName, options);
        if (Gate(result, baselinePath, options) is { } notJudged)
            return notJudged;

        // The driver: the evidence decides (JudgementDecision.Decide, which measures and writes nothing); this loop takes
        // each measurement it asks for, then writes the concluded judgement's plan once and remembers the machine's speeds.
        JudgementInputs inputs = JudgementInputs.Read(baselinePath, folderProblem, options);
        var evidence = new List<Evidence> { Evidence.Test(result) };
        while (true)
        {
            JudgementDecision decision = JudgementDecision.Decide(evidence, inputs);
            if (decision.Request is { } request)
            {
                evidence.Add(Measure(request, baselinePath, options));
                continue;
            }

            Judgement concluded = decision.Concluded!;
            BaselineCheckResult? written = concluded.Plan is { } plan ? inputs.Store.Write(plan) : null;
            BaselineJudgement judgement = concluded.Finish(written);
            inputs.SpeedMemory.Remember(judgement.Current);
            return judgement;
        }
    }

    // Takes the measurement a decision asked for: after its wait, in this process, in a fresh process, or as another
    // process's simulated counts.
    private static Evidence Measure(MeasurementRequest request, string baselinePath, BaselineStoreOptions options)
    {
        if (request.Wait > TimeSpan.Zero)
            Thread.Sleep(request.Wait);
        if (request.InFreshProcess)
        {
            IFreshProcessMeasurer fresh = options.FreshProcesses
                ?? throw new InvalidOperationException("A fresh process was asked for where the adapter starts none.");
            int measurements = options.VerdictPolicy.Judgement.MeasurementsPerProcess;
            return new Evidence(request.Origin)
            {
                Fresh = fresh.Measure(Path.GetFullPath(baselinePath), measurements, MeasurementCancellation.Current),
            };
        }

        if (!request.Simulates)
            return new Evidence(request.Origin) { Measured = request.From.Remeasure() };
        try
        {
            return new Evidence(request.Origin) { Simulated = request.From.SimulateAgain() };
        }
        catch (PerfSimulationException e)
        {
            return new Evidence(request.Origin) { SimulationFailure = e.Message };
        }
    }

    // The gate: measurements that are not judged against the stored baseline at all, each with the notice that says why.
    private static BaselineJudgement? Gate(PerfResult result, string baselinePath, BaselineStoreOptions options)
    {
        // Unoptimized code (Debug, MinOpt) and code instrumented for coverage run several times slower than what ships:
        // compared with a baseline they would fail for nothing, recorded they would blind every later verdict. Nothing is
        // read, compared or written.
        if (result.Run.NotShippedReason is { } notShipped)
            return NotJudged(result, baselinePath, $"Not compared with the baseline and not recorded: {notShipped}");

        // A picollo ab worker: the tool judges this measurement against the other build's, measured beside it; the stored
        // baseline is neither read nor written (picollo ab never changes the user's baselines).
        if (PairedPeer.IsWorker)
            return NotJudged(result, baselinePath, BaselineMessages.PairedWorker());

        // A simulation worker: the test's own process judges, with the counts this process wrote for it.
        if (SimulatedMeasurers.Current is { IsWorker: true })
            return NotJudged(result, baselinePath, BaselineMessages.SimulationWorker());

        // A fresh process started to measure a body for another process's recording or confirmation measures and reports.
        Func<string, string?> environment = options.GetEnvironmentVariable ?? Environment.GetEnvironmentVariable;
        if (FreshProcessWorker.IsWorker(environment))
        {
            // Only the baseline asked for measures again (a theory's other rows run in the same worker): checked first.
            string fullPath = Path.GetFullPath(baselinePath);
            PerfResult measured = FreshProcessWorker.IsFor(fullPath, environment)
                ? NotFinalRecord.FinalCode(result, [], static r => r.Remeasure())
                : result;
            return NotJudged(result, baselinePath, FreshProcessWorker.Measure(measured, fullPath, environment));
        }

        return null;
    }

    private static BaselineJudgement NotJudged(PerfResult result, string baselinePath, string message)
    {
        var check = new BaselineCheckResult(BaselineOutcome.NotJudged, [], Path.GetFullPath(baselinePath), null, message);
        return new BaselineJudgement
        {
            First = result,
            Judged = result,
            Current = BaselineRecord.FromResult(result),
            Check = check,
            Notices = [message],
        };
    }

    // The baseline path, or, when the test's source folder cannot be found (a deterministic build run outside the
    // repository), the path it would have and the locator's explanation, so the check reports it instead of throwing.
    // A relative BaselineDirectory is taken from the repository root of the test's source, never from the current
    // directory: under dotnet test that is bin/<configuration>/<tfm>, where baselines would be lost at the next clean.
    internal static (string Path, string? Problem) Locate(
        string callerFilePath, string testClass, string testMethod, string? caseName, BaselineStoreOptions options)
    {
        string fileName = BaselineLocator.GetFileName(testClass, testMethod, caseName);
        if (options.BaselineDirectory is { } directory && Path.IsPathRooted(directory))
            return (Path.Combine(Path.GetFullPath(directory), fileName), null);

        var locator = new BaselineLocator(getEnvironmentVariable: options.GetEnvironmentVariable);
        string besideSource;
        try
        {
            besideSource = locator.GetBaselinePath(callerFilePath, testClass, testMethod, caseName);
        }
        catch (DirectoryNotFoundException e)
        {
            string unresolved = Path.Combine(
                Path.GetDirectoryName(callerFilePath) ?? string.Empty, options.BaselineDirectory ?? string.Empty, fileName);
            return (unresolved, e.Message + " Nothing was read or written.");
        }

        if (options.BaselineDirectory is not { } relative)
            return (besideSource, null);

        string sourceFolder = Path.GetDirectoryName(besideSource)!;
        return (Path.GetFullPath(Path.Combine(RepositoryRoot(sourceFolder) ?? sourceFolder, relative, fileName)), null);
    }

    // The nearest folder at or above a test's source folder that holds .git (a folder, or a file in a worktree or
    // submodule); null outside a git repository.
    private static string? RepositoryRoot(string sourceFolder)
    {
        for (DirectoryInfo? folder = new(sourceFolder); folder is not null; folder = folder.Parent)
        {
            string git = Path.Combine(folder.FullName, ".git");
            if (Directory.Exists(git) || File.Exists(git))
                return folder.FullName;
        }

        return null;
    }
}
