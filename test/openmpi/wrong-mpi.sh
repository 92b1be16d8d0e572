#!/usr/bin/env bash
# Each gridcoll library preloaded into a program of the other MPI (shim/foreign.c):
# the MPICH build into Open MPI test programs under mpirun.openmpi, the Open MPI build
# into MPICH ones under mpiexec.mpich. Every call must reach the program's own MPI
# untouched: the programs' checks pass (buffers as the MPI library's own call), exit 0,
# exactly one gridcoll line on stderr naming both libraries, and nothing logged even
# though a log and forced algorithms are asked for.
set -u
MPICH_BUILD=${MPICH_BUILD:-build}
OPENMPI_BUILD=${OPENMPI_BUILD:-build/openmpi}
ROOT=$(realpath "$(dirname "$0")/../..")
MPICH_LIB=$(realpath "$MPICH_BUILD/libgridcoll.so")
OPENMPI_LIB=$(realpath "$OPENMPI_BUILD/libgridcoll-openmpi.so")
MPICH_T=$(realpath "$MPICH_BUILD/test/mpi")
OPENMPI_T=$(realpath "$OPENMPI_BUILD/test/mpi")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0
failed=0

if [ "$(uname -m)" != x86_64 ]; then
  echo "skip wrong-mpi: the pass-through trampolines exist on x86-64 only (mk/entries.sh)"
  exit 0
fi

# case LAUNCHER LIB PROGRAM_DIR PROGRAM WANT: run 3 ranks of PROGRAM with the other MPI's
# gridcoll preloaded; WANT names the program's MPI in the warning.
case_() {
  local launcher=$1 lib=$2 dir=$3 prog=$4 want=$5 name="$4 of $5 under $(basename "$2")"
  MPIEXEC=$launcher
  . "$ROOT/scripts/launcher.sh"
  rm -f wl-*.csv
  gc_mpiexec 3 LD_PRELOAD="$lib" GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot \
    GRIDCOLL_LOG="$tmp/wl-%r.csv" GRIDCOLL_SUMMARY=1 -- "$dir/$prog" >out 2>err
  local rc=$?
  if [ "$rc" = 0 ] && grep -q ' 0 failed' out && [ "$(grep -c '^gridcoll:' err)" = 1 ] &&
     grep -q "^gridcoll: this program uses $want .* was built for" err && ! ls wl-*.csv >/dev/null 2>&1; then
    passed=$((passed + 1)); echo "ok   $name: one warning, every call passed through"
  else
    failed=$((failed + 1)); echo "FAIL $name: one warning, every call passed through (rc $rc)"
    sed 's/^/     | /' out err | head -20
  fi
}
for p in alltoall bcast; do
  case_ mpirun.openmpi "$MPICH_LIB" "$OPENMPI_T" $p "Open MPI"
  case_ mpiexec.mpich "$OPENMPI_LIB" "$MPICH_T" $p MPICH
done
echo "wrong-mpi: $passed passed, $failed failed"
[ "$failed" = 0 ]
