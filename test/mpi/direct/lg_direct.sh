#!/usr/bin/env bash
# Builds lg_direct with the LG sources linked in (no wrappers needed) and runs it under
# mpiexec on 2..6 ranks with the built-in layouts, then on a few explicit ones.
# Not part of `make check`: run it by hand from the repository root,
#   test/mpi/direct/lg_direct.sh            (MPIEXEC, MPICC, BUILD, NPS override)
# Prints PASS/FAIL lines; exits non-zero when any run fails.
set -uo pipefail
cd "$(dirname "$0")/../../.."
MPICC=${MPICC:-mpicc.mpich}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
BUILD=${BUILD:-build}
NPS=${NPS:-"2 3 4 5 6"}
exe=$BUILD/test/direct/lg_direct
make -s "$BUILD/libgcpure.a" || exit 1
mkdir -p "$(dirname "$exe")"
$MPICC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g \
  -I. -Iconfig -Imodel -Ishim -Ishim/pure -Ishim/bcast -Ishim/bcast/pure -Ishim/alltoall/pure -Itest/mpi -Itest/mpi/direct \
  test/mpi/direct/lg_direct.c test/mpi/direct/lg_limits.c test/mpi/direct/comm_state_stub.c \
  shim/alltoall/lg.c -o "$exe" "$BUILD/libgcpure.a" $(pkg-config --libs libconfig) -lm || exit 1

status=0
run() { # ranks [layout]
  echo "== mpiexec -n $1 lg_direct ${2:-}"
  timeout 300 $MPIEXEC -n "$1" "$exe" ${2:+"$2"} || { echo "FAIL: mpiexec -n $1 lg_direct ${2:-} (exit $?)"; status=1; }
}
for n in $NPS; do run "$n"; done
run 5 "4,4,9,9,9"        # cluster ids need not be 0..k-1
run 6 "0,1,2,1,2,2"      # three clusters of 1, 2, 3, interleaved
run 6 "1,1,1,1,1,0"      # (5,1): the single process plays A
echo "lg_direct.sh: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
exit $status
