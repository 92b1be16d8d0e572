#!/usr/bin/env bash
# bench-nbc-multihost: gridcoll's nonblocking schedules on real TCP with real wide-area
# latency (issue 28), on a network-namespace grid of scripts/grid-up (default
# test/multihost/grid3.cfg: a and b of 2 hosts, c of 1; a-b 20 ms at 50 Mbit/s direct
# against 3 + 4 ms through c), one rank per host. test/multihost/nbcbench (its header says
# how it times) runs each size's blocking call, the nonblocking one waited for at once
# (pure), and the nonblocking one with as much computation as pure between post and wait,
# an MPI_Test every SLICE_US; per run and size it prints the medians, pure / blocking
# (gridcoll's schedule against its own blocking algorithm: issue 28 wants within 10%) and
# the median overlap, OSU's figure (the share of the call hidden: issue 28 wants 70%):
#   lg:     MPI_Ialltoall by LG's schedule (GRIDCOLL_NONBLOCKING=grid, GRIDCOLL_ALLTOALL=lg)
#   native: the MPI library's own MPI_Ialltoall (and MPI_Alltoall)
#   hlot:   MPI_Ibcast from ROOT by HLOT's tree as a schedule; native: the library's own
#   and the persistent forms by the same schedules (alltoall_init-lg, bcast_init-hlot: an
#   MPI_Start of one MPI_Alltoall_init / MPI_Bcast_init a size), and MPI_Alltoallv_init by
#   LG-v's (alltoallv_init-lg: every count the block, against the blocking MPI_Alltoallv
#   by LG-v)
# The log (GRIDCOLL_LOG_MODE=local) must show every timed nonblocking call run by the
# schedule asked for (lg-nb, hlot-nb, lg-persistent, hlot-persistent), or the run fails.
#
#   GRID=grid3.cfg MAX=262144 REPS=11 SLICE_US=1000 ROOT=0 OUT=out/bench-nbc-multihost
#   CONFIG=FILE: what gridcoll reads (default: the grid's description; one with
#     `bcast = { segment = ...; };` times the segmented trees)
#   RUNS="ibcast-hlot bcast_init-hlot": some of the runs (default all seven, in this order:
#     ialltoall-lg ialltoall-native ibcast-hlot ibcast-native alltoall_init-lg
#     bcast_init-hlot alltoallv_init-lg)
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/..")
GRID=${GRID:-grid3.cfg}
MAX=${MAX:-262144}
REPS=${REPS:-11}
SLICE_US=${SLICE_US:-1000}
ROOT=${ROOT:-0}
OUT=${OUT:-out/bench-nbc-multihost}
ALL_RUNS="ialltoall-lg ialltoall-native ibcast-hlot ibcast-native alltoall_init-lg bcast_init-hlot alltoallv_init-lg"
RUNS=${RUNS:-$ALL_RUNS}
for r in $RUNS; do
  [[ " $ALL_RUNS " == *" $r "* ]] || { echo "bench-nbc-multihost: RUNS: no run $r (runs: $ALL_RUNS)" >&2; exit 2; }
done

source "$GRID_ROOT/test/multihost/lib.sh"
source "$GRID_ROOT/scripts/nbc-lib.sh"
grid_session bench-nbc-multihost
PROG=$TOOLS/nbcbench
[ -f "$GRID" ] || GRID=$GRID_ROOT/test/multihost/$GRID
GRID=$(realpath "$GRID")
CONFIG=$(realpath "${CONFIG:-$GRID}")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
cd "$tmp" || exit 1

"$GRID_ROOT/scripts/grid-up" -f "$GRID" >/dev/null || exit 1
grid_built=1
read -r -a hosts <<<"$(sed -n 's/^hosts=//p' "${GRID_STATE:-/run/gridcoll-grid}/grid")"
N=${#hosts[@]}
echo "bench-nbc-multihost: $(basename "$GRID"), $N ranks, one per host; MPICH over TCP; 1 KiB..$MAX B, $REPS rounds, MPI_Test every $SLICE_US us; load average $(cut -d' ' -f1-3 /proc/loadavg)"

# run NAME OP WANT VAR=VALUE...: one nbcbench run; its rows in $OUT/NAME.csv. WANT: the
# algorithm the log must show on every nonblocking call ("-": none asked).
run() {
  local name=$1 op=$2 want=$3 genv=() v args
  [[ " $RUNS " == *" $name "* ]] || return 0
  args=("$op" "$MAX" "$REPS" "$SLICE_US")
  shift 3
  case $op in ibcast | bcast_init) args+=("$ROOT") ;; esac
  for v in "$@"; do genv+=(-genv "${v%%=*}" "${v#*=}"); done
  rm -f "$tmp"/log-*.csv
  grid_mpirun 900 "grep -q '^nbcbench: done' out && [ \$(ls $tmp/log-*.csv 2>/dev/null | wc -l) = $N ]" -- \
    -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$CONFIG" -genv GRIDCOLL_LOG "$tmp/log-%r.csv" \
    -genv GRIDCOLL_LOG_MODE local -genv GRIDCOLL_SUMMARY 0 "${genv[@]}" -n "$N" nice "$PROG" "${args[@]}"
  if [ "$rc" != 0 ] || ! grep -q '^nbcbench: done' out; then
    echo "bench-nbc-multihost: $name failed (exit $rc):" >&2
    sed 's/^/  | /' out err | head -20 >&2
    exit 1
  fi
  grep -E "^$op," out >"$OUT/$name.csv"
  nbc_ran bench-nbc-multihost "$name" "$tmp/log-0.csv" "$op" "$N" "$want" "$OUT/$name.ran" || exit 1
}

run ialltoall-lg ialltoall lg-nb GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg
run ialltoall-native ialltoall - GRIDCOLL_NONBLOCKING=native GRIDCOLL_ALLTOALL=native
run ibcast-hlot ibcast hlot-nb GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot
run ibcast-native ibcast - GRIDCOLL_NONBLOCKING=native GRIDCOLL_BCAST=native
run alltoall_init-lg alltoall_init lg-persistent GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg
run bcast_init-hlot bcast_init hlot-persistent GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot
run alltoallv_init-lg alltoallv_init lg-persistent GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg
"$GRID_ROOT/scripts/grid-down"
grid_built=0

echo
# shellcheck disable=SC2086 # the runs, a word each
nbc_table "" $RUNS
[ "$finalize_hangs" = 0 ] || echo "($finalize_hangs runs ended after their results: a rank hung in MPI_Finalize, doc/grid-rig.md)"
echo "rows in $OUT"
