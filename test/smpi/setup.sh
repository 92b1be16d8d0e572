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
