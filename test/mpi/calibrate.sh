# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# gridcoll-calibrate under the real MPI library (sourced by test/mpi/run.sh, in its
# working directory; ONLY=calibrate runs these alone). It runs without gridcoll: it
# measures the MPI library itself.
# calibrate N ARGS...: stdout to ./out, stderr to ./err, exit code in $rc.
CALIBRATE=$(dirname "$LIB")/gridcoll-calibrate
PREDICT=$(dirname "$LIB")/gridcoll-predict
calibrate() {
  local n=$1; shift
  local cmd=(timeout 120 "${GC_LAUNCH[@]}")
  gc_app cmd "$n" -- "$CALIBRATE" "$@"
  "${cmd[@]}" >out 2>err
  rc=$?
}
quick=(-s 64B:16KiB -r 5 -t 1)
# A budget no step can meet, whatever the machine: a size's share of 1 ns is picoseconds,
# less than any call, so every step, the native one's too, takes the fewest repetitions.
calibrate 4 -C 0-1,2-3 -s 64B:16KiB -r 5 -t 1ns -o "$tmp/cal.cfg"
if [ "$rc" = 0 ] && grep -q '^gridcoll-calibrate: step 6 of 6: all-to-all' err &&
   grep -q '^gridcoll-calibrate: native: 3 to 3 timed calls a size, after one warm-up (time budget given)$' err &&
   grep -q '^gridcoll-calibrate: warning: took [0-9.]* s for a budget of 1e-09 s: 3 repetitions' err &&
   grep -q '^gridcoll-calibrate: wrote .*cal.cfg' err && [ "$(grep -c 'fit: R^2 = ' cal.cfg)" = 5 ] &&
   "$PREDICT" -c cal.cfg -n 4 -s 1KiB >out 2>&1 && grep -q 'c0 2 c1 2; .*cal.cfg' out &&
   awk '$1 == 1024 && $2 > 0 && $3 > 0 { ok = 1 } END { exit !ok }' out; then
  pass "gridcoll-calibrate: 2+2 ranks, -t 1ns (every step at 3 repetitions, the native one's too), file written, gridcoll-predict loads it"
else fail "gridcoll-calibrate: 2+2 ranks, -t 1ns (every step at 3 repetitions, the native one's too), file written, gridcoll-predict loads it"; fi
# Issue 25: the MPI library's own collectives timed on the world, as the native table that
# gridcoll-predict reads on that layout (2+2) and no other (1+2).
grep -q '^native = {' cal.cfg && grep -q '^  procs = 4;' cal.cfg && grep -q '^  sizes = \[ 2, 2 \];' cal.cfg &&
  "$PREDICT" -c cal.cfg -l 2,2 -s 1KiB 2>&1 | grep -q 'native=measured' &&
  "$PREDICT" -c cal.cfg -l 1,2 -s 1KiB 2>&1 | grep -q 'native=linear-grid' &&
  pass "gridcoll-calibrate: the native table written, predicted from on its layout alone" ||
  fail "gridcoll-calibrate: the native table written, predicted from on its layout alone"

calibrate 3 -c "$ROOT/examples/two-clusters.cfg" "${quick[@]}" --no-native -o "$tmp/cal1.cfg"
[ "$rc" = 0 ] && grep -q 'warning: cluster west has one process' err && ! grep -q '^native' cal1.cfg &&
  grep -q '# one process: no ping-pong' cal1.cfg && "$PREDICT" -c cal1.cfg -l 2,1 >/dev/null 2>&1 &&
  pass "gridcoll-calibrate: a cluster of one process keeps its lan, with a comment (--no-native: no table)" ||
  fail "gridcoll-calibrate: a cluster of one process keeps its lan, with a comment (--no-native: no table)"

calibrate 1 -o "$tmp/single.cfg"
[ "$rc" != 0 ] && grep -q 'needs at least 2 processes' err && [ ! -e single.cfg ] &&
  pass "gridcoll-calibrate: one process, a clear error, nothing written" ||
  fail "gridcoll-calibrate: one process, a clear error, nothing written"

# Issue 14: a rank range beyond the world is refused, with the world's size, nothing written.
calibrate 2 -C 0-5 "${quick[@]}" -o "$tmp/beyond.cfg"
[ "$rc" != 0 ] && grep -q 'rank range 0-5 names rank 5, but there are 2 processes' err &&
  [ ! -e beyond.cfg ] &&
  pass "gridcoll-calibrate: -C 0-5 with 2 processes refused, nothing written" ||
  fail "gridcoll-calibrate: -C 0-5 with 2 processes refused, nothing written"

# -p: a SimGrid platform and host file of what was measured, well-formed, one host per
# rank in its cluster; the final table; the aggregate written, or its refusal said (this
# machine has no wide area: many flows on one machine may well be refused).
calibrate 4 -C 0-1,2-3 "${quick[@]}" -o "$tmp/calp.cfg" -p "$tmp/calp.xml"
[ "$rc" = 0 ] && python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' calp.xml &&
  [ "$(cat calp.hosts | tr '\n' ' ')" = "c0-0 c0-1 c1-0 c1-1 " ] &&
  grep -q '^gridcoll-calibrate: summary: what was measured' err &&
  grep -q -E 'aggregate = |no aggregate: refused' calp.cfg &&
  ! grep -q 'noisy timings; more repetitions may help' err &&
  pass "gridcoll-calibrate -p: platform, host file, aggregate and final table written" ||
  fail "gridcoll-calibrate -p: platform, host file, aggregate and final table written"
