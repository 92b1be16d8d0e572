#!/usr/bin/env bash
# The demo: an unmodified MPI program (an all-to-all and broadcast sweep) runs under
# LD_PRELOAD with a configuration that splits the ranks of this machine into two
# virtual clusters; gridcoll logs every call and prints its summary table.
set -euo pipefail
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
NP=${NP:-4}
lib=$(realpath "${GRIDCOLL_LIB:-$BUILD/libgridcoll.so}") # libgridcoll-openmpi.so for Open MPI
. "$(dirname "$0")/launcher.sh"                        # hydra's -env or Open MPI's -x
out=${OUT_DIR:-out/demo}
mkdir -p "$out"
rm -f "$out"/gridcoll-*.csv

echo "== gridcoll demo: $NP ranks, two virtual clusters (examples/two-clusters.cfg)"
cmd=("${GC_LAUNCH[@]}")
gc_app cmd "$NP" LD_PRELOAD="$lib" GRIDCOLL_CONFIG="$(realpath examples/two-clusters.cfg)" \
  GRIDCOLL_LOG="$(realpath "$out")/gridcoll-%r.csv" GRIDCOLL_SUMMARY=1 -- "$BUILD/test/mpi/sweep" 262144 5
echo "== ${cmd[*]}"
"${cmd[@]}" 2>&1
echo "== the predictions model the wide area the example configuration describes (5.5 ms,"
echo "   10 Gbit/s), which one machine does not have: gridcoll-calibrate writes a configuration"
echo "   measured on your own machines (README: Tools)."
echo "== per-call records (predicted beside actual): $out/gridcoll-<rank>.csv"
head -4 "$out/gridcoll-0.csv"
