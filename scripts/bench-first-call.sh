#!/usr/bin/env bash
# What the first intercepted call on a new communicator costs (issue 11 item 6):
# test/bench/first_call (linked WITHOUT gridcoll) on 3 ranks in two clusters (0 | 1-2:
# LG and the trees apply), without gridcoll, and with it under forced lg / hlot, under
# auto, and on one cluster; alternating runs, medians over the runs of each run's
# median (microseconds): dup, first call, second call, free.
#   scripts/bench-first-call.sh   env: BUILD, GRIDCOLL_LIB, MPIEXEC, RUNS=5, ROUNDS=100, BYTES=1024
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-100}
BYTES=${BYTES:-1024}
LIB=$(realpath "${GRIDCOLL_LIB:-$BUILD/libgridcoll.so}")
PROG=$(realpath "$BUILD/test/bench/first_call")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name|op|environment (VAR=VALUE ...; "-" runs without gridcoll)
settings=(
  "native (no gridcoll)|alltoall|-"
  "lg, two clusters|alltoall|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALL=lg"
  "auto, two clusters|alltoall|GRIDCOLL_CLUSTERS=0,1-2"
  "auto, one cluster|alltoall|"
  "native (no gridcoll)|bcast|-"
  "hlot, two clusters|bcast|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=hlot"
  "auto, two clusters|bcast|GRIDCOLL_CLUSTERS=0,1-2"
  "auto, one cluster|bcast|"
)

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf '%-24s %-9s %9s %9s %9s %9s   (us, 3 ranks, %s B, medians)\n' setting op dup first second free "$BYTES"
for _ in $(seq "$RUNS"); do
  for i in "${!settings[@]}"; do
    IFS='|' read -r name op env <<<"${settings[$i]}"
    args=()
    if [ "$env" != - ]; then
      args+=(-env LD_PRELOAD "$LIB")
      for v in $env; do args+=(-env "${v%%=*}" "${v#*=}"); done
    fi
    timeout 300 "$MPIEXEC" -n 3 "${args[@]}" "$PROG" "$op" "$BYTES" "$ROUNDS" 2>/dev/null |
      awk '/^first_call/ { print $5, $6, $7, $8 }' >>"$tmp/$i"
  done
done
for i in "${!settings[@]}"; do
  IFS='|' read -r name op env <<<"${settings[$i]}"
  [ -s "$tmp/$i" ] || { printf '%-24s %-9s (no result)\n' "$name" "$op"; continue; }
  printf '%-24s %-9s' "$name" "$op"
  for col in 1 2 3 4; do printf ' %9.1f' "$(cut -d' ' -f$col "$tmp/$i" | median)"; done
  echo
done
