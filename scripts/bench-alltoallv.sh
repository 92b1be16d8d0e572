#!/usr/bin/env bash
# Simulated MPI_Alltoallv timings (SimGrid SMPI, deterministic): test/bench/alltoallv_bench
# (uniform, skewed and FFT-transpose counts; MPI_Alltoall at the uniform sizes too) with
# gridcoll's lg and auto against SMPI's own alltoallv algorithms and the mpich and ompi
# selectors, on g5k2 32+32, the uneven 16+48 layout of g5k2_64 and korea8 (8 clusters of 4).
# Writes OUT/raw.csv, then scripts/bench-alltoallv-report.py prints the table (best native
# against lg, ratios) and writes results.csv and alltoallv.png beside it.
#   BUILD=build SMPIRUN=smpirun scripts/bench-alltoallv.sh      (after `make smpi`)
# Knobs: MIN MAX FACTOR (mean block bytes; default 1024 65536 8), JOBS (parallel runs,
# default 2), ALGORITHMS, LAYOUTS (g5k2 16x48 korea8), OUT (out/bench-alltoallv),
# PLATFORMS (the platform files; default platforms/),
# RESUME=1 (run only the layout/algorithm pairs raw.csv lacks).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=${PLATFORMS:-$PWD/platforms}
OUT=${OUT:-out/bench-alltoallv}
MIN=${MIN:-1024} MAX=${MAX:-65536} FACTOR=${FACTOR:-8} JOBS=${JOBS:-2}
# SMPI's alltoallv algorithms (smpirun --cfg=smpi/alltoallv:x), the barrier variants left
# out (the same exchanges with extra synchronisation); lg-alltoall is gridcoll's LG for the
# MPI_Alltoall points, with SMPI's default alltoallv beside it.
ALGORITHMS=${ALGORITHMS:-"lg auto selector:mpich selector:ompi default bruck pair ring ompi_basic_linear"}
LAYOUTS=${LAYOUTS:-"g5k2 16x48 korea8"}
BENCH=$(realpath "$BUILD/smpi/alltoallv_bench")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
cat >"$work/g5k2.cfg" <<'CFG'
clusters = ( { name = "nancy"; hosts = [ "nancy-*" ]; }, { name = "rennes"; hosts = [ "rennes-*" ]; } );
network = {
  lan = { alpha = "50 us"; beta = "1 Gbit/s"; };
  wan = { latency = ( ("0", "5.5 ms"), ("5.5 ms", "0") );
          bandwidth = ( ("0", "10 Gbit/s"), ("10 Gbit/s", "0") ); };
};
CFG
cp examples/korea8.cfg "$work/korea8.cfg"

# One simulation: every size and pattern of one algorithm on one layout; prints
# "layout,algorithm,op,pattern,m,s". MPI_Alltoall runs gridcoll's lg under lg and auto
# (its own auto), SMPI's pair otherwise (test/smpi/run.sh says why not its default).
one() {
  local layout=$1 algorithm=$2 platform hosts cfg flags=() env=()
  case $layout in
    g5k2) platform=$P/g5k2.xml hosts=$P/hosts_g5k2_32x32.txt cfg=$work/g5k2.cfg ;;
    16x48) platform=$P/g5k2_64.xml hosts=$P/hosts_g5k2_16x48.txt cfg=$work/g5k2.cfg ;;
    korea8) platform=$P/korea8.xml hosts=$P/hosts_korea8.txt cfg=$work/korea8.cfg ;;
  esac
  env+=(GRIDCOLL_CONFIG="$cfg")
  case $algorithm in
    # lg also logs rank 0's calls with every algorithm's prediction: from its second call
    # of a pattern on, both models read the matrix LG-v learnt from the first (the report's
    # model errors).
    lg) { cat "$cfg"; echo 'log = { candidates = true; };'; } >"$work/$layout-lg.cfg"
        env=(GRIDCOLL_CONFIG="$work/$layout-lg.cfg" GRIDCOLL_LOG="$work/log-$layout-%r.csv"
             GRIDCOLL_ALLTOALLV=lg GRIDCOLL_ALLTOALL=lg) ;;
    auto) env+=(GRIDCOLL_ALLTOALLV="$algorithm" GRIDCOLL_ALLTOALL="$algorithm") ;;
    selector:*) env+=(GRIDCOLL_ALLTOALLV=native GRIDCOLL_ALLTOALL=native) flags+=(--cfg=smpi/coll-selector:"${algorithm#selector:}") ;;
    *) env+=(GRIDCOLL_ALLTOALLV=native GRIDCOLL_ALLTOALL=native) flags+=(--cfg=smpi/alltoallv:"$algorithm" --cfg=smpi/alltoall:pair) ;;
  esac
  local log="$work/$layout-${algorithm/:/-}.log"
  (cd "$work" && env "${env[@]}" timeout 1800 "$SMPIRUN" -platform "$platform" -hostfile "$hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical "${flags[@]}" \
    "$BENCH" "$MIN" "$MAX" "$FACTOR" 1 >"$log" 2>&1)
  [ "$algorithm" = lg ] && cp "$work/log-$layout-0.csv" "$OUT/log-$layout-lg.csv" 2>/dev/null
  sed -n "s/^bench,\([a-z]*\),\([a-z]*\),[0-9]*,/$layout,$algorithm,\1,\2,/p" "$log"
  grep -q "^bench,alltoallv,fft,[0-9]*,$MAX," "$log" ||
    { echo "bench-alltoallv: $layout $algorithm incomplete" >&2; grep -v '^bench' "$log" | tail -3 >&2; }
}
export -f one
export P BENCH MIN MAX FACTOR work SMPIRUN OUT

start=$SECONDS
[ "${RESUME:-0}" = 1 ] && [ -s "$OUT/raw.csv" ] || echo "layout,algorithm,op,pattern,m,seconds" >"$OUT/raw.csv"
for layout in $LAYOUTS; do for a in $ALGORITHMS; do
  grep -q "^$layout,$a,alltoallv,fft,$MAX," "$OUT/raw.csv" || echo "$layout $a"
done; done |
  xargs -P "$JOBS" -L 1 bash -c 'one "$0" "$1"' >>"$OUT/raw.csv"
echo "bench-alltoallv: $(($(wc -l <"$OUT/raw.csv") - 1)) timings in $((SECONDS - start)) s (wall)"
"${PYTHON:-$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}" scripts/bench-alltoallv-report.py "$OUT"
