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
# quartiles, their mean and its standard error, the mean over the library's time and that
# share's upper bound (mean + 2 standard errors). The mean is the verdict: the median skips what comes every 128 calls (the window's
# allreduce) or every 64 KiB of text, when blocks are short. The log is as GRIDCOLL_LOG
# alone makes it: its summary on, the default sync mode (completion times assembled every
# 128 calls by a nonblocking allreduce, part of what is timed). Each row runs about
# ROW_SECONDS: blocks of about 4 ms (one call at 256 KiB and above), as many rounds as
# fit (at least ROUNDS), so that the standard error of a 64 KiB row's mean is a fraction of
# a percent although single blocks vary by 10-20%.
#
#   WHERE=lan SIZES="8 65536 262144 1048576" ROW_SECONDS=15 ROUNDS=101 OUT=out/bench-log-multihost
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/..")
SIZES=${SIZES:-8 65536 262144 1048576}
ROUNDS=${ROUNDS:-101}
ROW_SECONDS=${ROW_SECONDS:-15}
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

# The library's call on the lan, roughly (last measured: 8 B 10-22 us, 64 KiB 1.7-2.7 ms,
# 1 MiB 22-38 ms): 10 us + 26 ns a byte. calls_per_block WHERE BYTES: blocks of about 4
# ms on the lan; one call on the wan, where one 64 KiB call already takes milliseconds.
# rounds_for WHERE BYTES CALLS: as many rounds as fill ROW_SECONDS, at least ROUNDS.
call_s() { awk -v b="$1" 'BEGIN { print 1e-5 + 2.6e-8 * b }'; }
calls_per_block() {
  case $1 in
    lan) awk -v t="$(call_s "$2")" 'BEGIN { n = int(4e-3 / t); print n < 1 ? 1 : n }' ;;
    wan) echo 1 ;;
  esac
}
rounds_for() {
  case $1 in
    lan) awk -v t="$(call_s "$2")" -v n="$3" -v s="$ROW_SECONDS" -v min="$ROUNDS" \
      'BEGIN { r = int(s / (2 * n * t)); print r < min ? min : r }' ;;
    wan) echo "$ROUNDS" ;;
  esac
}

"$GRID_ROOT/scripts/grid-up" -f "$CFG" >/dev/null || exit 1
grid_built=1
echo "bench-log-multihost: $(basename "$CFG"), MPICH over TCP, about $ROW_SECONDS s a row; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %-9s %8s %5s %6s %11s %11s %9s %19s %17s %8s %8s\n' where op bytes calls rounds "MPI_ ns" \
  "PMPI_ ns" "median" "median q1..q3" "mean +- se" "log cost" "<= (2 se)"
for where in $WHERE; do
  ranks=2
  [ "$where" = wan ] && ranks=4
  for op in bcast alltoall; do
    for bytes in $SIZES; do
      n=$(calls_per_block "$where" "$bytes")
      rounds=$(rounds_for "$where" "$bytes" "$n")
      rm -f "$tmp"/log-*.csv
      grid_mpirun 600 "grep -q '^passthrough' out" -- \
        -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$CFG" -genv GRIDCOLL_BCAST native \
        -genv GRIDCOLL_ALLTOALL native -genv GRIDCOLL_LOG "$tmp/log-%r.csv" \
        -n "$ranks" "$PROG" "$op" "$bytes" "$n" "$rounds"
      line=$(grep '^passthrough' out)
      if [ -z "$line" ]; then
        echo "bench-log-multihost: $where $op $bytes failed (exit $rc):" >&2
        sed 's/^/  | /' out err | head -20 >&2
        exit 1
      fi
      # Every timed MPI_ call must be in the log: otherwise the log was not on.
      logged=$(grep -c ",$op,native," "$tmp/log-0.csv" 2>/dev/null)
      [ "${logged:-0}" -ge $((n * rounds)) ] || { echo "bench-log-multihost: $where $op $bytes: only $logged calls logged" >&2; exit 1; }
      read -r _ _ _ _ _ mpi pmpi added q1 q3 mean se _ <<<"$line"
      printf '%-4s %-9s %8s %5s %6s %11.1f %11.1f %9.1f %9.1f..%-9.1f %8.1f+-%-8.1f %+7.2f%% %+7.2f%%\n' \
        "$where" "$op" "$bytes" "$n" "$rounds" "$mpi" "$pmpi" "$added" "$q1" "$q3" "$mean" "$se" \
        "$(awk -v a="$mean" -v p="$pmpi" 'BEGIN { print 100 * a / p }')" \
        "$(awk -v a="$mean" -v e="$se" -v p="$pmpi" 'BEGIN { print 100 * (a + 2 * e) / p }')"
      cp out "$OUT/$where-$op-$bytes.out"
    done
  done
done
[ "$finalize_hangs" = 0 ] || echo "($finalize_hangs runs ended after their results: a rank hung in MPI_Finalize, doc/grid-rig.md)"
