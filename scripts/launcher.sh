# shellcheck shell=bash
# Launcher-agnostic mpiexec for the test and demo scripts (sourced, not run).
#
# MPICH's hydra and Open MPI's mpirun take the same job in different words: hydra
# exports a variable with `-env VAR VALUE` (`-genv` for every app context), Open MPI with
# `-x VAR=VALUE` (which, in 4.1, applies to the app context it appears in). Open MPI also
# refuses to run as root without --allow-run-as-root and more ranks than cores without
# --oversubscribe; in that case it lowers its polling itself (mpi_yield_when_idle).
#
#   MPIEXEC=mpirun.openmpi; . scripts/launcher.sh
#   gc_mpiexec 4 LD_PRELOAD=$lib GRIDCOLL_CONFIG=grid.cfg -- ./app args
#   cmd=("${GC_LAUNCH[@]}"); gc_app cmd 1 A=1 -- ./app; cmd+=(:); gc_app cmd 1 -- ./app
#
# GC_LAUNCHER is "openmpi" or "hydra" (anything that is not Open MPI's mpirun is taken
# for hydra, whose syntax Intel MPI and MVAPICH share). MPIEXEC_ARGS (split on spaces)
# adds options to every launch: a container that forbids ptrace between processes may
# need Open MPI's `--mca btl_vader_single_copy_mechanism none`; none was needed here.

MPIEXEC=${MPIEXEC:-mpiexec.mpich}
# (Captured first: under pipefail, grep -q closing the pipe early could fail the test.)
gc_version=$("$MPIEXEC" --version 2>&1 || true)
if [[ $gc_version == *"Open MPI"* || $gc_version == *OpenRTE* ]]; then
  GC_LAUNCHER=openmpi
  GC_LAUNCH=("$MPIEXEC" --oversubscribe)
  [ "$(id -u)" != 0 ] || GC_LAUNCH+=(--allow-run-as-root)
else
  GC_LAUNCHER=hydra
  GC_LAUNCH=("$MPIEXEC")
fi
# shellcheck disable=SC2206 # options, split on purpose
GC_LAUNCH+=(${MPIEXEC_ARGS:-})

# gc_app ARRAY N [VAR=VALUE ...] -- program args: appends one app context of N ranks,
# the variables exported to each of them, to the array named ARRAY.
gc_app() {
  local -n gc_cmd=$1
  local n=$2
  shift 2
  gc_cmd+=(-n "$n")
  while [ "$1" != "--" ]; do
    if [ "$GC_LAUNCHER" = openmpi ]; then gc_cmd+=(-x "$1"); else gc_cmd+=(-env "${1%%=*}" "${1#*=}"); fi
    shift
  done
  shift
  gc_cmd+=("$@")
}

# gc_mpiexec N [VAR=VALUE ...] -- program args: runs one app context.
gc_mpiexec() {
  local cmd=("${GC_LAUNCH[@]}")
  gc_app cmd "$@"
  "${cmd[@]}"
}
