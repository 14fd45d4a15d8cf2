using Picollo.Baselines;
using Picollo.Baselines.Judging;
using Picollo.Baselines.Records;
using Picollo.Baselines.Rules;
using Picollo.Counters;
using Picollo.Measurement;
using Picollo.Tests.Assertions;
using Picollo.Tests.Support;
using Shouldly;
using Xunit;

namespace Picollo.Tests.Baselines;

/// <summary>
/// The judgement decided from tables of evidence, measuring nothing: each row is the measurements a judgement took, in
/// order (the test's own first), as scales of a baseline recorded at 1.0, and what the evidence decides next: the
/// measurement it asks for, or the judgement's end. Every measurement here throws if taken, and the fresh processes
/// throw if started, so a row that passes shows the decision asked for nothing but what its row says.
/// </summary>
public sealed class JudgementDecisionTests
{
    private static readonly TimeSpan Spacing = TimeSpan.FromSeconds(2);

    [Theory]
    // A pass is the end: nothing measured again.
    [InlineData("T1.0", "pass")]
    // A measurement that never saw the body's final code is taken again first (N: not final; K: the final code's).
    [InlineData("N1.0", "FinalCode")]
    [InlineData("N1.0 K1.0", "pass")]
    [InlineData("N1.0 K1.5", "Confirmation")]
    // A regression that could be noise: measured again in this process.
    [InlineData("T1.5", "Confirmation")]
    // Without an adapter to start fresh processes, the second measurement decides: both regressed, it fails.
    [InlineData("T1.5 C1.5", "fail", false)]
    // The second passed: it is the measurement judged, and the first's regression is not confirmed.
    [InlineData("T1.5 C1.0", "pass")]
    // Confirmed in this process, a time regression is asked of fresh processes, the first at once.
    [InlineData("T1.5 C1.5", "FreshConfirmation 0")]
    // The next spaced out: a host level lasts seconds to minutes.
    [InlineData("T1.5 C1.5 F1.5", "FreshConfirmation 2")]
    // A fresh process that passes clears it: the regression stands unconfirmed, a notice.
    [InlineData("T1.5 C1.5 F1.0", "notice")]
    // Three fresh processes that regress confirm it.
    [InlineData("T1.5 C1.5 F1.5 F1.5", "FreshConfirmation 2")]
    [InlineData("T1.5 C1.5 F1.5 F1.5 F1.5", "fail")]
    // Twice beyond its band, one fresh process is enough (the gross shortcut).
    [InlineData("T3.0 C3.0", "FreshConfirmation 0")]
    [InlineData("T3.0 C3.0 F3.0", "fail")]
    // +30 % with the host's branchy reference slow (1,100 ns against the recording's 700): allowed, judged in other
    // conditions, so measured again; the host back at its speed, the body still +30 % passes only inside what lingers of that
    // state, so fresh processes are asked, which draw the state anew.
    [InlineData("T1.3b1100", "OtherConditions")]
    [InlineData("T1.3b1100 O1.3b700", "PastBranchyState 0")]
    [InlineData("T1.3b1100 O1.3b700 P1.3b700", "PastBranchyState 2")]
    [InlineData("T1.3b1100 O1.3b700 P1.3b700 P1.3b700", "fail")]
    [InlineData("T1.3b1100 O1.3b700 P1.0b700", "pass")]
    // The branchy reference 3× slower allows at most 2× (BranchCap), not all that all conditions may (2.5×): +120 % regresses.
    [InlineData("T2.2b2100", "Confirmation", false)]
    // +120 % in the slow state regresses; its confirmation, +100 % with the state gone, passes only on what lingers: fresh
    // processes decide, and two that regress fail it.
    [InlineData("T2.2b1100", "Confirmation")]
    [InlineData("T2.2b1100 C2.0b705", "PastBranchyState 0")]
    [InlineData("T2.2b1100 C2.0b705 P2.0b700 P2.0b700", "fail")]
    // +5 % with the branchy reference a little slow passes in conditions that changed, so it is measured again, twice, in
    // conditions wider still (the body +30 % beside a reference at 1,100 ns): the measurement judged in the narrowest
    // conditions stands, a pass that rests on no branchy state, so no fresh process is asked (KeepsLaterConditions).
    [InlineData("T1.05b800 O1.3b1100 O1.3b1100", "pass")]
    public void TheEvidence_DecidesTheNextMeasurement_OrTheEnd(string taken, string decides, bool freshProcesses = true)
    {
        using var temp = new TempDirectory();
        JudgementInputs inputs = Inputs(temp, freshProcesses);

        JudgementDecision decision = JudgementDecision.Decide(Evidence(taken), inputs);

        Describe(decision).ShouldBe(decides);
        Directory.GetFiles(temp.Path).Select(Path.GetFileName).ShouldBe(["T.M.perf.json"], "deciding writes nothing");
    }

    [Fact]
    public void TheSameEvidence_DecidesTheSame()
    {
        using var temp = new TempDirectory();
        JudgementInputs inputs = Inputs(temp, freshProcesses: true);
        Evidence[] evidence = Evidence("T1.5 C1.5 F1.5");

        JudgementDecision first = JudgementDecision.Decide(evidence, inputs);
        JudgementDecision again = JudgementDecision.Decide(evidence, inputs);

        again.Request.ShouldBe(first.Request);
    }

    [Fact]
    public void AConcludedJudgement_PlansItsWrite_WhichTheDriverWritesOnce()
    {
        using var temp = new TempDirectory();
        JudgementInputs inputs = Inputs(temp, freshProcesses: false);

        Judgement concluded = JudgementDecision.Decide(Evidence("T1.5 C1.4"), inputs).Concluded!;

        concluded.Plan.ShouldNotBeNull().Verdicts.Single(static v => v.Counter == "tsc").Status.ShouldBe(CounterVerdictStatus.Regressed);
        File.Exists(temp.Combine("T.M.received.perf.json")).ShouldBeFalse();
        BaselineJudgement judgement = concluded.Finish(inputs.Store.Write(concluded.Plan!));
        judgement.Check.IsFailure.ShouldBeTrue();
        judgement.ConfirmedCounters.ShouldBe(["tsc"]);
        BaselineStore.Read(temp.Combine("T.M.received.perf.json"))!.Entries.Single().Record.Find("tsc")!.PerOperation.P10
            .ShouldBe(1.4 * 200, 1.0, "the received entry is the confirming measurement, judged last");
    }

    [Fact]
    public void EvidenceThatDoesNotAnswerWhatWasAsked_IsRefused()
    {
        using var temp = new TempDirectory();

        Should.Throw<InvalidOperationException>(() => JudgementDecision.Decide(Evidence("T1.5 F1.5"), Inputs(temp, freshProcesses: true)))
            .Message.ShouldContain("came from FreshConfirmation where the judgement asked for Confirmation");
    }

    [Fact]
    public void TheTestsOwnMeasurement_ComesFirst()
    {
        using var temp = new TempDirectory();

        Should.Throw<ArgumentException>(() => JudgementDecision.Decide([], Inputs(temp, freshProcesses: false)));
    }

    // "pass", "notice" or "fail" when the judgement concluded; otherwise the origin asked for and its wait in seconds (the
    // wait only for fresh processes).
    private static string Describe(JudgementDecision decision)
    {
        if (decision.Request is { } request)
            return request.InFreshProcess ? $"{request.Origin} {request.Wait.TotalSeconds:0}" : request.Origin.ToString();
        BaselineCheckResult check = decision.Concluded!.CheckResult;
        return check.IsFailure ? "fail" : check.Outcome == BaselineOutcome.Pass ? "pass" : "notice";
    }

    // A baseline recorded at 1.0 for test T.M, and the inputs of a judgement of it.
    private static JudgementInputs Inputs(TempDirectory temp, bool freshProcesses)
    {
        var options = new BaselineStoreOptions
        {
            GetEnvironmentVariable = TestEnvironment.Local(temp),
            FreshProcessSpacing = Spacing,
        };
        PerfResult recorded = SyntheticResults.Result(Tsc(1.0));
        recorded = new PerfResult([.. recorded.Counters], recorded.Options, recorded.Run with { BranchSpeedNanoseconds = 700 });
        BaselineJudge.Judge(recorded, temp.Combine("T.cs"), "T", "M", null, options with { UpdateBaselines = true });
        return JudgementInputs.Read(temp.Combine("T.M.perf.json"), null, options with { FreshProcesses = freshProcesses ? new NeverStarted() : null });
    }

    // "T1.5 C1.5 F1.0": the test's measurement at 1.5×, its confirmation at 1.5×, a fresh process at 1.0×; O, a measurement
    // in other conditions, P, a fresh process past the branchy state; "b1100", the branchy reference's speed.
    private static Evidence[] Evidence(string taken) =>
    [
        .. taken.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(static t =>
        {
            string[] parts = t[1..].Split('b');
            double scale = double.Parse(parts[0], System.Globalization.CultureInfo.InvariantCulture);
            double? branch = parts.Length > 1 ? double.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture) : null;
            PerfResult measured = t[0] == 'N' ? NotFinal(scale) : Measured(scale, branch);
            FreshProcessMeasurement Fresh() => new([BaselineRecord.FromResult(measured), BaselineRecord.FromResult(measured)], null);
            return t[0] switch
            {
                'T' or 'N' => Picollo.Baselines.Judging.Evidence.Test(measured),
                'K' => new Picollo.Baselines.Judging.Evidence(EvidenceOrigin.FinalCode) { Measured = measured },
                'O' => new Picollo.Baselines.Judging.Evidence(EvidenceOrigin.OtherConditions) { Measured = measured },
                'C' => new Picollo.Baselines.Judging.Evidence(EvidenceOrigin.Confirmation) { Measured = measured },
                'F' => new Picollo.Baselines.Judging.Evidence(EvidenceOrigin.FreshConfirmation) { Fresh = Fresh() },
                'P' => new Picollo.Baselines.Judging.Evidence(EvidenceOrigin.PastBranchyState) { Fresh = Fresh() },
                _ => throw new ArgumentException($"Unknown evidence {t}."),
            };
        }),
    ];

    // A measurement at a scale, with the branchy reference at a speed (ns per 1,000 characters) or none, that can be
    // measured again, though never here.
    private static PerfResult Measured(double scale, double? branch = null)
    {
        PerfResult result = SyntheticResults.Result(Tsc(scale));
        if (branch is { } speed)
            result = new PerfResult([.. result.Counters], result.Options, result.Run with { BranchSpeedNanoseconds = speed });
        return result.WithRemeasure(static () => throw new InvalidOperationException("A decision measured."));
    }

    // A measurement whose warmup ended at its time cap, before the body's final code.
    private static PerfResult NotFinal(double scale) =>
        SyntheticResults.Result(WarmupEnd.TimeCap, ["warmup ended at its time cap"], Tsc(scale))
            .WithRemeasure(static () => throw new InvalidOperationException("A decision measured."));

    // 200 samples of 1,000 operations spread evenly over 198-218 ticks per operation, times the scale.
    private static CounterResult Tsc(double scale) => SyntheticResults.Counter(
        "tsc", "ticks", CounterKind.Tsc, 1_000, Enumerable.Range(0, 200).Select(i => (ulong)Math.Round(scale * (198_000 + (i * 100)))));

    private sealed class NeverStarted : IFreshProcessMeasurer
    {
        public FreshProcessMeasurement Measure(string baselinePath, int measurements, CancellationToken cancellation) =>
            throw new InvalidOperationException("A decision started a fresh process.");
    }
}
