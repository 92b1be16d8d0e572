#!/usr/bin/env bash
# `auto` after the network changes under a running job (issue 26, point 3), under SMPI
# (deterministic). korea8, the configuration right: 256 KiB broadcasts from cluster A,
# where spt and greedy (through H) are best. The wide-area link A->H follows a bandwidth
# profile (SimGrid's bandwidth_file): 100 Mbit/s, then 5 Mbit/s from simulated second
# 2000 (about call 170; auto_bench spends some 11 simulated seconds a call, its 10 s
# start-together included). Every tree through H then takes 2.7-5x longer, and the MPI
# library's binomial tree (which never uses A->H) becomes best.
#
# Each algorithm runs forced on the platform before and after (static copies); auto
# runs 800 calls with a sync log (the watch reads the completion times the log already
# agrees on). It must:
#   - keep the best before the change;
#   - move to the best after it within BOUND calls of the first slow call: the watch's
#     window (at most the calls made so far, doubling from 16) plus the log's
#     assembly (a half window of 128 calls is completed when the next is posted: up to
#     256 calls late) plus the re-measured candidates;
#   - run it, at its forced time to 0.5%, for the last 100 calls;
#   - decide the same on every rank: all 32 logs list the same algorithm and explored
#     flag for every call.
#   BUILD=build SMPIRUN=smpirun test/smpi/drift.sh   (about 25 s)
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh
P=${PLATFORMS:-$PWD/platforms}
BENCH=$T/smpi/auto_bench
CFG=$ROOT/examples/korea8.cfg
SIZE=262144 CALLS=800 CHANGE=2000 BOUND=${BOUND:-600}
ALGORITHMS="native flat binomial hlot spt greedy multilevel"
passed=0
failed=0

# The A->H link as a profile, and as its two static states (the profile's file is read
# from the folder smpirun runs in).
printf '0 12500000\n%s 625000\n' "$CHANGE" >"$tmp/ah.bw"
sed 's|<link id="wan-A-H" bandwidth="100Mbps"|& bandwidth_file="ah.bw"|' "$P/korea8.xml" >"$tmp/drift.xml"
sed 's|<link id="wan-A-H" bandwidth="100Mbps"|<link id="wan-A-H" bandwidth="5Mbps"|' "$P/korea8.xml" >"$tmp/slow.xml"
cp "$P/korea8.xml" "$tmp/fast.xml"
grep -q 'bandwidth_file="ah.bw"' "$tmp/drift.xml" && grep -q '"wan-A-H" bandwidth="5Mbps"' "$tmp/slow.xml" ||
  { echo "FAIL drift: korea8.xml has no wan-A-H link at 100Mbps to change"; exit 1; }

# sim PLATFORM DIR REPS [VAR=VALUE ...]: auto_bench's broadcast from rank 0, run in tmp.
sim() {
  local plat=$1 dir=$2 reps=$3
  shift 3
  mkdir -p "$dir"
  (cd "$tmp" && env GRIDCOLL_CONFIG="$CFG" "$@" timeout 300 "$SMPIRUN" \
    -platform "$tmp/$plat.xml" -hostfile "$P/hosts_korea8.txt" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical \
    "$BENCH" bcast "$SIZE" 0 "$reps" >"$dir/out" 2>"$dir/err")
}
call_s() { awk -F, '$1 == "call" && $6 == 0 { print $7 }' "$1/out"; }

# The best forced algorithm on a static platform: "name seconds".
best_on() {
  local plat=$1 a t best="" best_alg=""
  for a in $ALGORITHMS; do
    sim "$plat" "$tmp/$plat-$a" 1 GRIDCOLL_BCAST="$a"
    t=$(call_s "$tmp/$plat-$a")
    [ -n "$t" ] || { echo "none 0"; return; }
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      best=$t best_alg=$a
    fi
  done
  echo "$best_alg $best"
}

read -r before_alg before < <(best_on fast)
read -r after_alg after < <(best_on slow)
d=$tmp/auto
sim drift "$d" "$CALLS" GRIDCOLL_LOG="$d/log.%r.csv" GRIDCOLL_LOG_MODE=sync GRIDCOLL_SUMMARY=1
log=$d/log.0.csv
why=""
# The broadcast's calls on rank 0: "call algorithm own explored", the untimed first included.
awk -F, -v m="$SIZE" 'NR > 1 && $5 == "bcast" && $8 == m { print $4, $6, $15, $18 }' "$log" >"$d/calls" 2>/dev/null
if [ "$before_alg" = none ] || [ "$after_alg" = none ]; then
  why="a forced algorithm did not run"
elif [ "$(wc -l <"$d/calls")" != $((CALLS + 1)) ]; then
  why="auto logged $(wc -l <"$d/calls") calls, not $((CALLS + 1))"
elif [ "$(for f in "$d"/log.*.csv; do cut -d, -f4,6,18 "$f" | md5sum; done | sort -u | wc -l)" != 1 ]; then
  why="the ranks' logs differ in what ran or was measured"
else
  # The first call slower than 1.5x the best before: the change reached the job.
  change=$(awk -v b="$before" '$1 > 20 && $3 > 1.5 * b { print $1; exit }' "$d/calls")
  # The first call from which every call runs the best after, measured or not.
  moved=$(awk -v a="$after_alg" '$2 != a { last = $1 } END { print last + 1 }' "$d/calls")
  kept_before=$(awk -v c="${change:-0}" '$1 > 20 && $1 < c && $4 == 0 { print $2 }' "$d/calls" | sort -u | tr '\n' ' ')
  steady=$(awk -v a="$after_alg" -v t="$after" -v n="$CALLS" \
    '$1 > n - 100 && !($2 == a && $3 >= t * 0.995 && $3 <= t * 1.005) { bad++ } END { print bad + 0 }' "$d/calls")
  if [ -z "$change" ]; then
    why="no call slowed down: the profile did not apply"
  elif [ "$before_alg" = "$after_alg" ]; then
    why="the best is $before_alg before and after: the case proves nothing"
  elif [ -z "$kept_before" ] || ! (for a in $kept_before; do
         awk -v t="$(call_s "$tmp/fast-$a")" -v b="$before" 'BEGIN { exit !(t <= b * 1.005) }' || exit 1
       done); then
    why="before the change auto kept '$kept_before', the best is $before_alg ($before s)"
  elif [ $((moved - change)) -gt "$BOUND" ]; then
    why="auto moved to $after_alg at call $moved, $((moved - change)) calls after the change (call $change), bound $BOUND"
  elif [ "$steady" != 0 ]; then
    why="$steady of the last 100 calls did not run $after_alg at its forced $after s"
  fi
fi
name="network change under a running job (korea8, A->H 100 -> 5 Mbit/s, root A, 256 KiB)"
if [ -z "$why" ]; then
  passed=$((passed + 1))
  echo "PASS $name: $before_alg ($before s) before, change at call $change, $after_alg ($after s) from call $moved ($((moved - change)) calls later), on all 32 ranks"
else
  failed=$((failed + 1))
  echo "FAIL $name: $why"
  grep -v '^\[' "$d/err" | grep -v '^gridcoll: \(op \|bcast \|summary\)' | head -5 | sed 's/^/     | /'
fi
grep '^gridcoll: learning bcast' "$d/err" | sed 's/^/     | /'
echo "smpi drift: $passed passed, $failed failed"
[ "$failed" = 0 ]
