#!/usr/bin/env bash
# bench-nbc-smpi: gridcoll's nonblocking schedules against their blocking forms under
# SimGrid's SMPI (issue 28: within 10% waited for at once, at least 70% hidden behind
# computation), with the namespace rig's benchmark (test/multihost/nbcbench.c; its header
# says how it times; under SMPI its computation is simulated, smpi_execute) on grids from
# scripts/gen-platform.py:
#   grid3    the rig's grid3 shape, one rank per host as there: a and b of 2, c of 1; a-b
#            20 ms at 50 Mbit/s, through c 3 + 4 ms at 100 Mbit/s
#   grid3x6  the same links, 12, 12 and 6 hosts, ranks interleaved
# Runs (each with GRIDCOLL_NONBLOCKING=grid; SMPI is MPI 3.1, no persistent collectives):
#   ialltoall-lg  MPI_Ialltoall by LG's schedule    ibcast-hlot  MPI_Ibcast by HLOT's tree
#   ialltoallv-lg MPI_Ialltoallv by LG-v's schedule (every count the block; beyond what
#                 a slot holds, its direct exchange: the .ran file says which ran)
#   ialltoall-native, ibcast-native, ialltoallv-native: SMPI's own, for reference
# Network: SimGrid's default (its latency and bandwidth factors on, SMPI's default
# network); the configuration states the platform (--network), it is not calibrated, and
# the algorithms are forced, so it only decides the tree HLOT builds. SMPI charges each
# MPI_Test TEST seconds of simulated time: 0.1 us by default here, of the order of a real
# MPI_Test, where SMPI's own default (100 us) would make every poll of a schedule, one
# test per step in flight, a tenth of a millisecond; a schedule's pace depends on it
# (doc/benchmarks.md shows 1 us too). Deterministic: one round a size (REPS=1) says it.
#   BUILD=build scripts/bench-nbc-smpi.sh   (after make smpi; about 10 s)
#   env: GRIDS="grid3 grid3x6", RUNS (the four above), MAX=262144, REPS=1, SLICE_US=1000,
#        ROOT=0, TEST=1e-7, OUT=out/bench-nbc-smpi
set -u
cd "$(dirname "$0")/.." || exit 1
source scripts/nbc-lib.sh
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
GRIDS=${GRIDS:-grid3 grid3x6}
ALL_RUNS="ialltoall-lg ialltoall-native ibcast-hlot ibcast-native ialltoallv-lg ialltoallv-native"
RUNS=${RUNS:-$ALL_RUNS}
MAX=${MAX:-262144} REPS=${REPS:-1} SLICE_US=${SLICE_US:-1000} ROOT=${ROOT:-0}
TEST=${TEST:-1e-7}
OUT=${OUT:-out/bench-nbc-smpi}
PROG=$(realpath "$BUILD/smpi/nbcbench")
for r in $RUNS; do
  [[ " $ALL_RUNS " == *" $r "* ]] || { echo "bench-nbc-smpi: RUNS: no run $r (runs: $ALL_RUNS)" >&2; exit 2; }
done
[ -x "$PROG" ] || { echo "bench-nbc-smpi: no $PROG (make smpi)" >&2; exit 1; }
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
LINKS=(--wan-bw 100Mbps --link 0-1:20ms:50Mbps --link 0-2:3ms --link 1-2:4ms)
python3 scripts/gen-platform.py 3 2,2,1 "$work" --network --name grid3 "${LINKS[@]}" >/dev/null &&
  cp "$work/hosts_grid3.txt" "$work/grid3.hosts" &&
  python3 scripts/gen-platform.py 3 12,12,6 "$work" --interleave --network --name grid3x6 \
    "${LINKS[@]}" >/dev/null && cp "$work/hosts_grid3x6_interleaved.txt" "$work/grid3x6.hosts" ||
  { echo "bench-nbc-smpi: scripts/gen-platform.py failed" >&2; exit 1; }

# run GRID NAME OP WANT VAR=VALUE...: one simulation; its rows in $OUT/GRID-NAME.csv and
# what rank 0's log says ran each size in $OUT/GRID-NAME.ran. WANT: the algorithm the log
# must show at the smallest size ("-": none asked).
run() {
  local g=$1 name=$2 op=$3 want=$4 args dir="$work/$1-$2"
  [[ " $RUNS " == *" $name "* ]] || return 0
  shift 4
  args=("$op" "$MAX" "$REPS" "$SLICE_US")
  [ "$op" = ibcast ] && args+=("$ROOT")
  mkdir -p "$dir"
  (cd "$dir" && env GRIDCOLL_CONFIG="$work/$g.cfg" GRIDCOLL_LOG="$dir/log-%r.csv" \
    GRIDCOLL_LOG_MODE=local GRIDCOLL_SUMMARY=0 "$@" timeout 900 "$SMPIRUN" \
    -platform "$work/$g.xml" -hostfile "$work/$g.hosts" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/test:"$TEST" --log=root.thres:critical "$PROG" "${args[@]}" >out 2>&1)
  if ! grep -q '^nbcbench: done' "$dir/out"; then
    echo "bench-nbc-smpi: $g $name failed:" >&2
    grep -v '^\[' "$dir/out" | head -10 | sed 's/^/  | /' >&2
    exit 1
  fi
  grep -E "^$op," "$dir/out" >"$OUT/$g-$name.csv"
  nbc_ran bench-nbc-smpi "$g $name" "$dir/log-0.csv" "$op" "$(wc -l <"$work/$g.hosts")" "$want" \
    "$OUT/$g-$name.ran" || exit 1
}

start=$SECONDS
for g in $GRIDS; do
  run "$g" ialltoall-lg ialltoall lg-nb GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg
  run "$g" ialltoall-native ialltoall - GRIDCOLL_NONBLOCKING=native GRIDCOLL_ALLTOALL=native
  run "$g" ibcast-hlot ibcast hlot-nb GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot
  run "$g" ibcast-native ibcast - GRIDCOLL_NONBLOCKING=native GRIDCOLL_BCAST=native
  run "$g" ialltoallv-lg ialltoallv lg-nb GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg
  run "$g" ialltoallv-native ialltoallv - GRIDCOLL_NONBLOCKING=native GRIDCOLL_ALLTOALLV=native
done
echo "bench-nbc-smpi: $GRIDS; SimGrid's default network, MPI_Test $TEST s; 1 KiB..$MAX B," \
  "MPI_Test every $SLICE_US us in the computation; $((SECONDS - start)) s"
for g in $GRIDS; do
  printf '\n[%s]\n' "$g"
  # shellcheck disable=SC2086 # the runs, a word each
  nbc_table "$g-" $RUNS
done
echo "rows in $OUT"
