#!/usr/bin/env bash
# The demo, on a simulated grid (SimGrid SMPI, deterministic), so that what it shows is
# true on any one machine: a machine has no wide area of its own, and predictions of a
# wide area that is not there (what this demo showed before) are errors of 18000%.
#   1. a grid of four clusters of 4 hosts (scripts/gen-platform.py: 1 Gbit/s NICs, 25 us
#      links, a 1 Gbit/s link per cluster pair at 10 to 25 ms);
#   2. gridcoll-calibrate measures it as it would a real grid (every fit checked) and
#      writes the configuration, plus the grid as it measured it (-p);
#   3. an unmodified MPI program (test/mpi/sweep.c: an all-to-all and a broadcast sweep)
#      runs on it with gridcoll and that configuration: per-call log and summary;
#   4. the speed-up of the grid algorithms: each size timed with the MPI library's own
#      algorithm and with gridcoll's, beside gridcoll-predict's predictions (numbers in
#      doc/benchmarks.md; SimGrid's fluid links do not punish the native all-to-all's
#      many flows as real TCP does, so LG need not win here).
# About a minute. Everything lands in OUT_DIR (out/demo).
set -euo pipefail
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
B=$(realpath "$BUILD")
out=${OUT_DIR:-out/demo}
mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/gridcoll-*.csv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
flags=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
       --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical)

echo "== 1. a simulated grid: 4 clusters x 4 hosts, 1 Gbit/s NICs, wide area 10-25 ms, 1 Gbit/s"
python3 scripts/gen-platform.py 4 4 "$out" --wan-bw 1Gbps --wan-lat 10ms >/dev/null
grid=$out/grid4x4.xml hosts=$out/hosts_grid4x4.txt

echo "== 2. gridcoll-calibrate measures it (as on a real grid) -> $out/measured.cfg"
(cd "$work" && "$SMPIRUN" -platform "$grid" -hostfile "$hosts" "${flags[@]}" \
  "$B/smpi/gridcoll-calibrate" -c "$out/grid4x4.cfg" -s 1KiB:1MiB -r 3 -o "$out/measured.cfg" \
  -p "$out/measured.xml") 2>&1 | sed -n '/summary:/,$p'

echo "== 3. an unmodified MPI program with gridcoll (auto), 16 ranks, log and summary"
(cd "$work" && GRIDCOLL_CONFIG="$out/measured.cfg" GRIDCOLL_LOG="$out/gridcoll-%r.csv" \
  GRIDCOLL_SUMMARY=1 "$SMPIRUN" -platform "$grid" -hostfile "$hosts" "${flags[@]}" \
  "$B/smpi/sweep" 262144 3) 2>&1
echo "   (the first call on a communicator also builds gridcoll's sub-communicators; while"
echo "    auto learns, a size's first calls run each close candidate in turn: doc/algorithms.md)"
echo "== per-call records (predicted beside actual): $out/gridcoll-<rank>.csv"
head -4 "$out/gridcoll-0.csv"

echo "== 4. speed-up on this grid: the MPI library's algorithm against gridcoll's"
bench() { # VAR ALG PROGRAM ARGS...: "m seconds"
  local var=$1 alg=$2 prog=$3
  shift 3
  (cd "$work" && env GRIDCOLL_CONFIG="$out/measured.cfg" "$var=$alg" "$SMPIRUN" -platform "$grid" \
    -hostfile "$hosts" "${flags[@]}" "$B/smpi/$prog" "$@" 2>/dev/null) | awk -F, '/^bench,/ { print $3, $4 }'
}
predict() { # OP ALG: "m seconds"
  "$B/gridcoll-predict" -c "$out/measured.cfg" -o "$1" -l 4,4,4,4 -s 16KiB,64KiB,256KiB,1MiB --csv |
    awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $1, $k }'
}
table() { # TITLE NATIVE-FILE GRID-FILE GRID-PREDICTED-FILE GRID-NAME
  echo "   $1"
  printf '   %9s %12s %12s %10s %14s\n' bytes native "$5" speed-up "$5 predicted"
  paste -d' ' "$2" "$3" "$4" | awk '{ printf "   %9d %9.2f ms %9.2f ms %9.2fx %11.2f ms\n", $1, $2 * 1e3, $4 * 1e3, $2 / $4, $6 * 1e3 }'
}
bench GRIDCOLL_ALLTOALL native alltoall_bench 16384 1048576 4 >"$work/a_native"
bench GRIDCOLL_ALLTOALL lg alltoall_bench 16384 1048576 4 >"$work/a_lg"
predict alltoall lg >"$work/a_pred"
table "MPI_Alltoall, 4 x 4 ranks" "$work/a_native" "$work/a_lg" "$work/a_pred" lg
bench GRIDCOLL_BCAST native bcast_bench 16384 1048576 4 >"$work/b_native"
bench GRIDCOLL_BCAST hlot bcast_bench 16384 1048576 4 >"$work/b_hlot"
predict bcast hlot >"$work/b_pred"
table "MPI_Bcast from rank 0, 4 x 4 ranks" "$work/b_native" "$work/b_hlot" "$work/b_pred" hlot
echo "== run your own application on the grid as measured:"
echo "   smpirun -platform $out/measured.xml -hostfile $out/measured.hosts ... (README: Tools)"
