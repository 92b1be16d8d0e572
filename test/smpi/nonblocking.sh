#!/usr/bin/env bash
# gridcoll's nonblocking schedules under SMPI (issue 28), where they sit behind plain
# generalized requests that gridcoll's own completion calls advance (shim/nbc.h): with
# GRIDCOLL_NONBLOCKING=grid, test/mpi/nb_basic.c's MPI_Ibcast and MPI_Ialltoall (MPI_Wait,
# loops of MPI_Test, MPI_Waitall; every root; the world and a split) byte-correct, and
# rank 0's log naming the schedules that ran them; without it, the library's own, each
# followed to the completion the application saw (shim/issued.h: a time, no own time).
# Grids: the namespace rig's grid3 shape (2 + 2 + 1 hosts) and 3 clusters of 5, 11 and 17
# hosts, ranks interleaved. Then MPI_Ialltoallv by LG-v on both.
#   BUILD=build SMPIRUN=smpirun test/smpi/nonblocking.sh   (about 10 s)
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh
PROG=$T/smpi/nb_basic
passed=0
failed=0
python3 scripts/gen-platform.py 3 2,2,1 "$tmp" --network --name grid3 --wan-bw 100Mbps \
  --link 0-1:20ms:50Mbps --link 0-2:3ms --link 1-2:4ms >/dev/null &&
  python3 scripts/gen-platform.py 3 5,11,17 "$tmp" --interleave --network --name three >/dev/null ||
  { echo "FAIL scripts/gen-platform.py"; echo "smpi nonblocking: 0 passed, 1 failed"; exit 1; }

# case NAME GRID HOSTS INTS EXPECT VAR=VALUE...: EXPECT, rank 0's log's "op,algorithm"
# pairs of its nonblocking calls, sorted and joined by spaces. On grid3's split of the
# even ranks (one rank in each cluster) LG does not apply (no cluster of two): the
# library's own runs those all-to-alls.
case_() {
  local name=$1 grid=$2 hosts=$3 ints=$4 expect=$5 got
  shift 5
  rm -f "$tmp"/rec-*.csv
  (cd "$tmp" && env GRIDCOLL_CONFIG="$tmp/$grid.cfg" GRIDCOLL_LOG="$tmp/rec-%r.csv" \
    GRIDCOLL_LOG_MODE=local GRIDCOLL_SUMMARY=0 "$@" timeout 300 "$SMPIRUN" \
    -platform "$tmp/$grid.xml" -hostfile "$tmp/$hosts" --cfg=smpi/simulate-computation:no \
    --log=root.thres:critical "$PROG" "$ints" >out 2>&1)
  got=$(awk -F, 'NR > 1 && $5 ~ /^i/ { print $5 "," $6 }' "$tmp/rec-0.csv" 2>/dev/null |
    sort -u | tr '\n' ' ')
  if grep -q '^nb_basic: [1-9][0-9]* checks, 0 failed' "$tmp/out" && [ "$got" = "$expect" ] &&
    awk -F, 'NR > 1 && $6 == "native-nb" && ($12 !~ /^[0-9]+[.][0-9]+$/ || $15 != "") { bad = 1 } END { exit bad }' "$tmp/rec-0.csv"; then
    passed=$((passed + 1)); echo "PASS $name"
  else
    failed=$((failed + 1)); echo "FAIL $name: log has '$got', want '$expect'"
    grep -v '^\[' "$tmp/out" | head -10 | sed 's/^/     | /'
  fi
}

case_ "ibcast hlot, ialltoall lg: grid3 shape" grid3 hosts_grid3.txt 1000 \
  "ialltoall,lg-nb ialltoall,native-nb ibcast,hlot-nb " GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg
case_ "ibcast binomial, ialltoall lg: 33 ranks interleaved" three hosts_three_interleaved.txt 100 \
  "ialltoall,lg-nb ibcast,binomial-nb " GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=binomial GRIDCOLL_ALLTOALL=lg
case_ "ibcast flat, ialltoall native, 33 ranks" three hosts_three_interleaved.txt 100 \
  "ialltoall,native-nb ibcast,flat-nb " GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=flat GRIDCOLL_ALLTOALL=native
case_ "GRIDCOLL_NONBLOCKING unset: the library's own, each followed to its completion" grid3 hosts_grid3.txt 1000 \
  "ialltoall,native-nb ibcast,native-nb " GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg
# MPI_Ialltoallv by LG-v (shim/alltoallv/lgv_nb.c): test/mpi/alltoallv.c's nonblocking
# cases (quick), byte for byte against PMPI_Alltoallv, one block beyond a slot's quota
# among them (every rank falls back to the direct exchange); rank 0's log names the
# schedule (lg-nb), the direct exchange where it delivered (direct-nb), and the library's
# own for the in-place calls (native-nb).
for grid in "grid3 hosts_grid3.txt" "three hosts_three_interleaved.txt"; do
  read -r g hosts <<<"$grid"
  rm -f "$tmp"/rec-*.csv
  (cd "$tmp" && env GRIDCOLL_CONFIG="$tmp/$g.cfg" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_LOG_MODE=local \
    GRIDCOLL_SUMMARY=0 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg timeout 300 "$SMPIRUN" \
    -platform "$tmp/$g.xml" -hostfile "$tmp/$hosts" --cfg=smpi/simulate-computation:no \
    --log=root.thres:critical "$T/smpi/alltoallv" nonblocking quick >out 2>&1)
  got=$(awk -F, 'NR > 1 && $5 ~ /^i/ { print $5 "," $6 }' "$tmp/rec-0.csv" 2>/dev/null | sort -u | tr '\n' ' ')
  if grep -q '^alltoallv: [1-9][0-9]* checks, 0 failed' "$tmp/out" &&
    [ "$got" = "ialltoallv,direct-nb ialltoallv,lg-nb ialltoallv,native-nb " ]; then
    passed=$((passed + 1)); echo "PASS ialltoallv lg: $g"
  else
    failed=$((failed + 1)); echo "FAIL ialltoallv lg: $g: log has '$got'"
    grep -v '^\[' "$tmp/out" | head -10 | sed 's/^/     | /'
  fi
done
echo "smpi nonblocking: $passed passed, $failed failed"
[ "$failed" = 0 ]
