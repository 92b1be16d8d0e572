#!/usr/bin/env bash
# MPI_Alltoallv under SimGrid SMPI, byte for byte, at 32 and 64 simulated ranks:
# test/mpi/alltoallv.c (quick: world communicator, int and double blocks, every count
# pattern, in place) compares MPI_Alltoallv with PMPI_Alltoallv with GRIDCOLL_ALLTOALLV
# forced to lg (and native on korea8); the log shows LG-v ran on world across every cluster.
# test/mpi/fft_transpose.c, the FFT-style client, runs under `auto` and checks itself.
# Platforms: g5k2 (two sites, 32+32), g5k2_64 (uneven, 16+48), korea8 (8 clusters of 4).
#   BUILD=build SMPIRUN=smpirun PLATFORMS=/path/to/platforms test/smpi/alltoallv.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh
P=${PLATFORMS:-$PWD/platforms}
# As test/smpi/run.sh (its comment says why the reference all-to-all is pair).
FLAGS=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
       --cfg=smpi/alltoall:pair --log=root.thres:warning)

cat >"$tmp/g5k2.cfg" <<'CFG'
clusters = ( { name = "nancy"; hosts = [ "nancy-*" ]; }, { name = "rennes"; hosts = [ "rennes-*" ]; } );
CFG
printf 'clusters = (\n%s\n);\n' "$(for c in A B C D E F G H; do
  printf '  { name = "%s"; hosts = [ "%s-*" ]; }%s\n' "$c" "$c" "$([ $c = H ] || echo ,)"; done)" >"$tmp/korea8.cfg"

# vcase NAME PLATFORM HOSTFILE CONFIG CLUSTERS ALGORITHM PROGRAM ARG
vcase() {
  local name=$1 platform=$2 hosts=$3 cfg=$4 clusters=$5 a=$6 prog=$7 arg=$8 ranks t0=$SECONDS
  ranks=$(grep -c . "$hosts")
  # shellcheck disable=SC2086 # arg: none, or the program's words
  LIMIT=900 forced_run "$platform" "$hosts" "$cfg" "GRIDCOLL_ALLTOALLV=$a" "$prog" $arg
  if forced_ran "$prog" "$ranks" "$clusters" "$a"; then
    pass "$name: $ranks ranks, $clusters clusters, $prog, alltoallv $a ($((SECONDS - t0)) s)"
  else
    fail "$name: $ranks ranks, $clusters clusters, $prog, alltoallv $a"
  fi
}

start=$SECONDS
vcase "g5k2 32+32" "$P/g5k2.xml" "$P/hosts_g5k2_32x32.txt" "$tmp/g5k2.cfg" 2 lg alltoallv quick
vcase "g5k2_64 16+48" "$P/g5k2_64.xml" "$P/hosts_g5k2_16x48.txt" "$tmp/g5k2.cfg" 2 lg alltoallv quick
vcase "korea8 8x4" "$P/korea8.xml" "$P/hosts_korea8.txt" "$tmp/korea8.cfg" 8 lg alltoallv quick
# native at 64 ranks takes SMPI over 8 minutes (its alltoallv with a heavy peer): 32 here
vcase "korea8 8x4" "$P/korea8.xml" "$P/hosts_korea8.txt" "$tmp/korea8.cfg" 8 native alltoallv quick
vcase "korea8 8x4" "$P/korea8.xml" "$P/hosts_korea8.txt" "$tmp/korea8.cfg" 8 auto fft_transpose ""
echo "smpi alltoallv: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" = 0 ]
