#!/usr/bin/env bash
# bench-multihost: gridcoll's algorithms judged on real TCP with real wide-area latency:
# the network-namespace grids of scripts/grid-up, whose wide area is test/multihost/delayd
# (per pair of clusters: one-way delay, rate, tail-drop queue).
#
# On each description (default test/multihost/grid2.cfg: 2 x 2 hosts, 5 ms one way,
# 100 Mbit/s; grid3.cfg: 3 uneven clusters, the direct a-b link 20 ms / 50 Mbit/s
# against 3 + 4 ms through c), one rank per host, the same file as GRIDCOLL_CONFIG:
#   - all-to-all: native, lg, relay (grid3: its broken triangle) and auto;
#   - broadcast from the first rank of each cluster: native, every tree, and auto;
#   - MPI_Alltoallv: native and lg (LG-v), uniform, skewed (one heavy peer) and
#     FFT-transpose counts (test/bench/alltoallv_bench.c), VMIN to VMAX bytes mean block
#     (x VFACTOR), best of REPS; lg logs every algorithm's prediction on the matrix it
#     learnt, so the report gives both models' errors;
# 1 KiB to MAX bytes (x4), REPS measurements per size, with test/multihost/gridbench
# (how it times a call: its header; broadcast by the root's clock and acks, all-to-all by
# BATCH back-to-back calls). Each algorithm is one mpiexec run; all runs of a grid are
# made in one invocation, one after the other, and the ratios are between runs of the same
# invocation. Per size: the median time, native's median over it (above 1: faster than
# native), and the median |predicted - actual| / actual, the prediction being gridcoll's
# own for that call (its log, GRIDCOLL_LOG_MODE=local, which adds no synchronisation).
# Also the frames the backbone queues dropped during each run. Writes
# $OUT/results.csv, $OUT/bench-multihost.png (python3-matplotlib) and the logs.
# CALIBRATE_FIRST=1: as a user would, gridcoll-calibrate runs first on each grid (plain MPI,
# one rank per host, CAL_ARGS), and every run reads the configuration it wrote
# ($OUT/GRID/calibrated.cfg) instead of the description's stated numbers.
#
#   GRIDS="grid2.cfg grid3.cfg" MAX=1048576 REPS=7 BATCH=3 OUT=out/bench-multihost
#   OPS="alltoall bcast alltoallv" VMIN=1024 VMAX=65536 VFACTOR=8
#   CALIBRATE_FIRST=0 CAL_ARGS="-s 1KiB:1MiB -r 5 -t 240"
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/..")
STATE=${GRID_STATE:-/run/gridcoll-grid}
GRIDS=${GRIDS:-grid2.cfg grid3.cfg}
MAX=${MAX:-1048576}
REPS=${REPS:-7}
BATCH=${BATCH:-3}
OUT=${OUT:-out/bench-multihost}
BCAST_TREES=${BCAST_TREES:-flat binomial hlot spt greedy multilevel}
MPI_ENV=${MPI_ENV:-} # VAR=VALUE... for every rank (e.g. an MPICH or UCX setting)
OPS=${OPS:-alltoall bcast alltoallv}
VMIN=${VMIN:-1024} VMAX=${VMAX:-65536} VFACTOR=${VFACTOR:-8}
CALIBRATE_FIRST=${CALIBRATE_FIRST:-0}
CAL_ARGS=${CAL_ARGS:--s 1KiB:1MiB -r 5 -t 240}

source "$GRID_ROOT/test/multihost/lib.sh"
grid_session bench-multihost
BENCH=$TOOLS/gridbench
VBENCH=$TOOLS/alltoallv_bench
CALIBRATE_TOOL=$(realpath "$BUILD/gridcoll-calibrate")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
cd "$tmp" || exit 1
start=$SECONDS

# run GRID NAME OP ARG VAR=VALUE...: one gridbench run; its times in $OUT/GRID/NAME.times,
# its per-rank logs in $OUT/GRID/NAME-<rank>.csv.
run() {
  local g=$1 name=$2 op=$3 arg=$4 genv=() v drops dir=$OUT/$(basename "$1" .cfg)
  shift 4
  for v in $MPI_ENV "$@"; do genv+=(-genv "${v%%=*}" "${v#*=}"); done
  rm -f "$dir/$name"-*.csv
  drops=$(backbone_drops)
  grid_mpirun 600 "grep -q '^gridbench: done' out && [ \$(ls $dir/$name-*.csv 2>/dev/null | wc -l) = $N ]" -- \
    -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$(config_of "$g")" \
    -genv GRIDCOLL_LOG "$dir/$name-%r.csv" -genv GRIDCOLL_LOG_MODE local -genv GRIDCOLL_SUMMARY 0 \
    "${genv[@]}" -n "$N" nice "$BENCH" "$op" "$MAX" "$REPS" "$arg"
  if [ "$rc" != 0 ]; then
    echo "bench-multihost: $g run $name failed (exit $rc):" >&2
    sed 's/^/  | /' out err | head -20 >&2
    exit 1
  fi
  grep -E '^(alltoall|bcast),' out >"$dir/$name.times"
  sleep 0.2
  echo "$name $(($(backbone_drops) - drops))" >>"$dir/drops.txt"
  echo "  $g $name: $((SECONDS - start)) s" >&2
}

# run_v GRID ALGORITHM: one alltoallv_bench run of GRIDCOLL_ALLTOALLV=ALGORITHM; its
# times ("bench,alltoallv,PATTERN,RANKS,M,SECONDS") in $OUT/GRID/alltoallv-ALG.vtimes, its
# per-rank logs in $OUT/GRID/alltoallv-ALG-<rank>.csv (lg's with every prediction).
run_v() {
  local g=$1 a=$2 genv=() v drops dir=$OUT/$(basename "$1" .cfg) cfg
  cfg=$(config_of "$g")
  if [ "$a" = lg ]; then
    cfg=$tmp/$(basename "$g" .cfg)-candidates.cfg
    { cat "$(config_of "$g")"; echo 'log = { candidates = true; };'; } >"$cfg"
  fi
  for v in $MPI_ENV; do genv+=(-genv "${v%%=*}" "${v#*=}"); done
  rm -f "$dir/alltoallv-$a"-*.csv
  drops=$(backbone_drops)
  grid_mpirun 600 "grep -q '^bench,alltoallv,fft,[0-9]*,$VMAX,' out && [ \$(ls $dir/alltoallv-$a-*.csv 2>/dev/null | wc -l) = $N ]" -- \
    -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$cfg" -genv GRIDCOLL_ALLTOALLV "$a" \
    -genv GRIDCOLL_LOG "$dir/alltoallv-$a-%r.csv" -genv GRIDCOLL_LOG_MODE local -genv GRIDCOLL_SUMMARY 0 \
    -genv ALLTOALLV_BENCH_ALLTOALL 0 "${genv[@]}" -n "$N" nice "$VBENCH" "$VMIN" "$VMAX" "$VFACTOR" "$REPS"
  if [ "$rc" != 0 ]; then
    echo "bench-multihost: $g run alltoallv-$a failed (exit $rc):" >&2
    sed 's/^/  | /' out err | head -20 >&2
    exit 1
  fi
  grep '^bench,alltoallv,' out >"$dir/alltoallv-$a.vtimes"
  sleep 0.2
  echo "alltoallv-$a $(($(backbone_drops) - drops))" >>"$dir/drops.txt"
  echo "  $g alltoallv-$a: $((SECONDS - start)) s" >&2
}

# description NAME: test/multihost/NAME, or NAME itself when it is a file (results go
# under its base name without .cfg).
description() { if [ -f "$1" ]; then realpath "$1"; else echo "$GRID_ROOT/test/multihost/$1"; fi; }
# config_of NAME: what gridcoll reads on that grid: the calibrated file, or the description.
config_of() {
  local c=$OUT/$(basename "$1" .cfg)/calibrated.cfg
  if [ "$CALIBRATE_FIRST" = 1 ]; then echo "$c"; else description "$1"; fi
}
# calibrate NAME: gridcoll-calibrate across the grid that is up, clusters from the
# description; what it wrote in $OUT/NAME/calibrated.cfg, what it printed beside it.
calibrate() {
  local dir=$OUT/$(basename "$1" .cfg)
  # shellcheck disable=SC2086 # CAL_ARGS is a list of options
  grid_mpirun 900 "grep -q '^gridcoll-calibrate: wrote' err" -- -n "$N" "$CALIBRATE_TOOL" \
    -c "$(description "$1")" $CAL_ARGS -o "$dir/calibrated.cfg"
  cp err "$dir/calibrate.txt"
  if [ "$rc" != 0 ] || [ ! -s "$dir/calibrated.cfg" ]; then
    echo "bench-multihost: $1: gridcoll-calibrate failed (exit $rc):" >&2
    sed 's/^/  | /' out err | head -20 >&2
    exit 1
  fi
  echo "  $1 calibrated: $((SECONDS - start)) s" >&2
}
for g in $GRIDS; do
  mkdir -p "$OUT/$(basename "$g" .cfg)"
  : >"$OUT/$(basename "$g" .cfg)/drops.txt"
  "$GRID_ROOT/scripts/grid-up" -f "$(description "$g")" || exit 1
  grid_built=1
  cp "$STATE/grid" "$OUT/$(basename "$g" .cfg)/grid.txt"
  read -r -a hosts <<<"$(sed -n 's/^hosts=//p' "$STATE/grid")"
  N=${#hosts[@]}
  # The first rank of each cluster (ranks follow the host order of the description).
  roots=$(awk '$1 == "hosts=" { next } /^hosts=/ { sub(/^hosts=/, ""); n = split($0, h, " ");
                for (i = 1; i <= n; i++) rank[h[i]] = i - 1 }
              $1 == "cluster" { r = r (r == "" ? "" : ",") rank[$3] } END { print r }' "$STATE/grid")
  echo "bench-multihost: $g: $N ranks, one per host; broadcast roots $roots; 1 KiB..$MAX B, $REPS per size" >&2
  [ "$CALIBRATE_FIRST" = 1 ] && calibrate "$g"
  if [[ " $OPS " == *" alltoall "* ]]; then
    for a in native lg relay auto; do run "$g" "alltoall-$a" alltoall "$BATCH" GRIDCOLL_ALLTOALL="$a"; done
  fi
  if [[ " $OPS " == *" bcast "* ]]; then
    for b in native $BCAST_TREES auto; do run "$g" "bcast-$b" bcast "$roots" GRIDCOLL_BCAST="$b"; done
  fi
  if [[ " $OPS " == *" alltoallv "* ]]; then
    for a in native lg; do run_v "$g" "$a"; done
  fi
  "$GRID_ROOT/scripts/grid-down"
  grid_built=0
done
echo "bench-multihost: $((SECONDS - start)) s" >&2
# The plot needs matplotlib: Debian's python3 has it (python3-matplotlib, which make
# bench-multihost installs) where a python3 earlier on PATH may not.
py=python3
python3 -c 'import matplotlib' 2>/dev/null || [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
# shellcheck disable=SC2046 # one word a grid
"$py" "$GRID_ROOT/scripts/bench-multihost-report.py" "$OUT" $(for g in $GRIDS; do basename "$g"; done)
[ "$finalize_hangs" = 0 ] || echo "note: $finalize_hangs run(s) ended by the harness after their results: a rank hung in MPI_Finalize (UCX over TCP, like openucx/ucx#8738)"
echo "logs, results.csv and bench-multihost.png in $OUT"
