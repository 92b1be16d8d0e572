#!/usr/bin/env bash
# Install the Debian packages gridcoll needs, only those that are missing.
# Run by `make check`, `make demo` and .ci/run; safe to run again.
# GRIDCOLL_DEPS_EXTRA adds packages only some targets need: `make check`, `make deps-tools`
# and `make bench-model` pass python3-matplotlib (scripts/gridcoll-report's plots);
# `make check`, `make check-openmpi` and `make demo MPI=openmpi` pass openmpi-bin and
# libopenmpi-dev (mk/openmpi.mk); `make check`, `make check-openmpi` and `make check-clients`
# also pass CLIENT_DEPS, real clients run under gridcoll: ptscotch (PT-Scotch's dgord,
# test/openmpi/ptscotch.sh), scalapack-mpi-test and hpcc (test/clients/run.sh).
# `make check` passes cppcheck and shellcheck (make lint).
# `make bench-overhead` passes valgrind (its instruction counts).
# `make fuzz` passes clang and libclang-rt-dev (libFuzzer: with --no-install-recommends,
# clang alone lacks its runtime libraries). `make check-fuzz-regress` needs only gcc.
set -euo pipefail

packages=(make gcc gfortran pkg-config mpich libmpich-dev libconfig-dev check python3)
[ "${GRIDCOLL_DEPS_EXTRA:-}" ] && read -r -a extra <<<"$GRIDCOLL_DEPS_EXTRA" && packages+=("${extra[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "gridcoll: installing missing packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
