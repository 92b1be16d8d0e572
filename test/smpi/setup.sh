# shellcheck shell=bash disable=SC2034,SC2154 # sourced: T and ROOT are for its callers, start is theirs
# What every SimGrid test script starts with, sourced from the repository's root:
# BUILD and SMPIRUN (the environment's or the defaults), T the build folder's full path,
# ROOT the repository, tmp a folder of the script's own, removed at exit (KEEP=1: kept, and
# said), and TMPDIR there, because smpirun -tmpdir is broken in SimGrid 3.32.
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
T=$(realpath "$BUILD")
ROOT=$PWD
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "keeping $tmp" || trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp

# The byte-for-byte scripts' verdicts: pass NAME, fail NAME (with the head of the run's
# output, $tmp/out), counted in passed and failed.
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; grep -v '^\[' "$tmp/out" | head -20 | sed 's/^/     | /'; }

# forced_run PLATFORM HOSTS CONFIG "ENV" PROG [ARG...]: $T/smpi/PROG under SMPI in $tmp,
# with GRIDCOLL_CONFIG=CONFIG, the NAME=VALUE words of ENV (what it forces) and the log in
# $tmp/rec-<rank>.csv (no summary); its output in $tmp/out. LIMIT: seconds (600).
forced_run() {
  local platform=$1 hosts=$2 cfg=$3 env=$4 prog=$5
  shift 5
  rm -f "$tmp"/rec-*.csv
  # shellcheck disable=SC2086 # env: NAME=VALUE words
  (cd "$tmp" && env $env GRIDCOLL_CONFIG="$cfg" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 \
    timeout "${LIMIT:-600}" "$SMPIRUN" -platform "$platform" -hostfile "$hosts" "${FLAGS[@]}" \
    "$T/smpi/$prog" "$@" >"$tmp/out" 2>&1)
}

# forced_ran PROG RANKS CLUSTERS ALGORITHM [CONDITION]: 0 when the last forced_run checked
# every buffer ("PROG: N checks, 0 failed", no FAIL line) and rank 0's log shows calls on
# the world communicator (RANKS ranks, column 3; 0: any) across CLUSTERS clusters (column
# 9) by ALGORITHM (column 6; auto: any), each meeting CONDITION (awk, on the line) too.
forced_ran() {
  local prog=$1 ranks=$2 clusters=$3 a=$4 cond=${5:-1} used
  used=$(awk -F, -v n="$ranks" -v c="$clusters" -v a="$a" \
    "NR > 1 && (n == 0 || \$3 == n) && \$9 == c && (a == \"auto\" || \$6 == a) && ($cond)" \
    "$tmp/rec-0.csv" 2>/dev/null | wc -l)
  grep -q "^$prog: [0-9]* checks, 0 failed" "$tmp/out" && ! grep -q '^FAIL' "$tmp/out" &&
    [ "$used" -gt 0 ]
}

# checks_of PROG: how many checks the last forced_run's PROG made.
checks_of() { sed -n "s/^$1: \([0-9]*\) checks.*/\1/p" "$tmp/out"; }

# tally NAME MIN MODEL PCT: the verdict on `results` of a script that sets a calibrated
# table against the simpler MODEL it replaces (lines "PASS ..." / "FAIL ...", those where
# MODEL is PCT% off or more ending "MODEL off"): a failure when fewer than MIN comparisons
# ran, or when MODEL was never off (the test then shows nothing); prints the summary line
# and returns 0 when nothing failed.
tally() {
  local name=$1 min=$2 model=$3 pct=$4 passed failed off
  passed=$(grep -c '^PASS' results)
  failed=$(grep -c '^FAIL' results)
  off=$(grep -c "$model off\$" results)
  [ "$passed" -ge "$min" ] || { echo "FAIL $name: only $passed comparisons ran"; failed=$((failed + 1)); }
  [ "$off" -ge 1 ] ||
    { echo "FAIL $name: the $model was within $pct% everywhere: nothing shown"; failed=$((failed + 1)); }
  echo "smpi $name: $passed passed, $failed failed; the $model off by $pct% or more at $off sizes ($((SECONDS - start)) s)"
  [ "$failed" = 0 ]
}
