#!/usr/bin/env bash
# What gridcoll costs a call it does not change (issue 17), and what logging costs
# (issue 13): test/bench/overhead, linked WITHOUT gridcoll, run with and without
# LD_PRELOAD=libgridcoll.so, MPICH, 2 ranks each bound to a core.
#
# Two measures, because a loaded 2-core machine blurs tens of nanoseconds:
#  - wall clock: RUNS pairs of short runs, the two members of a pair back to back in
#    alternating order; each run's number is the median of 5 blocks (overhead.c). The row
#    gives the medians without and with gridcoll, the median of the per-pair differences
#    ("added ns") and their interquartile range (q1..q3), and the ratio (or the % added,
#    for logging). A second table times MPI_ against PMPI_ inside one process
#    (test/bench/passthrough), the finest wall-clock view. "log on" is the log as a user
#    turns it on, GRIDCOLL_LOG alone: its summary too (comm rank 0 adds each call to it);
#    "log, bare timing" its floor, two clock reads and the record (scripts/bench-log-share.sh
#    splits the rest).
#  - instructions (valgrind's callgrind, when installed; the column is skipped otherwise):
#    the timed calls alone (--toggle-collect=gc_bench_timed_calls), without and with
#    gridcoll, minus what ran inside the MPI library's own collective (its busy-polling
#    depends on timing, everything else on this path does not): the instructions gridcoll
#    adds per call, load-independent. 1 rank, or 2 for the two-cluster rows. "~ns" turns
#    them into time at one rate: the median ns per call of the library's own 8 B
#    MPI_Bcast on 1 rank over its instructions per call.
#
#   scripts/bench-overhead.sh   env: BUILD, GRIDCOLL_LIB, MPIEXEC, RUNS=15,
#                               OPS="bcast bcast_c alltoall alltoall_c", SIZES="8 65536",
#                               LOG_SIZES="8 65536 1048576", VALGRIND=valgrind (empty: skip),
#                               VG_N=200 calls per counted run, BIND="-bind-to core"
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
RUNS=${RUNS:-15}
OPS=${OPS:-bcast bcast_c alltoall alltoall_c}
SIZES=${SIZES:-8 65536}
LOG_SIZES=${LOG_SIZES:-8 65536 1048576}
VALGRIND=${VALGRIND-valgrind}
VG_N=${VG_N:-200}
BIND=${BIND--bind-to core}
read -r -a bind <<<"$BIND"
LIB=$(realpath "${GRIDCOLL_LIB:-$BUILD/libgridcoll.so}")
PROG=$(realpath "$BUILD/test/bench/overhead")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v "${VALGRIND:-none}" >/dev/null 2>&1 || VALGRIND=

# Calls per run: a few to tens of milliseconds of calls, so that many runs fit.
calls_for() { case $1 in 8) echo 20000 ;; 65536) echo 2000 ;; *) echo 200 ;; esac; }

# name|ranks of the instruction count|environment|ops|sizes|datatype. Every setting but
# the two-cluster ones runs its calls natively; those run what `auto` decided at the
# first call (the note says what), from the models alone (GRIDCOLL_LEARN=0): learning
# would measure the trees here and keep one at random among equals, and a tree's own
# sends are not what a passthrough costs. The log rows run the full path.
NATIVE="GRIDCOLL_BCAST=native GRIDCOLL_ALLTOALL=native"
DECIDED="GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_LEARN=0"
# The log's floor: two clock reads and the record, nothing else (local mode, no summary, a
# log file that cannot be opened: no window, no text).
BARE="GRIDCOLL_LOG=$tmp/no-such-dir/log-%r.csv GRIDCOLL_LOG_MODE=local GRIDCOLL_SUMMARY=0"
settings=(
  "forced native|1|$NATIVE|$OPS|$SIZES|byte"
  "auto, one cluster|1||$OPS|$SIZES|byte"
  "auto, two clusters, decided|2|$DECIDED|$OPS|$SIZES|byte"
  "same, derived datatype|2|$DECIDED|bcast alltoall|$SIZES|derived"
  "log on, one cluster|1|GRIDCOLL_LOG=$tmp/log-%r.csv|bcast alltoall|$LOG_SIZES|byte"
  "log, bare timing|1|$BARE|bcast alltoall|$LOG_SIZES|byte"
)

# envargs ENV PRELOAD(0|1): the launcher's -env words.
envargs() {
  local v out=()
  for v in $1; do out+=(-env "${v%%=*}" "${v#*=}"); done
  [ "$2" = 1 ] && out+=(-env LD_PRELOAD "$LIB")
  echo "${out[@]}"
}

# one_run PRELOAD ENV OP BYTES TYPE: rank 0's ns per call.
one_run() {
  # shellcheck disable=SC2046 # words from envargs
  timeout 300 "$MPIEXEC" -n 2 "${bind[@]}" $(envargs "$2" "$1") "$PROG" "$3" "$4" "$(calls_for "$4")" "$5" \
    2>/dev/null | awk '/^overhead/ { print $5 }'
}

# vg_count PRELOAD RANKS ENV OP BYTES TYPE [all]: rank 0's instructions per call outside
# the MPI library's collective ("all": every instruction of the timed calls). With a log,
# 8192 calls, so that the count holds a dozen of the log's 64 KiB writes and 64 of its
# 128-call windows (shim/log.c): their cost is part of what a logged call costs.
vg_count() {
  local n=$VG_N
  case $3 in *GRIDCOLL_LOG=*) [ "$1" = 1 ] && n=8192 ;; esac
  rm -f "$tmp"/cg.*
  # shellcheck disable=SC2046
  # LD_BIND_NOW: no symbol is resolved lazily inside the counted calls.
  timeout 600 "$MPIEXEC" -n "$2" -env LD_BIND_NOW 1 $(envargs "$3" "$1") "$VALGRIND" --tool=callgrind \
    --collect-atstart=no --toggle-collect=gc_bench_timed_calls \
    --callgrind-out-file="$tmp/cg.%q{PMI_RANK}" "$PROG" "$4" "$5" "$n" "$6" >/dev/null 2>&1
  [ -s "$tmp/cg.0" ] || return
  callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$tmp/cg.0" 2>/dev/null |
    awk -v op="$4" -v n="$n" -v all="${7:-}" '
      { gsub(",", "", $1); line = tolower($0) }
      /:gc_bench_timed_calls \[/ { timed = $1 }
      line ~ ":p?mpi_" op "(_c)? \\[" && line !~ /libgridcoll/ { lib += $1 }
      END { if (timed) printf "%.1f\n", (all ? timed : timed - lib) / n }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
quartile() { sort -g | awk -v q="$1" '{ v[NR] = $1 } END { i = int((NR - 1) * q + 1.5); print v[i] }'; }

# What the two-cluster `auto` runs for OP BYTES TYPE, from one logged run.
decided() {
  rm -f "$tmp"/d-*.csv
  timeout 300 "$MPIEXEC" -n 2 -env LD_PRELOAD "$LIB" -env GRIDCOLL_CLUSTERS 0,1 -env GRIDCOLL_LEARN 0 \
    -env GRIDCOLL_LOG "$tmp/d-%r.csv" -env GRIDCOLL_SUMMARY 0 "$PROG" "$1" "$2" 100 "$3" >/dev/null 2>&1
  tail -n 1 "$tmp/d-0.csv" 2>/dev/null | cut -d, -f6
}

# ns per instruction: the library's own MPI_Bcast of 8 B on 1 rank, without gridcoll (a
# short call that is, like gridcoll's path, argument checks and table look-ups): the
# median of 7 runs' ns per call over its instructions per call. One rate for every row:
# the library's all-to-all on 1 rank spends its time in a self-exchange through the
# progress engine, not in code like gridcoll's.
rate=
if [ -n "$VALGRIND" ]; then
  : >"$tmp/r"
  for _ in 1 2 3 4 5 6 7; do
    timeout 60 "$MPIEXEC" -n 1 "${bind[@]}" "$PROG" bcast 8 200000 2>/dev/null | awk '/^overhead/ { print $5 }' >>"$tmp/r"
  done
  ins=$(vg_count 0 1 "" bcast 8 byte all)
  [ -s "$tmp/r" ] && [ -n "$ins" ] && rate=$(awk -v t="$(median <"$tmp/r")" -v i="$ins" 'BEGIN { printf "%.4f", t / i }')
fi
declare -A base_vg

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; MPICH, 2 ranks ($BIND), $RUNS run pairs a row"
[ -n "$VALGRIND" ] || echo "(valgrind not installed: no instruction counts; apt-get install valgrind)"
printf '%-28s %-10s %7s %9s %9s %8s %17s %7s %7s %6s  %s\n' setting op bytes "base ns" "with ns" \
  "added" "added q1..q3" ratio "+instr" "~ns" note
for s in "${settings[@]}"; do
  IFS='|' read -r name ranks env ops sizes type <<<"$s"
  for op in $ops; do
    for bytes in $sizes; do
      : >"$tmp/base" && : >"$tmp/with" && : >"$tmp/diff"
      for r in $(seq "$RUNS"); do
        if [ $((r % 2)) = 1 ]; then
          b=$(one_run 0 "$env" "$op" "$bytes" "$type") w=$(one_run 1 "$env" "$op" "$bytes" "$type")
        else
          w=$(one_run 1 "$env" "$op" "$bytes" "$type") b=$(one_run 0 "$env" "$op" "$bytes" "$type")
        fi
        if [ -z "$b" ] || [ -z "$w" ]; then continue; fi
        echo "$b" >>"$tmp/base" && echo "$w" >>"$tmp/with"
        awk -v b="$b" -v w="$w" 'BEGIN { print w - b }' >>"$tmp/diff"
      done
      [ -s "$tmp/diff" ] || { printf '%-28s %-10s %7s  (no result: %s unavailable?)\n' "$name" "$op" "$bytes" "$op"; continue; }
      note=
      case $name in *two\ clusters* | same*) note="runs $(decided "$op" "$bytes" "$type")" ;; esac
      mb=$(median <"$tmp/base") mw=$(median <"$tmp/with") md=$(median <"$tmp/diff")
      q1=$(quartile 0.25 <"$tmp/diff") q3=$(quartile 0.75 <"$tmp/diff")
      ratio=$(awk -v b="$mb" -v d="$md" 'BEGIN { printf "%.2f", (b + d) / b }')
      case $name in log*) ratio=$(awk -v b="$mb" -v d="$md" 'BEGIN { printf "%+.1f%%", 100 * d / b }') ;; esac
      ins=- ns=-
      if [ -n "$VALGRIND" ]; then
        key="$ranks $op $bytes $type" # without gridcoll, its variables change nothing
        [ -n "${base_vg[$key]:-}" ] || base_vg[$key]=$(vg_count 0 "$ranks" "$env" "$op" "$bytes" "$type")
        wv=$(vg_count 1 "$ranks" "$env" "$op" "$bytes" "$type")
        if [ -n "${base_vg[$key]}" ] && [ -n "$wv" ]; then
          ins=$(awk -v w="$wv" -v b="${base_vg[$key]}" 'BEGIN { printf "%.0f", w - b }')
          [ -n "$rate" ] && ns=$(awk -v i="$ins" -v r="$rate" 'BEGIN { printf "%.0f", i * r }')
        fi
      fi
      printf '%-28s %-10s %7s %9.1f %9.1f %8.1f %8.1f..%-8.1f %7s %7s %6s  %s\n' "$name" "$op" "$bytes" \
        "$mb" "$mw" "$md" "$q1" "$q3" "$ratio" "$ins" "$ns" "$note"
    done
  done
done
[ -n "$VALGRIND" ] &&
  echo "+instr: instructions gridcoll adds per call (callgrind); ~ns: x ${rate:-?} ns per instruction (the library's own 8 B MPI_Bcast on 1 rank)"

# The same wrapper timed inside one process (test/bench/passthrough): blocks of calls of
# MPI_<op> (gridcoll's) and PMPI_<op> (the library's) alternate; the median of the
# paired block differences, and its quartiles. 1 rank (no peer busy-polling the other
# core) for the one-cluster rows, 2 bound ranks for the decided two-cluster ones and the
# logged ones (PMPI_ calls are not logged: the difference is what the log adds).
PT=$(realpath "$BUILD/test/bench/passthrough")
echo
printf '%-28s %-10s %7s %9s %9s %8s %17s %7s  (one process: MPI_ against PMPI_)\n' setting op bytes "MPI_ ns" "PMPI_ ns" "added" "added q1..q3" ratio
pt_rows=(
  "forced native|1|$NATIVE|$OPS|8"
  "auto, one cluster|1||$OPS|8"
  "auto, two clusters, decided|2|$DECIDED|$OPS|8"
  "log on, one cluster|2|GRIDCOLL_LOG=$tmp/pt-%r.csv|bcast alltoall|$LOG_SIZES"
  "log, bare timing|2|$BARE|bcast alltoall|$LOG_SIZES"
)
for s in "${pt_rows[@]}"; do
  IFS='|' read -r name ranks env ops sizes <<<"$s"
  for op in $ops; do
    for bytes in $sizes; do
      n=$(($(calls_for "$bytes") / 10)) rounds=101
      [ "$bytes" = 8 ] && rounds=301
      # shellcheck disable=SC2046
      r=$(timeout 300 "$MPIEXEC" -n "$ranks" "${bind[@]}" $(envargs "$env" 1) "$PT" "$op" "$bytes" "$n" "$rounds" 2>/dev/null)
      [ -n "$r" ] || { printf '%-28s %-10s %7s  (no result: %s unavailable?)\n' "$name" "$op" "$bytes" "$op"; continue; }
      # shellcheck disable=SC2086 # the result's fields
      set -- $r
      ratio=$(awk -v b="$7" -v d="$8" 'BEGIN { printf "%.2f", (b + d) / b }')
      case $name in log*) ratio=$(awk -v b="$7" -v d="$8" 'BEGIN { printf "%+.1f%%", 100 * d / b }') ;; esac
      printf '%-28s %-10s %7s %9.1f %9.1f %8.1f %8.1f..%-8.1f %7s\n' "$name" "$op" "$bytes" "$6" "$7" "$8" "$9" "${10}" "$ratio"
    done
  done
done
