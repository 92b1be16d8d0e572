#!/usr/bin/env bash
# The tree broadcasts without the shim core: builds test/mpi/direct/bcast_direct from the
# bcast sources and a stub of the communicator state, runs it under mpiexec -n 2..6 on
# several layouts (2 and 3+ clusters, interleaved members, singleton clusters, one
# cluster), and fails if any case differs from PMPI_Bcast. Not part of `make check`:
# the LD_PRELOAD tests take over once the shim lands (they reuse test/mpi/bcast_check.h).
#   test/mpi/direct/bcast_direct.sh   env: MPIEXEC, MPICC, BUILD, NPROCS="2 3 4 5 6",
#                                     TIMEOUT=1200 (seconds per mpiexec: a lost message hangs)
# About 13 minutes on 2 loaded cores (6 ranks oversubscribed dominate); NPROCS="2 3" ~2.
set -euo pipefail
cd "$(dirname "$0")/../../.."
MPICC=${MPICC:-mpicc.mpich}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
BUILD=${BUILD:-build}
NPROCS=${NPROCS:-"2 3 4 5 6"}
TIMEOUT=${TIMEOUT:-1200}
bin=$BUILD/test/direct/bcast_direct
mkdir -p "$(dirname "$bin")"
make -s "$BUILD/libgcpure.a" || exit 1
$MPICC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -O2 -g \
  -I. -Iconfig -Imodel -Ishim -Ishim/pure -Ishim/bcast -Ishim/bcast/pure -Ishim/alltoall/pure -Itest/mpi -Itest/mpi/direct \
  shim/bcast/tree_exec.c shim/bcast/tree_algorithms.c shim/bcast/tree_stage.c shim/bcast/state.c \
  shim/count.c shim/datatype.c \
  test/mpi/direct/comm_state_stub.c test/mpi/direct/bcast_direct.c -o "$bin" \
  "$BUILD/libgcpure.a" $(pkg-config --libs libconfig) -lm

# Cluster ids are korea8's (0..7 = A..H), so the korea8 matrix gives multi-hop trees:
# A,G,H makes HLOT and SPT go A -> H -> G.
declare -A layouts=(
  [2]="0,1 6,0 0,0"
  [3]="0,0,1 0,1,0 0,6,7 7,0,6"
  [4]="0,0,1,1 0,1,0,1 0,6,7,6 0,1,2,3"
  [5]="0,6,0,7,6 1,1,1,1,2 0,1,2,3,4"
  [6]="0,6,7,0,6,7 0,0,0,6,6,7 6,0,7,5,4,3"
)
status=0
for n in $NPROCS; do
  # shellcheck disable=SC2086
  if ! timeout "$TIMEOUT" $MPIEXEC -n "$n" "$bin" ${layouts[$n]} >"$bin.$n.log" 2>&1; then
    status=1
  fi
  grep -E '^(FAIL|bcast_direct:)' "$bin.$n.log" || true
  grep -q "^bcast_direct: $n ranks, [0-9]* cases, 0 failed" "$bin.$n.log" || status=1
done
if [ $status -eq 0 ]; then echo "PASS bcast_direct (logs: $bin.N.log)"; else echo "FAIL bcast_direct (logs: $bin.N.log)"; fi
exit $status
