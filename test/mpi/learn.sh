# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# Sourced by test/mpi/run.sh (ONLY=learn runs these cases alone): `auto` learning from
# measured calls (shim/pure/learn.h, shim/span.h), on two clusters.
#
# test/mpi/learn repeats broadcasts (every root) and all-to-alls of 4 sizes on two
# communicators until learning has measured every candidate, checking every result; then
# frees 200 communicators right after measured calls (allreduces pending at
# MPI_Comm_free) with the memory bounded, and ends with measurements pending at
# MPI_Finalize. At verbose 3 each rank says what it measures and what it kept: every rank
# must say the same lines in the same order (the same choice everywhere, from the same
# allreduced times), and some choices must have been kept from measurements.
# The memory bound (KiB, test/mpi/learn.c's third argument): none under ASan, whose
# allocator keeps freed memory in quarantine (check-asan runs this file too).
bound=1024
[[ ${PRELOAD:-} == *asan* ]] && bound=0
learned_ok() {
  local r ranks=$1
  for r in $(seq 0 $((ranks - 1))); do
    grep "^gridcoll: \[$r\] .*: auto \(chose\|measures\) " "err.$r" | sed "s/^gridcoll: \[$r\] //" >"learnt-$r"
  done
  grep -q 'auto chose .* (measured fastest)' learnt-0 && grep -q 'auto measures ' learnt-0 || {
    echo "rank 0 kept nothing from measurements" >>out
    return 1
  }
  for r in $(seq 1 $((ranks - 1))); do
    cmp -s learnt-0 "learnt-$r" || { echo "rank $r learnt otherwise than rank 0" >>out; return 1; }
  done
}
rm -f err.*
LIMIT=240 mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_VERBOSE=3 -- "${own_err[@]}" "$T/learn" 12 200 "$bound"
no_failures && grep -q '^learn: 882 calls per rank, 0 failed' out && learned_ok 4 &&
  pass "learning auto: results exact, the same measurements and choices on every rank, comm free and finalize with measurements pending, no leak" ||
  fail "learning auto: results exact, the same measurements and choices on every rank, comm free and finalize with measurements pending, no leak"

rm -f err.*
LIMIT=240 mpirun 2 GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_VERBOSE=3 -- "${own_err[@]}" "$T/learn" 12 100 "$bound"
no_failures && grep -q '^learn: 490 calls per rank, 0 failed' out && learned_ok 2 &&
  pass "learning auto on two clusters of one rank" ||
  fail "learning auto on two clusters of one rank"

# With a log, the logged calls run what learning decided too, and every rank logs the same
# algorithm for the same call (columns comm id .. algorithm); learning off, the same
# program still runs exactly (GRIDCOLL_LEARN=0: no measurement, none kept from one).
rm -f ln-*.csv
LIMIT=240 mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_LOG="$tmp/ln-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/learn" 12 40 "$bound"
same_algorithms() {
  local r
  for r in 0 1 2 3; do tail -n +2 "ln-$r.csv" | cut -d, -f2-6 >"algs-$r"; done
  # At least two algorithms ran (learning chose), except under Open MPI: there the
  # models put its own all-to-all so far ahead on one host that learning, which runs only
  # what the corrected predictions cannot rule out, explores nothing in these calls, and
  # only the agreement is checked.
  [ -s algs-0 ] && cmp -s algs-0 algs-1 && cmp -s algs-0 algs-2 && cmp -s algs-0 algs-3 &&
    { [ "$(cut -d, -f5 algs-0 | sort -u | wc -l)" -ge 2 ] || [ "$GC_LAUNCHER" = openmpi ]; }
}
no_failures && same_algorithms &&
  pass "learning auto with a log: the same algorithm logged on every rank for every call" ||
  fail "learning auto with a log: the same algorithm logged on every rank for every call"

LIMIT=240 mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_LEARN=0 GRIDCOLL_VERBOSE=3 -- "$T/learn" 12 40 "$bound"
no_failures && ! grep -q 'auto measures\|measured fastest' err &&
  pass "GRIDCOLL_LEARN=0: nothing measured, results exact" ||
  fail "GRIDCOLL_LEARN=0: nothing measured, results exact"
