#!/usr/bin/env bash
# Ablation of the stored-baseline verdict rules by the test suite: which hidden case needs each rule.
#
# Why this exists: every rule of the stored-baseline verdict (the settings of src/Picollo/Baselines/JudgementPolicy.cs, the
# stages of Baselines/Judging and the allowance parts of Baselines/Rules) should be kept only when something fails without
# it. The bench cells answer that on real machines and are slow (fresh processes, minutes per cell); this script answers the
# other half cheaply: for each rule in the table below it turns the rule off with a one-line edit of src/, builds it in
# Release (src/Picollo into the test project's output; see build below), runs the tests that judge baselines, records which of them fail, and puts the source back.
# A rule no test needs is either a candidate for removal or a rule whose case has no test yet (bench/RESULTS.md, the section
# on the rules turned off one by one, reads the table).
#
# Usage (from the repository root, on a clean tree):
#   bench/ablate.sh                 the run with no change first, then every rule in the table, in order
#   bench/ablate.sh RULE_ID...      the run with no change, then only these rules (ids as in the table: R01, R09, ...)
#   bench/ablate.sh --list          the table, without building anything
#   bench/ablate.sh --check         applies and reverts each edit, to show that every sed expression still matches
# Environment:
#   ABLATION_OUT  where the markdown table goes (default bench/ablation/results.md); the raw trx files and build logs of
#                 each run go to bench/ablation/runs/ (not committed).
#   ABLATION_SKIP_BASELINE=1  skips the run with no change (its failures are then not excluded as flaky).
#   ABLATION_FULL_BUILD=1     builds tests/Picollo.Tests as a whole for each rule, not only src/Picollo (slower).
#
# Each rule is turned off at the place that applies it, not by changing its default in JudgementPolicy: the policy's defaults
# are read back against docs/VERDICTS.md by a test, and a changed default would fail that test whatever the rule does. A
# failing build or Ctrl+C still puts the edited files back (trap); the script refuses to start on a tree with changes in src/.
# Tests that fail with no change are reported once and left out of every rule's list (the machine is shared; timing tests
# can be flaky under load).
set -uo pipefail

cd "$(git rev-parse --show-toplevel)" || exit 1

OUT=${ABLATION_OUT:-bench/ablation/results.md}
RUNS=bench/ablation/runs
# The tests that judge baselines: the Baselines, Assertions and Testing (adapters) folders. Left out for time (a run of
# this filter with them took 12 min 47 s on 2 shared cores, 8 min of it SimulationAdapterTests under valgrind): the
# simulation adapter tests, OperationBinderTests (binding methods, no verdict), and the adapters' end-to-end tests
# (XunitAdapterTests, NUnitAdapterTests), whose baseline cases repeat those of Baselines/ through a real test host.
FILTER='(FullyQualifiedName~Picollo.Tests.Baselines|FullyQualifiedName~Picollo.Tests.Assertions|FullyQualifiedName~Picollo.Tests.Testing)'
FILTER+='&FullyQualifiedName!~SimulationAdapterTests&FullyQualifiedName!~OperationBinderTests'
FILTER+='&FullyQualifiedName!~XunitAdapterTests&FullyQualifiedName!~NUnitAdapterTests'

B=src/Picollo/Baselines
IDS=() NAMES=() FILES=() SEDS=() HOWS=()
# rule ID NAME FILES SED HOW: FILES is space-separated; SED is one sed -i expression applied to each file (it must change
# something); HOW says in words what the edit does, for the table.
rule() { IDS+=("$1"); NAMES+=("$2"); FILES+=("$3"); SEDS+=("$4"); HOWS+=("$5"); }

# The stages and votes of a judgement (Baselines/Judging).
rule R01 "Second look at a regression (in-process confirmation)" "$B/Judging/VerdictDecision.cs" \
  's#|| !canRemeasure)#|| check.Verdicts.Count >= 0)#' \
  'VerdictDecision.NeedsConfirmation always false: a first regression fails as measured (no second measurement, so no fresh confirmation either)'
rule R02 "Code final in neither measurement confirms nothing" "$B/Judging/VerdictDecision.cs" \
  's#if (neitherFinal)#if (neitherFinal \&\& first.Count < 0)#' \
  'VerdictDecision.ConfirmedInProcess ignores neitherFinal'
rule R03 "Exact counters fail without a second look" "$B/Judging/VerdictDecision.cs" \
  's#Mode == VerdictMode.Exact)#Mode == VerdictMode.Exact \&\& counter.Name.Length < 0)#' \
  'NeedsConfirmation no longer returns false for an Exact-mode regression'
rule R04 "Fresh-process confirmation of a time regression" "$B/Judging/FreshProcessVote.cs" \
  's#? (IsGross ? 1 : _policy.Judgement.FreshConfirmations)$#? 0#' \
  'FreshProcessVote asks no process about a regression (FreshConfirmations = 0, the gross case included)'
rule R05 "Gross shortcut (one fresh process for a 2x-beyond-band regression)" "$B/Judging/FreshProcessVote.cs" \
  's#\&\& VerdictDecision.Gross(verdicts, _pending);#\&\& VerdictDecision.Gross(verdicts, _pending) \&\& _pending.Count < 0;#' \
  'FreshProcessVote.IsGross always false (VerdictDecision.Gross ignored)'
rule R06 "Look past the branchy state (fresh processes on a pass inside the branchy bound)" "$B/Judging/FreshProcessVote.cs" \
  's#: Math.Max(_policy.Judgement.FreshConfirmations, _regressions.Count > 0 ? _policy.Judgement.MostFreshProcessesPastBranchyState : 0);#: 0;#' \
  'FreshProcessVote asks no process about a pass on the branchy state'
rule R07 "More fresh processes once one regressed past the branchy state" "$B/Judging/FreshProcessVote.cs" \
  's#? _policy.Judgement.MostFreshProcessesPastBranchyState : 0#? 0 : 0#' \
  'MostFreshProcessesPastBranchyState = 0 at its use (only FreshConfirmations processes asked)'
rule R08 "Two fresh regressions fail a pass on the branchy state" "$B/Judging/FreshProcessVote.cs" \
  's#? MostAsked : _policy.Judgement.FreshRegressionsPastBranchyState;#? MostAsked : 1;#' \
  'FreshRegressionsPastBranchyState = 1 at its use (one fresh regression fails it)'
rule R09 "Re-measuring in other conditions" "$B/Judging/Judgement.cs" \
  's#attempt < Policy.Judgement.ConditionAttempts#attempt < 0#' \
  'ConditionAttempts = 0 at its use'
rule R10 "Keep the measurement judged in the narrower conditions" "$B/Judging/VerdictDecision.cs" \
  's#Widening(again) <= Widening(judged) ||#again.Count >= 0 ||#' \
  'VerdictDecision.KeepsLaterConditions always true: the latest measurement is judged'
rule R11 "Fast-level seeking when recording" "$B/Judging/LevelRecording.cs" \
  's#attempt < j.Policy.Judgement.FastLevelAttempts#attempt < 0#' \
  'FastLevelAttempts = 0 at its use'
rule R12 "Keep the slower branchy state when recording (RecordInSlowerState)" "$B/Judging/LevelRecording.cs" \
  's#if (!SlowOnTheBranchyReferenceOnly(memory))$#if (!SlowOnTheBranchyReferenceOnly(memory) || measurement > 0)#' \
  'LevelRecording.KeepsSlowerBranchyState always false'
rule R13 "Extra recording processes until two agree / levels settle" "$B/Judging/LevelRecording.cs" \
  's#processes + j.Policy.Judgement.MaxExtraRecordingProcesses#processes + 0#' \
  'MaxExtraRecordingProcesses = 0 at its use'
rule R14 "Settled processes (two in a row with no new level)" "$B/Judging/LevelRecording.cs" \
  's#settled < j.Policy.Judgement.SettledProcesses#settled < 0#' \
  'SettledProcesses = 0 at its use (extra processes only until two join)'
rule R15 "Lingering branchy allowance within a judgement" "$B/Judging/Judgement.cs" \
  's#new(new Dictionary<string, double>(_widest, StringComparer.Ordinal), Followed());#new(null, Followed());#' \
  'Judgement.LaterLooks passes no EarlierLooks.BranchyAllowance'
rule R16 "Branch following learned within a judgement" "$B/Judging/Judgement.cs" \
  's#is { } learned)#is { } learned \&\& teaching.Length < 0)#' \
  'Judgement.Look ignores BranchFollowing.Learn (as if it returned null)'
# The parts and caps of the time allowance (Baselines/Rules).
rule R17 "Busy allowance (other processes)" "$B/Rules/TimeAllowance.cs" \
  's#return 1 + (judgement.BusyShare \* ShareOfOtherCores#return 1 + (0 * ShareOfOtherCores#' \
  'BusyShare = 0 in TimeAllowance.BusyBound'
rule R18 "Busy variation for a baseline recorded beside busy processes" "$B/Rules/TimeAllowance.cs" \
  's#(judgement.BusyVariation \* #(0 * #' \
  'BusyVariation = 0 in TimeAllowance.BusyBoundAsRecorded'
rule R19 "Branchy cap (BranchCap)" "$B/Rules/TimeAllowance.cs" \
  's#, Math.Log(judgement.BranchCap));#, double.PositiveInfinity);#' \
  'BranchCap = infinity on the slow side of AddBranchSpeed'
rule R20 "Cap of all conditions (MostAllowed)" "$B/Rules/TimeAllowance.cs" \
  's#Math.Log(judgement.MostAllowed)#double.PositiveInfinity#' \
  'MostAllowed = infinity in Band.Cap'
rule R21 "Branchy allowance (slow side)" "$B/Rules/TimeAllowance.cs" \
  's#double branchBound = Math.Min(#double branchBound = 0 * Math.Min(#' \
  'AddBranchSpeed bound = 0 (BranchFollow = 0 on the slow side)'
rule R22 "Branchy reference jitter (BranchJitter)" "$B/Rules/TimeAllowance.cs" \
  's#double jitter = Math.Log(1 + judgement.BranchJitter);#double jitter = 0;#' \
  'BranchJitter = 0'
rule R23 "Recorded spread of levels in the band" "$B/Rules/TimeAllowance.cs" \
  's#if (spread > 1)#if (spread > double.PositiveInfinity)#' \
  'Band.AddSpread adds nothing'
rule R24 "Machine speed bound (a speed move beyond the tolerance bounds)" "$B/Rules/TimeAllowance.cs" \
  's#if (Math.Abs(speed) <= Math.Log(1 + judgement.MachineSpeedTolerance))#if (Math.Abs(speed) <= double.PositiveInfinity)#' \
  'MachineSpeedTolerance = infinity in AddMachineSpeed: every speed move only joins sigma'
rule R25 "Machine speed tolerance (a small move joins sigma)" "$B/Rules/TimeAllowance.cs" \
  's#if (Math.Abs(speed) <= Math.Log(1 + judgement.MachineSpeedTolerance))#if (Math.Abs(speed) <= 0)#' \
  'MachineSpeedTolerance = 0 in AddMachineSpeed: every speed move bounds'
rule R26 "Allocation reference slower bounds, not corrects (AllocationBoundFrom)" "$B/Rules/TimeAllowance.cs" \
  's#if (allocation > Math.Log(1 + judgement.AllocationBoundFrom))#if (allocation > double.PositiveInfinity)#' \
  'AllocationBoundFrom = infinity on the slow side: a slower allocation reference corrects'
rule R27 "Allocation correction uncertainty in sigma" "$B/Rules/TimeAllowance.cs" \
  's#_shiftSigma = judgement.AllocationUncertainty \* Math.Abs(allocation);#_shiftSigma = 0;#' \
  'AllocationUncertainty = 0'
rule R28 "Wider conditions contradict nothing (VerdictDecision.Wider)" "$B/Judging/VerdictDecision.cs" \
  's#policy\.Judgement\.WiderConditions#double.PositiveInfinity#g' \
  'WiderConditions = infinity in VerdictDecision: Wider always false, so any fresh pass clears'
rule R29 "A wider-on-the-slow-side fresh pass clears when within this band (Clears)" "$B/Judging/VerdictDecision.cs" \
  's#if ((fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - policy.Judgement.WiderConditions#if (fresh.Counter.Length >= 0 || (fresh.Allowance?.Low ?? 0) < (mine.Allowance?.Low ?? 0) - policy.Judgement.WiderConditions#' \
  'VerdictDecision.Clears = !Wider (a wider fresh pass never clears)'
# The recording's own rules (Judging/SteadyRecording, Rules/TimeSpread) and the rest.
rule R30 "Steady recording (runs until two agree)" "$B/Judging/SteadyRecording.cs" \
  's#while (runs.Count < policy.Judgement.MaxRecordingRuns && pair is null)#while (runs.Count < 2 \&\& pair is null)#' \
  'MaxRecordingRuns = 2 at the loop: the first pair is taken, agreeing or not'
rule R31 "Joined level tolerance" "$B/Rules/TimeSpread.cs" \
  's#joined \* (1 + policy.Judgement.JoinedLevelTolerance)#joined#' \
  'JoinedLevelTolerance = 0'
rule R32 "Simulated counter spread tolerance" "$B/Rules/BaselineComparer.cs" \
  's#judgement.SimulatedSpreadTolerance \* (reference.Recording?.Drift ?? 0)#0.0#' \
  'SimulatedSpreadTolerance = 0 (the rule threshold only)'
rule R33 "Two measurements per fresh process" "$B/Judging/BaselineJudge.cs" \
  's#int measurements = options.VerdictPolicy.Judgement.MeasurementsPerProcess;#int measurements = 1;#' \
  'MeasurementsPerProcess = 1 where fresh processes are asked'
rule R35 "Branch follow margin" "$B/Rules/BranchFollowing.cs" \
  's#slope + judgement.BranchFollowMargin#slope#' \
  'BranchFollowMargin = 0'

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

revert_all() {
  local f
  for f in $(git diff --name-only -- src); do git checkout -- "$f"; done
}
# Refuses a tree with changes in src/, then arms the revert: armed before the check, a refused start would put the
# user's own changes back to HEAD on its way out.
start_on_clean_src() {
  if ! git diff --quiet -- src; then
    echo "src/ has changes: commit or stash them first (the script reverts src/ files with git checkout)" >&2
    exit 1
  fi
  trap 'revert_all' EXIT
  trap 'echo "interrupted: reverting" >&2; revert_all; exit 130' INT TERM
}

# apply INDEX: the edit, or a message and status 1 when some file did not change.
apply() {
  local i=$1 f
  for f in ${FILES[$i]}; do
    sed -i -e "${SEDS[$i]}" "$f"
    if git diff --quiet -- "$f"; then
      echo "${IDS[$i]}: the sed expression no longer matches $f" >&2
      return 1
    fi
  done
}

revert() {
  local f
  for f in ${FILES[$1]}; do git checkout -- "$f"; done
}

# build: by default only src/Picollo, copied over the test project's copy (an edit of a method body changes no other
# assembly; on 2 shared cores the test project's own compile took minutes per rule). ABLATION_FULL_BUILD=1 builds
# tests/Picollo.Tests as a whole instead. tests/Picollo.Tests must have been built in Release once before.
TEST_BIN=tests/Picollo.Tests/bin/Release/net10.0
build() {
  if [[ ${ABLATION_FULL_BUILD:-0} == 1 ]]; then
    dotnet build tests/Picollo.Tests -c Release -v quiet -nologo
  else
    # Without the .NET and code-style analyzers (the edits are throwaway; the source generators still run): they took
    # about half of each compile.
    dotnet build src/Picollo -c Release -v quiet -nologo -p:EnableNETAnalyzers=false -p:EnforceCodeStyleInBuild=false &&
      cp src/Picollo/bin/Release/net10.0/Picollo.dll "$TEST_BIN/Picollo.dll"
  fi
}

# run LABEL: builds and runs the filtered tests; prints the failing tests' names (sorted), or BUILD-FAILED.
run() {
  local label=$1 trx
  trx="$PWD/$RUNS/$label.trx"
  rm -f "$trx"
  if ! build >"$RUNS/$label.build.log" 2>&1; then
    echo BUILD-FAILED
    return
  fi
  dotnet test tests/Picollo.Tests -c Release --no-build --filter "$FILTER" \
    --logger "trx;LogFileName=$trx" >"$RUNS/$label.test.log" 2>&1
  if [[ ! -f $trx ]]; then
    echo NO-RESULTS
    return
  fi
  # Each failing result's testName attribute (an xunit display name: Namespace.Class.Method, with arguments for theories).
  grep -o '<UnitTestResult [^>]*outcome="Failed"[^>]*>' "$trx" | sed 's/.*testName="\([^"]*\)".*/\1/' |
    sed 's/&quot;/"/g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' | sort -u
}

# Shorter names for the table: Picollo.Tests.Baselines.VerdictDecisionTests.X → VerdictDecisionTests.X.
short() { sed -E 's/^Picollo\.Tests\.[A-Za-z]+\.//'; }

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --list)
    for i in "${!IDS[@]}"; do printf '%s\t%s\t%s\n' "${IDS[$i]}" "${NAMES[$i]}" "${HOWS[$i]}"; done
    exit 0 ;;
  --check)
    start_on_clean_src
    status=0
    for i in "${!IDS[@]}"; do
      if apply "$i"; then echo "${IDS[$i]} applies"; git --no-pager diff -U0 -- src | grep '^[-+] '; else status=1; fi
      revert "$i"
    done
    exit $status ;;
esac

if [[ ${ABLATION_FULL_BUILD:-0} != 1 && ! -f $TEST_BIN/Picollo.Tests.dll ]]; then
  echo "build tests/Picollo.Tests in Release first (dotnet build tests/Picollo.Tests -c Release)" >&2
  exit 1
fi

start_on_clean_src

selected=()
if (($# > 0)); then
  for id in "$@"; do
    found=
    for i in "${!IDS[@]}"; do [[ ${IDS[$i]} == "$id" ]] && selected+=("$i") && found=1; done
    [[ -n $found ]] || { echo "no rule $id (bench/ablate.sh --list)" >&2; exit 1; }
  done
else
  selected=("${!IDS[@]}")
fi

mkdir -p "$RUNS" "$(dirname "$OUT")"
start=$SECONDS
flaky=()
{
  echo "Run on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), $(nproc) cores."
  echo
  echo "Filter: \`$FILTER\`"
  echo
} >"$OUT"

if [[ ${ABLATION_SKIP_BASELINE:-0} != 1 ]]; then
  t=$SECONDS
  mapfile -t flaky < <(run baseline)
  total=$(grep -o 'Total tests: [0-9]*' "$RUNS/baseline.test.log" | head -1)
  echo "baseline: ${#flaky[@]} failing, $((SECONDS - t)) s" >&2
  {
    echo "With no change: ${total:-the test count was not found}; $((SECONDS - t)) s."
    if ((${#flaky[@]} > 0)); then
      echo "Failing with no change (left out of every row below):"
      printf -- '- %s\n' "${flaky[@]}"
    else
      echo "All pass with no change."
    fi
    echo
  } >>"$OUT"
fi

{
  echo "| Id | Rule | How it was turned off | Failing tests |"
  echo "|---|---|---|---|"
} >>"$OUT"

for i in "${selected[@]}"; do
  t=$SECONDS
  if ! apply "$i"; then
    revert "$i"
    echo "| ${IDS[$i]} | ${NAMES[$i]} | ${HOWS[$i]} | (edit no longer applies) |" >>"$OUT"
    continue
  fi
  mapfile -t failed < <(run "${IDS[$i]}")
  revert "$i"
  # Leave out the tests that failed with no change.
  kept=()
  for name in "${failed[@]}"; do
    skip=
    for f in "${flaky[@]}"; do [[ $name == "$f" ]] && skip=1; done
    [[ -z $skip ]] && kept+=("$name")
  done
  if [[ ${failed[0]:-} == BUILD-FAILED || ${failed[0]:-} == NO-RESULTS ]]; then
    cell="${failed[0]} (see $RUNS/${IDS[$i]}.build.log)"
  elif ((${#kept[@]} == 0)); then
    cell="0"
  else
    cell="${#kept[@]}: $(printf '%s\n' "${kept[@]}" | short | paste -sd ';' | sed 's/;/, /g')"
  fi
  echo "${IDS[$i]}: ${#kept[@]} failing, $((SECONDS - t)) s" >&2
  echo "| ${IDS[$i]} | ${NAMES[$i]} | ${HOWS[$i]} | ${cell//|/\\|} |" >>"$OUT"
done

# The test project's copy of Picollo.dll is the last rule's: build the unchanged one back.
revert_all
build >"$RUNS/restore.build.log" 2>&1 || echo "the rebuild of the unchanged src/Picollo failed: see $RUNS/restore.build.log" >&2

echo >>"$OUT"
echo "Total: $((SECONDS - start)) s." >>"$OUT"
echo "wrote $OUT ($((SECONDS - start)) s)" >&2
