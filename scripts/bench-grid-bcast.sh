#!/usr/bin/env bash
# Simulated broadcast timings on korea8 (SimGrid SMPI, deterministic): every SMPI built-in
# broadcast algorithm, the mpich and ompi selectors (GRIDCOLL_BCAST=native for those),
# gridcoll's trees (flat binomial hlot spt greedy multilevel auto) and the hlot, greedy and
# spt trees pipelined in 64 KiB segments (bcast.segment in a copy of examples/korea8.cfg),
# from roots in clusters A (rank 0), C (rank 8) and E (rank 16), at sizes 2 B .. 1 MiB.
# Writes out/bench-grid/bcast-raw.csv, then scripts/bench-grid-bcast-report.py prints the
# tables with the SPT bound and writes bcast.csv and bcast.png beside it.
#   BUILD=build SMPIRUN=smpirun scripts/bench-grid-bcast.sh      (after `make smpi`)
# Knobs: MIN MAX FACTOR (bytes; default 2 1048576 32: 2 64 2048 65536 1048576), ROOTS
# (default "0 8 16"), JOBS (parallel runs, default 2), ALGORITHMS (names as below), OUT,
# PYTHON (for the report; default Debian's /usr/bin/python3, which has matplotlib).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=${PLATFORMS:-$PWD/platforms} # platforms/README.md
[ -e "$P/korea8.xml" ] || { echo "bench-grid-bcast: no $P/korea8.xml (set PLATFORMS)" >&2; exit 1; }
OUT=${OUT:-out/bench-grid}
MIN=${MIN:-2} MAX=${MAX:-1048576} FACTOR=${FACTOR:-32} JOBS=${JOBS:-2}
ROOTS=${ROOTS:-"0 8 16"}
# SimGrid 3.32's broadcast algorithms (--cfg=smpi/bcast:x), less "automatic", which times
# every algorithm at every call, and less three that crash at the first call on korea8 from
# every root tried: SMP_linear and ompi_split_bintree (abort, code 134), arrival_scatter
# (segmentation fault, 139). mpich and ompi run as selectors (smpi/coll-selector).
SMPI_ALGORITHMS="default binomial_tree flattree flattree_pipeline NTSB NTSL NTSL_Isend
  scatter_LR_allgather scatter_rdb_allgather SMP_binary SMP_binomial arrival_pattern_aware
  arrival_pattern_aware_wait mvapich2 mvapich2_inter_node mvapich2_intra_node
  mvapich2_knomial_intra_node ompi_pipeline impi"
GRIDCOLL_ALGORITHMS="flat binomial hlot spt greedy multilevel auto hlot+seg greedy+seg spt+seg"
ALGORITHMS=${ALGORITHMS:-"$GRIDCOLL_ALGORITHMS selector:mpich selector:ompi $SMPI_ALGORITHMS"}
BENCH=$(realpath "$BUILD/smpi/bcast_bench")
CONFIG=$(realpath examples/korea8.cfg)
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
# The segmented variant: the same grid, trees pipelined in 64 KiB segments.
sed 's/^bcast = .*/bcast = { algorithm = "auto"; segment = "64 KiB"; };/' "$CONFIG" >"$work/seg.cfg"
grep -q 'segment = "64 KiB"' "$work/seg.cfg" || { echo "bench-grid-bcast: no bcast line in $CONFIG" >&2; exit 1; }

# One simulation: all sizes of one algorithm from one root; prints "root,algorithm,m,s".
one() {
  local root=$1 algorithm=$2 flags=() env=(GRIDCOLL_CONFIG="$CONFIG")
  case $algorithm in
    *+seg) env=(GRIDCOLL_CONFIG="$work/seg.cfg" GRIDCOLL_BCAST="${algorithm%+seg}") ;;
    flat | binomial | hlot | spt | greedy | multilevel | auto) env+=(GRIDCOLL_BCAST="$algorithm") ;;
    selector:*) env+=(GRIDCOLL_BCAST=native) flags+=(--cfg=smpi/coll-selector:"${algorithm#selector:}") ;;
    *) env+=(GRIDCOLL_BCAST=native) flags+=(--cfg=smpi/bcast:"$algorithm") ;;
  esac
  local log="$work/$root-${algorithm/:/-}.log"
  (cd "$work" && env "${env[@]}" timeout 120 "$SMPIRUN" -platform "$P/korea8.xml" \
    -hostfile "$P/hosts_korea8.txt" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --log=root.thres:critical \
    "${flags[@]}" "$BENCH" "$MIN" "$MAX" "$FACTOR" 1 1 "$root" >"$log" 2>&1)
  sed -n "s/^bench,[0-9]*,/$root,$algorithm,/p" "$log"
  grep -q "^bench,[0-9]*,$MAX," "$log" || echo "bench-grid-bcast: root $root $algorithm incomplete (see below)" >&2
  grep -q "^bench,[0-9]*,$MAX," "$log" || grep -v '^bench' "$log" | tail -3 >&2
}
export -f one
export P BENCH CONFIG SMPIRUN MIN MAX FACTOR work

start=$SECONDS
echo "root,algorithm,m,seconds" >"$OUT/bcast-raw.csv"
for root in $ROOTS; do for a in $ALGORITHMS; do echo "$root $a"; done; done |
  xargs -P "$JOBS" -L 1 bash -c 'one "$0" "$1"' >>"$OUT/bcast-raw.csv"
echo "bench-grid-bcast: $(($(wc -l <"$OUT/bcast-raw.csv") - 1)) timings in $((SECONDS - start)) s (wall)"
# Debian's python3 has python3-matplotlib (scripts/deps.sh); a python3 earlier in PATH may not.
[ -x /usr/bin/python3 ] && PYTHON=${PYTHON:-/usr/bin/python3}
"${PYTHON:-python3}" scripts/bench-grid-bcast-report.py "$OUT" "$CONFIG" "$P/hosts_korea8.txt"
