#!/usr/bin/env bash
# What the log costs a call on one node, as a share of the call (issue 24): the one-process
# comparison of test/bench/passthrough (blocks of logged MPI_ calls against blocks of PMPI_
# calls, alternating) on 2 ranks bound to cores, MPICH through shared memory, for every
# library given and every log setting:
#   off      GRIDCOLL_LOG unset: the wrapper alone (auto on one cluster), the noise floor;
#   bare     the bare timing: two clock reads and the record (GRIDCOLL_LOG_MODE=local,
#            GRIDCOLL_SUMMARY=0 and a log file that cannot be opened: no window, no text,
#            no summary);
#   summary  the bare timing and the summary's sums (local mode, GRIDCOLL_SUMMARY=1, no file);
#   text     the bare timing and the lines kept for the file (local mode, a file, no
#            summary): the spool during the calls, the text at MPI_Finalize;
#   window   the bare timing and the sync mode's window and its allreduce (a file that
#            cannot be opened, no summary): what sync adds but its text;
#   log      the log as users turn it on (GRIDCOLL_LOG alone: sync mode and its summary).
# The parts are measured apart, so their sum need not be the whole (caches, the order in
# which the two ranks pay).
# RUNS runs of each pair (library, setting), every round in a rotated order, so that the
# libraries compared see the same machine at nearly the same time. Each run prints the
# median of its per-block differences (passthrough.c); the row gives the median of those
# over the runs and their range, the library's own call (PMPI_, median over the runs), the
# share the median adds to it, and the median over the runs of each run's mean difference
# (which counts in full what comes every 128 calls, the window's allreduce, where the median
# counts it only as far as blocks of N calls hold it; a loaded machine's descheduling swamps
# the mean), and what rank 0's MPI_Finalize took (where the log writes its text: doc/log.md).
# Printed first: the load average (on a loaded machine the per-run medians spread
# over tens of ns and more) and what one clock read costs, each way (test/bench/clock_read).
#
#   scripts/bench-log-share.sh [LIB...]   (default: $BUILD/libgridcoll.so)
#   env: BUILD, MPIEXEC, RUNS=5, OP=bcast, BYTES=65536, N=200 calls a block, ROUNDS=301,
#        SETTINGS="off bare log" (any of off bare summary text window log), BIND="-bind-to core"
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
RUNS=${RUNS:-5}
OP=${OP:-bcast}
BYTES=${BYTES:-65536}
N=${N:-200}
ROUNDS=${ROUNDS:-301}
SETTINGS=${SETTINGS:-off bare log}
BIND=${BIND--bind-to core}
read -r -a bind <<<"$BIND"
read -r -a settings <<<"$SETTINGS"
[ $# -gt 0 ] || set -- "$BUILD/libgridcoll.so"
libs=()
for l in "$@"; do libs+=("$(realpath "$l")"); done
PT=$(realpath "$BUILD/test/bench/passthrough")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# envof SETTING: the launcher's -env words.
envof() {
  case $1 in
    off) ;;
    bare) echo "-env GRIDCOLL_LOG $tmp/no-such-dir/l-%r.csv -env GRIDCOLL_LOG_MODE local -env GRIDCOLL_SUMMARY 0" ;;
    summary) echo "-env GRIDCOLL_LOG_MODE local -env GRIDCOLL_SUMMARY 1" ;;
    text) echo "-env GRIDCOLL_LOG $tmp/l-%r.csv -env GRIDCOLL_LOG_MODE local -env GRIDCOLL_SUMMARY 0" ;;
    window) echo "-env GRIDCOLL_LOG $tmp/no-such-dir/l-%r.csv -env GRIDCOLL_SUMMARY 0" ;;
    log) echo "-env GRIDCOLL_LOG $tmp/l-%r.csv" ;;
  esac
}
for s in "${settings[@]}"; do
  case $s in
    off | bare | summary | text | window | log) ;;
    *) echo "bench-log-share: unknown setting $s (off bare summary text window log)" >&2; exit 2 ;;
  esac
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; MPICH, 2 ranks ($BIND);" \
  "passthrough $OP $BYTES $N $ROUNDS, $RUNS runs a row"
CR="$BUILD/test/bench/clock_read"
[ -x "$CR" ] && timeout 120 "$MPIEXEC" -n 1 "${bind[@]}" "$CR" 2>/dev/null
pairs=()
for i in "${!libs[@]}"; do
  for s in "${settings[@]}"; do pairs+=("$i $s"); done
done
for r in $(seq "$RUNS"); do
  k=${#pairs[@]}
  for j in $(seq 0 $((k - 1))); do
    read -r i s <<<"${pairs[$(((j + r) % k))]}"
    # shellcheck disable=SC2046 # words from envof
    out=$(timeout 300 "$MPIEXEC" -n 2 "${bind[@]}" -env LD_PRELOAD "${libs[$i]}" $(envof "$s") \
      "$PT" "$OP" "$BYTES" "$N" "$ROUNDS" 2>/dev/null)
    rm -f "$tmp"/l-*.csv
    # passthrough OP BYTES N ROUNDS mpi_ns pmpi_ns added_ns ...
    [ -n "$out" ] && echo "$out" | awk -v key="$i-$s" '/^passthrough/ { print key, $7, $8, $11 }' >>"$tmp/runs"
    # finalize LINES MS: rank 0's MPI_Finalize, which writes the log's lines
    echo "$out" | awk -v key="$i-$s" '/^finalize/ { print key, $2, $3 }' >>"$tmp/finalize"
  done
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-4s %-7s %9s %10s %19s %8s %9s %12s  %s\n' lib log "PMPI_ ns" "added ns" "added min..max" share "mean ns" "finalize ms" "(per run)"
for i in "${!libs[@]}"; do
  for s in "${settings[@]}"; do
    key="$i-$s"
    base=$(awk -v k="$key" '$1 == k { print $2 }' "$tmp/runs" 2>/dev/null | median)
    added=$(awk -v k="$key" '$1 == k { print $3 }' "$tmp/runs" 2>/dev/null | median)
    [ -n "$added" ] || { printf '%-4s %-7s  (no result)\n' "$i" "$s"; continue; }
    each=$(awk -v k="$key" '$1 == k { printf "%s%.0f", n++ ? " " : "", $3 }' "$tmp/runs")
    range=$(awk -v k="$key" '$1 == k { if (n++ == 0 || $3 < lo) lo = $3; if (n == 1 || $3 > hi) hi = $3 }
                             END { printf "%.1f..%.1f", lo, hi }' "$tmp/runs")
    mean=$(awk -v k="$key" '$1 == k { print $4 }' "$tmp/runs" | median)
    fin=$(awk -v k="$key" '$1 == k { print $3 }' "$tmp/finalize" 2>/dev/null | median)
    printf '%-4s %-7s %9.1f %10.1f %19s %7.1f%% %9.1f %12s  %s\n' "$i" "$s" "$base" "$added" "$range" \
      "$(awk -v a="$added" -v b="$base" 'BEGIN { print 100 * a / b }')" "$mean" "${fin:--}" "$each"
  done
done
for i in "${!libs[@]}"; do echo "lib $i: ${libs[$i]}"; done
echo "finalize ms: rank 0's MPI_Finalize, the median over the runs; each run logged" \
  "$(awk 'NR == 1 { print $2 }' "$tmp/finalize" 2>/dev/null) calls a rank"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
