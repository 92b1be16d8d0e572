#!/usr/bin/env bash
# What gridcoll costs a call it does not change (issue 17): test/bench/overhead (linked
# WITHOUT gridcoll) run with and without LD_PRELOAD=libgridcoll.so in alternating runs,
# MPICH, 2 ranks, per setting x collective x size; prints rank 0's time per call
# without and with gridcoll (medians), the added nanoseconds (median of the paired
# differences, and their min..max) and the ratio.
#   scripts/bench-overhead.sh   env: BUILD, MPIEXEC, RUNS=9, N=20000,
#                               OPS="bcast bcast_c alltoall alltoall_c", SIZES="8 65536"
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
RUNS=${RUNS:-9}
N=${N:-20000}
OPS=${OPS:-bcast bcast_c alltoall alltoall_c}
SIZES=${SIZES:-8 65536}
LIB=$(realpath "$BUILD/libgridcoll.so")
PROG=$(realpath "$BUILD/test/bench/overhead")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name|environment (VAR=VALUE ...): every setting's calls run natively or, for the
# two-cluster auto, as decided at the first call (the row says what runs).
settings=(
  "forced native|GRIDCOLL_BCAST=native GRIDCOLL_ALLTOALL=native"
  "auto, one cluster|"
  "auto, two clusters, decided|GRIDCOLL_CLUSTERS=0,1"
  "auto, one cluster, log on|GRIDCOLL_LOG=$tmp/log-%r.csv GRIDCOLL_SUMMARY=0"
)

# one_run PRELOAD(0|1) ENV OP BYTES: rank 0's ns per call
one_run() {
  local env=() v
  for v in $2; do env+=(-env "${v%%=*}" "${v#*=}"); done
  [ "$1" = 1 ] && env+=(-env LD_PRELOAD "$LIB")
  timeout 300 "$MPIEXEC" -n 2 "${env[@]}" "$PROG" "$3" "$4" "$N" 2>/dev/null | awk '/^overhead/ { print $5 }'
}

# What the two-cluster `auto` runs for OP BYTES, from one logged run.
decided() {
  rm -f "$tmp"/d-*.csv
  timeout 300 "$MPIEXEC" -n 2 -env LD_PRELOAD "$LIB" -env GRIDCOLL_CLUSTERS 0,1 \
    -env GRIDCOLL_LOG "$tmp/d-%r.csv" -env GRIDCOLL_SUMMARY 0 "$PROG" "$1" "$2" 100 >/dev/null 2>&1
  tail -n 1 "$tmp/d-0.csv" 2>/dev/null | cut -d, -f6
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-30s %-10s %6s %9s %9s %9s %17s %6s  %s\n' setting op bytes "base ns" "with ns" "added ns" "added min..max" ratio note
for s in "${settings[@]}"; do
  name=${s%%|*} env=${s#*|}
  for op in $OPS; do
    for bytes in $SIZES; do
      : >"$tmp/base" && : >"$tmp/with" && : >"$tmp/diff"
      for _ in $(seq "$RUNS"); do
        b=$(one_run 0 "$env" "$op" "$bytes")
        w=$(one_run 1 "$env" "$op" "$bytes")
        [ -n "$b" ] && [ -n "$w" ] || continue
        echo "$b" >>"$tmp/base" && echo "$w" >>"$tmp/with"
        awk -v b="$b" -v w="$w" 'BEGIN { print w - b }' >>"$tmp/diff"
      done
      [ -s "$tmp/diff" ] || { printf '%-30s %-10s %6s  (no result: %s unavailable?)\n' "$name" "$op" "$bytes" "$op"; continue; }
      note=
      case $name in *decided*) note="decided, runs $(decided "$op" "$bytes")" ;; esac
      mb=$(median <"$tmp/base") mw=$(median <"$tmp/with") md=$(median <"$tmp/diff")
      lo=$(sort -g "$tmp/diff" | head -1) hi=$(sort -g "$tmp/diff" | tail -1)
      printf '%-30s %-10s %6s %9.1f %9.1f %9.1f %8.1f..%-8.1f %6.2f  %s\n' "$name" "$op" "$bytes" \
        "$mb" "$mw" "$md" "$lo" "$hi" "$(awk -v b="$mb" -v w="$mw" 'BEGIN { print w / b }')" "$note"
    done
  done
done
