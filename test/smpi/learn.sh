#!/usr/bin/env bash
# `auto` learning from measured calls under SMPI (deterministic): a configuration wrong by
# 2x makes the models pick a slower broadcast on korea8 (8 clusters of 4); auto must run
# the algorithm measured fastest after a few calls, the same on every rank.
#   1. every wide-area bandwidth declared 50 Mbit/s (it is 100): root A, 256 KiB, the
#      models pick hlot (17% slower than spt);
#   2. every wide-area bandwidth declared 200 Mbit/s: root E, 1 MiB, the models' pick is
#      19% slower than the best.
# Each case runs every algorithm forced (their simulated times, the best among them),
# auto with GRIDCOLL_LEARN=0 (the models alone: slower than the best, or the case proves
# nothing), and auto learning, 15 timed calls after an untimed one: its last two calls
# must take the best time (within 0.5%), and all 32 ranks must say they kept the same
# algorithm from measurements, one whose forced time is the best.
#   BUILD=build SMPIRUN=smpirun test/smpi/learn.sh   (about 20 s)
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=${PLATFORMS:-$PWD/platforms}
BENCH=$(realpath "$BUILD/smpi/auto_bench")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp
passed=0
failed=0
ALGORITHMS="native flat binomial hlot spt greedy multilevel"

sed 's|100 Mbit/s|50 Mbit/s|g' examples/korea8.cfg >"$tmp/wanbw-half.cfg"
sed 's|100 Mbit/s|200 Mbit/s|g' examples/korea8.cfg >"$tmp/wanbw-double.cfg"

# sim CONFIG OUTDIR REPS ROOT SIZE [VAR=VALUE ...]: auto_bench's broadcast on korea8.
sim() {
  local cfg=$1 dir=$2 reps=$3 root=$4 size=$5
  shift 5
  mkdir -p "$dir"
  (cd "$dir" && env GRIDCOLL_CONFIG="$cfg" "$@" timeout 300 "$SMPIRUN" \
    -platform "$P/korea8.xml" -hostfile "$P/hosts_korea8.txt" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical \
    "$BENCH" bcast "$size" "$root" "$reps" >out 2>err)
}
# The seconds of timed call REP (0-based) in DIR's output.
call_s() { awk -F, -v r="$2" '$1 == "call" && $6 == r { print $7 }' "$1/out"; }

learn_case() { # NAME CONFIG ROOT SIZE
  local name=$1 cfg=$2 root=$3 size=$4 a best="" best_alg="" t kept models why=""
  declare -A forced=()
  for a in $ALGORITHMS; do
    sim "$cfg" "$tmp/$name-$a" 1 "$root" "$size" GRIDCOLL_BCAST="$a"
    t=$(call_s "$tmp/$name-$a" 0)
    [ -n "$t" ] || { why="forced $a did not run"; break; }
    forced[$a]=$t
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      best=$t best_alg=$a
    fi
  done
  sim "$cfg" "$tmp/$name-models" 3 "$root" "$size" GRIDCOLL_LEARN=0
  models=$(call_s "$tmp/$name-models" 2)
  sim "$cfg" "$tmp/$name-learn" 15 "$root" "$size" GRIDCOLL_VERBOSE=3
  local d="$tmp/$name-learn"
  grep -o "gridcoll: \[[0-9]*\] bcast of $size B (root cluster [0-9]*): auto chose [a-z]* (measured fastest)" \
    "$d/err" | sed 's/.*auto chose \([a-z]*\).*/\1/' | sort | uniq -c >"$d/kept"
  kept=$(awk '{ print $2 }' "$d/kept")
  if [ -z "$why" ]; then
    if [ -z "$models" ] || awk -v m="$models" -v b="$best" 'BEGIN { exit !(m <= b * 1.05) }'; then
      why="the models alone (${models:-none} s) are not slower than the best ($best s): the case proves nothing"
    elif [ "$(wc -l <"$d/kept")" != 1 ] || [ "$(awk '{ print $1 }' "$d/kept")" != 32 ]; then
      why="not every rank kept one same algorithm: $(tr '\n' ' ' <"$d/kept")"
    elif ! awk -v k="${forced[$kept]:-0}" -v b="$best" 'BEGIN { exit !(k <= b * 1.005) }'; then
      why="kept $kept (${forced[$kept]:-?} s forced), the best is $best_alg ($best s)"
    else
      for r in 13 14; do
        t=$(call_s "$d" $r)
        awk -v t="${t:-0}" -v b="$best" 'BEGIN { exit !(t >= b * 0.995 && t <= b * 1.005) }' ||
          why="auto's call $r took ${t:-?} s, the best $best s"
      done
    fi
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
    echo "PASS $name: models alone $models s, learnt $kept: $(call_s "$d" 14) s = best $best_alg $best s"
  else
    failed=$((failed + 1))
    echo "FAIL $name: $why"
    grep -v '^\[' "$d/err" | grep -v 'auto measures' | head -5 | sed 's/^/     | /'
  fi
}

learn_case "wide-area bandwidth declared 2x too low (korea8, root A, 256 KiB)" \
  "$tmp/wanbw-half.cfg" 0 262144
learn_case "wide-area bandwidth declared 2x too high (korea8, root E, 1 MiB)" \
  "$tmp/wanbw-double.cfg" 16 1048576
echo "smpi learn: $passed passed, $failed failed"
[ "$failed" = 0 ]
