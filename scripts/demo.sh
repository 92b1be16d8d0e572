#!/usr/bin/env bash
# The demo, on a simulated grid (SimGrid SMPI, deterministic), so that what it shows is
# true on any one machine: a machine has no wide area of its own, and predictions of a
# wide area that is not there (what this demo showed before) are errors of 18000%.
# The network is SimGrid's default model (its MPI factors: a message's cost bends with
# its size as real MPI's does, a 10 ms link counting 20 to 116 ms); the fluid setting
# (factors off: the platform's numbers exactly) is step 4's second column.
#   1. a grid of four clusters of 4 hosts (scripts/gen-platform.py: 1 Gbit/s NICs, 25 us
#      links, a 1 Gbit/s link per cluster pair at 10 to 20 ms);
#   2. gridcoll-calibrate measures it as it would a real grid (every fit checked; each
#      link's curve, the MPI library's own collectives) and writes the configuration,
#      plus the grid as it measured it (-p);
#   3. an unmodified MPI program (test/mpi/sweep.c: an all-to-all and a broadcast sweep,
#      each broadcast from the next rank, so ranks arrive skewed) runs on it with gridcoll
#      and that configuration: per-call log and summary, which score each model against
#      the collective's own time and show the wait apart (an all-to-all's own time starts
#      at its last entry; a broadcast's at its root's, so receivers that come after their
#      root stay in it: the demo lists those calls, their lateness taken from the log);
#   4. the grid algorithms against the MPI library's own: each size timed with both (every
#      rank entering together: the collective's own time), beside gridcoll-predict's
#      predictions, under both network settings; whichever is faster is what `auto`
#      keeps (make bench-auto), and the line under each table says which won.
# Two minutes or so. Everything lands in OUT_DIR (out/demo).
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
flags=(--cfg=smpi/simulate-computation:no --cfg=smpi/auto-shared-malloc-thresh:33554432
       --log=root.thres:critical)
fluid=(--cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1)

echo "== 1. a simulated grid: 4 clusters x 4 hosts, 1 Gbit/s NICs, wide area 10-20 ms, 1 Gbit/s (SimGrid's default network)"
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
# A broadcast's own time starts at its root's entry (the wait column: how late the root
# came); receivers still busy in the previous broadcast when the root came stay in it, so
# such rows' errors are lateness, not the model: shown from the log's spread_s.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["op"] == "bcast" && $c["spread_s"] - $c["root_late_s"] > 1e-3 {
    late = $c["spread_s"] - $c["root_late_s"]; own = $c["own_s"]; p = $c["predicted_s"]
    if (!n++) print "   broadcasts whose receivers came after their root (own time includes them):"
    printf "   call %3d %-6s root %2d %7d B: receivers up to %6.2f ms late, own %7.2f ms, " \
           "less the lateness %7.2f ms, predicted %7.2f ms (%+.1f%%)\n", $c["call"], $c["algorithm"],
           $c["root"], $c["bytes"], late * 1e3, own * 1e3, (own - late) * 1e3, p * 1e3,
           100 * (p - (own - late)) / (own - late) }' "$out/gridcoll-0.csv"

echo "   (an all-to-all's own time starts at its last entry, but LG's members wait for late ones"
echo "    in its local phase: where ranks came apart (the wait column) LG can take longer than"
echo "    its prediction, made for ranks entering together, which step 4 times)"
echo "== 4. the MPI library's own algorithm against gridcoll's (the collective's own time)"
bench() { # NET VAR ALG PROGRAM ARGS...: "m seconds"
  local net=$1 var=$2 alg=$3 prog=$4 more=()
  shift 4
  [ "$net" = fluid ] && more=("${fluid[@]}")
  (cd "$work" && env GRIDCOLL_CONFIG="$out/measured.cfg" "$var=$alg" "$SMPIRUN" -platform "$grid" \
    -hostfile "$hosts" "${flags[@]}" "${more[@]}" "$B/smpi/$prog" "$@" 2>/dev/null) |
    awk -F, '/^bench,/ { print $3, $4 }'
}
predict() { # OP ALG: "m seconds"
  "$B/gridcoll-predict" -c "$out/measured.cfg" -o "$1" -l 4,4,4,4 -s 16KiB,64KiB,256KiB,1MiB --csv |
    awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $1, $k }'
}
table() { # TITLE NAME NATIVE GRID PREDICTED FLUID-NATIVE FLUID-GRID (files of "m seconds")
  local name=$2
  echo "   $1"
  printf '   %9s %12s %12s %9s %14s | %-28s\n' "" "" "" "" "" "fluid network (factors off)"
  printf '   %9s %12s %12s %9s %14s | %12s %12s %9s\n' bytes native "$name" speed-up \
    "$name predicted" native "$name" speed-up
  paste -d' ' "$3" "$4" "$5" "$6" "$7" | awk -v g="$name" '
    { printf "   %9d %9.2f ms %9.2f ms %8.2fx %11.2f ms | %9.2f ms %9.2f ms %8.2fx\n",
        $1, $2 * 1e3, $4 * 1e3, $2 / $4, $6 * 1e3, $8 * 1e3, $10 * 1e3, $8 / $10
      n++; win += $4 < $2; fwin += $10 < $8; e = ($6 - $4) / $4; e = e < 0 ? -e : e; if (e > worst) worst = e }
    END { printf "   %s is faster than the library'"'"'s own at %d of %d sizes here (fluid: %d of %d); its " \
            "prediction within %.1f%%\n", g, win, n, fwin, n, 100 * worst }'
}
for net in default fluid; do
  bench $net GRIDCOLL_ALLTOALL native alltoall_bench 16384 1048576 4 >"$work/a_native_$net"
  bench $net GRIDCOLL_ALLTOALL lg alltoall_bench 16384 1048576 4 >"$work/a_lg_$net"
  bench $net GRIDCOLL_BCAST native bcast_bench 16384 1048576 4 >"$work/b_native_$net"
  bench $net GRIDCOLL_BCAST hlot bcast_bench 16384 1048576 4 >"$work/b_hlot_$net"
done
predict alltoall lg >"$work/a_pred"
predict bcast hlot >"$work/b_pred"
table "MPI_Alltoall, 4 x 4 ranks, SimGrid's default network" lg "$work/a_native_default" \
  "$work/a_lg_default" "$work/a_pred" "$work/a_native_fluid" "$work/a_lg_fluid"
table "MPI_Bcast from rank 0, 4 x 4 ranks, SimGrid's default network" hlot "$work/b_native_default" \
  "$work/b_hlot_default" "$work/b_pred" "$work/b_native_fluid" "$work/b_hlot_fluid"
echo "== run your own application on the grid as measured:"
echo "   smpirun -platform $out/measured.xml -hostfile $out/measured.hosts ... (README: Tools)"
