#!/usr/bin/env bash
# bench-log-multihost: what gridcoll's log costs a call that crosses a real network (issue
# 13: "on real MPICH, logging on costs the application less than 2% at 64 KiB and
# above"), on the network-namespace grid of scripts/grid-up (test/multihost/grid2.cfg:
# 2 x 2 hosts, TCP between them, 5 ms and 100 Mbit/s between the clusters).
#
# test/bench/passthrough, preloaded with gridcoll and its log on, times blocks of MPI_<op>
# (gridcoll's wrapper: the call, its record and its line) and of PMPI_<op> (the library
# alone, never logged) in alternation inside each process, so both see the same network
# at nearly the same moment; the paired differences are the log's cost (and the
# wrapper's, a few ns). Both run the library's own algorithm (GRIDCOLL_BCAST and
# GRIDCOLL_ALLTOALL forced to native): the difference is not an algorithm's.
#   lan: 2 ranks on gc-a1 and gc-a2, one cluster: TCP over the cluster's bridge, no delay
#        (the shortest calls a real network gives, so the log's largest share)
#   wan: 4 ranks, 2 per cluster, across the 5 ms wide area (WHERE="lan wan"; one call a
#        block: milliseconds each, the log's microsecond or two is far below their noise)
# Per row: the medians of the per-call times, the median paired difference and its
# quartiles, and that difference over the library's time. The log is as GRIDCOLL_LOG alone
# makes it: its summary on, the default sync mode (completion times assembled every 128
# calls by a nonblocking allreduce, part of what is timed).
#
#   WHERE=lan SIZES="8 65536 262144 1048576" ROUNDS=101 OUT=out/bench-log-multihost
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/..")
SIZES=${SIZES:-8 65536 262144 1048576}
ROUNDS=${ROUNDS:-101}
WHERE=${WHERE:-lan}
OUT=${OUT:-out/bench-log-multihost}
FINALIZE_GRACE=${FINALIZE_GRACE:-10}
finalize_hangs=0

source "$GRID_ROOT/test/multihost/lib.sh"
grid_session bench-log-multihost
PROG=$(realpath "$BUILD/test/bench/passthrough")
CFG=$GRID_ROOT/test/multihost/grid2.cfg
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
cd "$tmp" || exit 1

# calls_per_block WHERE BYTES: enough calls that a block lasts about 2 ms (lan) or one
# call (wan, where one 64 KiB call already takes milliseconds).
calls_per_block() {
  case $1 in
    lan) awk -v b="$2" 'BEGIN { n = int(2e6 / (2000 + b / 2)); print n < 1 ? 1 : n }' ;;
    wan) echo 1 ;;
  esac
}

"$GRID_ROOT/scripts/grid-up" -f "$CFG" >/dev/null || exit 1
grid_built=1
echo "bench-log-multihost: $(basename "$CFG"), MPICH over TCP, $ROUNDS rounds a row; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-9s %8s %5s %11s %11s %9s %19s %8s\n' where op bytes calls "MPI_ ns" "PMPI_ ns" added \
  "added q1..q3" "log cost"
for where in $WHERE; do
  ranks=2
  [ "$where" = wan ] && ranks=4
  for op in bcast alltoall; do
    for bytes in $SIZES; do
      n=$(calls_per_block "$where" "$bytes")
      rm -f "$tmp"/log-*.csv
      grid_mpirun 600 "grep -q '^passthrough' out" -- \
        -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$CFG" -genv GRIDCOLL_BCAST native \
        -genv GRIDCOLL_ALLTOALL native -genv GRIDCOLL_LOG "$tmp/log-%r.csv" \
        -n "$ranks" "$PROG" "$op" "$bytes" "$n" "$ROUNDS"
      line=$(grep '^passthrough' out)
      if [ -z "$line" ]; then
        echo "bench-log-multihost: $where $op $bytes failed (exit $rc):" >&2
        sed 's/^/  | /' out err | head -20 >&2
        exit 1
      fi
      # Every timed MPI_ call must be in the log: otherwise the log was not on.
      logged=$(grep -c ",$op,native," "$tmp/log-0.csv" 2>/dev/null)
      [ "${logged:-0}" -ge $((n * ROUNDS)) ] || { echo "bench-log-multihost: $where $op $bytes: only $logged calls logged" >&2; exit 1; }
      read -r _ _ _ _ _ mpi pmpi added q1 q3 <<<"$line"
      printf '%-4s %-9s %8s %5s %11.1f %11.1f %9.1f %9.1f..%-9.1f %+7.2f%%\n' "$where" "$op" "$bytes" "$n" \
        "$mpi" "$pmpi" "$added" "$q1" "$q3" "$(awk -v a="$added" -v p="$pmpi" 'BEGIN { print 100 * a / p }')"
      cp out "$OUT/$where-$op-$bytes.out"
    done
  done
done
[ "$finalize_hangs" = 0 ] || echo "($finalize_hangs runs ended after their results: a rank hung in MPI_Finalize, doc/grid-rig.md)"
