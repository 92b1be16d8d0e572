#!/usr/bin/env bash
# Simulated all-to-all timings on grid platforms (SimGrid SMPI, deterministic): every SMPI
# built-in algorithm, the mpich and ompi selectors, gridcoll's lg and auto, at block sizes
# MIN..MAX (powers of FACTOR), on g5k2 32+32 and on the 16+48 layout of g5k2_64.
# Writes out/bench-grid/raw.csv, then scripts/bench-grid-report.py prints the table with
# the lower bounds and writes results.csv and alltoall.png beside it.
#   BUILD=build SMPIRUN=smpirun scripts/bench-grid.sh      (after `make smpi`)
# Knobs: MIN MAX FACTOR (bytes; default 1024 1048576 4), JOBS (parallel runs, default 2),
# ALGORITHMS (names as below), LAYOUTS (g5k2 16x48), OUT (out/bench-grid), RESUME=1 (keep
# raw.csv and run only the layout/algorithm pairs it lacks).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=${PLATFORMS:-$PWD/platforms} # platforms/README.md
OUT=${OUT:-out/bench-grid}
MIN=${MIN:-1024} MAX=${MAX:-1048576} FACTOR=${FACTOR:-4} JOBS=${JOBS:-2}
# SMPI's own list (smpirun --cfg=smpi/alltoall:x names them), less "automatic", which times
# every algorithm at every call; mpich and ompi run as selectors (smpi/coll-selector).
# The default run leaves out the barrier variants of pair and ring and pair_rma (the same
# exchanges with extra synchronisation, never faster in simulation) to stay near 20 minutes
# on 2 cores; ALGORITHMS=all runs them all.
SMPI_ALL="default 2dmesh 3dmesh basic_linear bruck pair pair_rma pair_light_barrier
  pair_mpi_barrier pair_one_barrier rdb ring ring_light_barrier ring_mpi_barrier
  ring_one_barrier mvapich2 mvapich2_scatter_dest impi"
SMPI_ALGORITHMS="default 2dmesh 3dmesh basic_linear bruck pair rdb ring mvapich2
  mvapich2_scatter_dest impi"
case ${ALGORITHMS:-} in
  all) ALGORITHMS="lg auto selector:mpich selector:ompi $SMPI_ALL" ;;
  '') ALGORITHMS="lg auto selector:mpich selector:ompi $SMPI_ALGORITHMS" ;;
esac
LAYOUTS=${LAYOUTS:-"g5k2 16x48"}
BENCH=$(realpath "$BUILD/smpi/alltoall_bench")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
cat >"$work/grid.cfg" <<'CFG'
clusters = ( { name = "nancy"; hosts = [ "nancy-*" ]; }, { name = "rennes"; hosts = [ "rennes-*" ]; } );
network = {
  lan = { alpha = "50 us"; beta = "1 Gbit/s"; };
  wan = { latency = ( ("0", "5.5 ms"), ("5.5 ms", "0") );
          bandwidth = ( ("0", "10 Gbit/s"), ("10 Gbit/s", "0") ); };
};
CFG

# One simulation: all sizes of one algorithm on one layout; prints "layout,algorithm,m,s".
# Platform flags of platforms/README.md; buffers of 32 MiB and more come from
# SMPI's shared malloc (LG's and the algorithms' temporaries at 1 MiB blocks).
one() {
  local layout=$1 algorithm=$2 platform hosts flags=() env=(GRIDCOLL_CONFIG="$work/grid.cfg")
  case $layout in
    g5k2) platform=$P/g5k2.xml hosts=$P/hosts_g5k2_32x32.txt ;;
    16x48) platform=$P/g5k2_64.xml hosts=$P/hosts_g5k2_16x48.txt ;;
  esac
  case $algorithm in
    lg | auto) env+=(GRIDCOLL_ALLTOALL="$algorithm") ;;
    selector:*) env+=(GRIDCOLL_ALLTOALL=native) flags+=(--cfg=smpi/coll-selector:"${algorithm#selector:}") ;;
    *) env+=(GRIDCOLL_ALLTOALL=native) flags+=(--cfg=smpi/alltoall:"$algorithm") ;;
  esac
  local log="$work/$layout-${algorithm/:/-}.log"
  (cd "$work" && env "${env[@]}" timeout 900 "$SMPIRUN" -platform "$platform" -hostfile "$hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical "${flags[@]}" \
    "$BENCH" "$MIN" "$MAX" "$FACTOR" 1 1 >"$log" 2>&1)
  sed -n "s/^bench,[0-9]*,/$layout,$algorithm,/p" "$log"
  grep -q "^bench,[0-9]*,$MAX," "$log" || echo "bench-grid: $layout $algorithm incomplete (see below)" >&2
  grep -q "^bench,[0-9]*,$MAX," "$log" || grep -v '^bench' "$log" | tail -3 >&2
}
export -f one
export P BENCH MIN MAX FACTOR work SMPIRUN

start=$SECONDS
[ "${RESUME:-0}" = 1 ] && [ -s "$OUT/raw.csv" ] || echo "layout,algorithm,m,seconds" >"$OUT/raw.csv"
for layout in $LAYOUTS; do for a in $ALGORITHMS; do
  grep -q "^$layout,$a,$MAX," "$OUT/raw.csv" || echo "$layout $a"
done; done |
  xargs -P "$JOBS" -L 1 bash -c 'one "$0" "$1"' >>"$OUT/raw.csv"
echo "bench-grid: $(($(wc -l <"$OUT/raw.csv") - 1)) timings in $((SECONDS - start)) s (wall)"
# Debian's python3 has matplotlib; a python3 earlier on the PATH may not.
"${PYTHON:-$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}" scripts/bench-grid-report.py "$OUT"
