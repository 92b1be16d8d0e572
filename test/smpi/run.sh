#!/usr/bin/env bash
# Byte-for-byte tests of gridcoll's MPI_Alltoall under SimGrid SMPI at 32..128 simulated
# ranks (256 with SMPI_LARGE=1) on grid platforms of 2 to 8 clusters, one of them uneven
# (5, 11 and 17 hosts, ranks interleaved): test/mpi/alltoall.c (gridcoll linked in, `make smpi`) compares
# MPI_Alltoall with PMPI_Alltoall on world, a duplicate, a reversed and a split
# communicator, for every datatype case and MPI_IN_PLACE, with GRIDCOLL_ALLTOALL forced to
# lg and to native, and to relay on grids with a broken triangle. Clusters come from a configuration with host globs, matched against
# MPI_Get_processor_name, which under SMPI is the simulated host's name; the log then shows
# that the world communicator spanned every cluster and that the forced algorithm ran.
# SMPI's MPI_Abort exits 0, so a run is judged by what it prints.
#   BUILD=build SMPIRUN=smpirun test/smpi/run.sh
# CASES=REGEX runs only the cases whose name matches (e.g. CASES=interleaved).
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh
P=${PLATFORMS:-$PWD/platforms} # platforms/README.md

# The platform flags of platforms/README.md: platform numbers as simulated.
# The reference PMPI_Alltoall is SMPI's ring algorithm (step i: send to rank + i, receive
# from rank - i), correct for any rank count and datatype. SMPI 3.32's bruck (which its
# default selection picks for small blocks) gives results that differ from call to call when
# the send type has holes and the receive type has none (test case vector-to-int, at 64
# ranks and more), so the PMPI-against-PMPI comparison of `native` fails with it; its pair
# aborts on a rank count that is not a power of two; its basic_linear (every message posted
# at once) is right but costs 20 times the CPU time at 64 ranks.
FLAGS=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
       --cfg=smpi/alltoall:ring --log=root.thres:warning)

cat >"$tmp/g5k2.cfg" <<'CFG'
clusters = ( { name = "nancy"; hosts = [ "nancy-*" ]; }, { name = "rennes"; hosts = [ "rennes-*" ]; } );
CFG
printf 'clusters = (\n%s\n);\n' "$(for c in A B C D E F G H; do
  printf '  { name = "%s"; hosts = [ "%s-*" ]; }%s\n' "$c" "$c" "$([ $c = H ] || echo ,)"; done)" >"$tmp/korea8.cfg"
# 3 clusters of 5, 11 and 17 hosts, ranks dealt to them in turn: an odd total, no power of
# two, no cluster a contiguous range of ranks.
for kh in "4 16" "8 16" "4 32" "8 32" "3 5,11,17 --interleave" \
  "3 5,11,17 --interleave --link 0-2:40ms:500Mbps --network --name broken3"; do
  python3 scripts/gen-platform.py $kh "$tmp" >/dev/null ||
    { echo "FAIL scripts/gen-platform.py $kh"; echo "smpi: 0 passed, 1 failed"; exit 1; }
done

# case NAME PLATFORM HOSTFILE CONFIG CLUSTERS ARG [ALGORITHMS]: ARG is the test program's
# block size for its "bytes" case, or "quick" (world communicator, first datatypes) for
# the big runs; ALGORITHMS default "lg native". relay must have relayed on world: its
# record carries relay-backbone's prediction only where its routes relay a message.
run_case() {
  local name=$1 platform=$2 hosts=$3 cfg=$4 clusters=$5 big=$6 a ranks
  [[ $name =~ ${CASES:-.} ]] || return 0
  ranks=$(grep -c . "$hosts")
  for a in ${7:-lg native}; do
    t0=$SECONDS
    forced_run "$platform" "$hosts" "$cfg" "GRIDCOLL_ALLTOALL=$a" alltoall "$big"
    # the forced algorithm ran on world with every cluster seen, relay with a prediction
    # (relay-backbone predicts only where the routes relay a message)
    if forced_ran alltoall "$ranks" "$clusters" "$a" '$6 != "relay" || $11 > 0' &&
       [ "$(awk -F, 'NR == 2 { print $9 }' "$tmp/rec-0.csv" 2>/dev/null)" = "$clusters" ]; then
      pass "$name: $ranks ranks, $clusters clusters, alltoall $a ($(checks_of alltoall) checks, $((SECONDS - t0)) s)"
    else
      fail "$name: $ranks ranks, $clusters clusters, alltoall $a"
    fi
  done
}

# bcast_case NAME PLATFORM HOSTFILE CONFIG CLUSTERS ARG: test/mpi/bcast (every root,
# every datatype case, four communicators) with each tree forced, then native and auto;
# the log shows the forced tree ran on the world communicator across every cluster.
bcast_case() {
  local name=$1 platform=$2 hosts=$3 cfg=$4 clusters=$5 arg=$6 b ranks
  [[ $name =~ ${CASES:-.} ]] || return 0
  ranks=$(grep -c . "$hosts")
  for b in ${BCAST_ALGORITHMS:-flat binomial hlot spt greedy multilevel native auto}; do
    t0=$SECONDS
    # shellcheck disable=SC2086 # arg: none, or the program's words
    forced_run "$platform" "$hosts" "$cfg" "GRIDCOLL_BCAST=$b" bcast $arg
    if forced_ran bcast "$ranks" "$clusters" "$b"; then
      pass "$name: $ranks ranks, $clusters clusters, bcast $b ($(checks_of bcast) checks, $((SECONDS - t0)) s)"
    else
      fail "$name: $ranks ranks, $clusters clusters, bcast $b"
    fi
  done
}

start=$SECONDS
run_case "g5k2 32+32" "$P/g5k2.xml" "$P/hosts_g5k2_32x32.txt" "$tmp/g5k2.cfg" 2 64
run_case "g5k2_64 16+48" "$P/g5k2_64.xml" "$P/hosts_g5k2_16x48.txt" "$tmp/g5k2.cfg" 2 64
run_case "korea8 8x4" "$P/korea8.xml" "$P/hosts_korea8.txt" "$tmp/korea8.cfg" 8 64
run_case "generated 4x16" "$tmp/grid4x16.xml" "$tmp/hosts_grid4x16.txt" "$tmp/grid4x16.cfg" 4 64
run_case "generated 8x16" "$tmp/grid8x16.xml" "$tmp/hosts_grid8x16.txt" "$tmp/grid8x16.cfg" 8 quick
run_case "generated 4x32" "$tmp/grid4x32.xml" "$tmp/hosts_grid4x32.txt" "$tmp/grid4x32.cfg" 4 quick
U=("$tmp/grid3x5-11-17.xml" "$tmp/hosts_grid3x5-11-17_interleaved.txt" "$tmp/grid3x5-11-17.cfg" 3)
run_case "generated 5+11+17 interleaved" "${U[@]}" 64
# The relayed all-to-all (issue 27) where its planner relays: korea8's broken triangles
# (A-G 400 ms direct, 22 ms through H), and the uneven grid with c0-c2 half the bandwidth
# and twice the latency of the route through c1.
run_case "korea8 8x4, relayed" "$P/korea8.xml" "$P/hosts_korea8.txt" "$ROOT/examples/korea8.cfg" 8 64 relay
run_case "generated 5+11+17 interleaved, broken c0-c2" "$tmp/broken3.xml" \
  "$tmp/hosts_broken3_interleaved.txt" "$tmp/broken3.cfg" 3 64 relay
bcast_case "korea8 8x4" "$P/korea8.xml" "$P/hosts_korea8.txt" "$ROOT/examples/korea8.cfg" 8 4096
sed 's/^bcast = .*/bcast = { algorithm = "auto"; segment = "512 B"; };/' "$ROOT/examples/korea8.cfg" >"$tmp/korea8-seg.cfg"
BCAST_ALGORITHMS="hlot spt" bcast_case "korea8 8x4, 512 B segments" "$P/korea8.xml" "$P/hosts_korea8.txt" "$tmp/korea8-seg.cfg" 8 65536
BCAST_ALGORITHMS="hlot greedy" bcast_case "generated 4x16" "$tmp/grid4x16.xml" "$tmp/hosts_grid4x16.txt" "$tmp/grid4x16.cfg" 4 quick
bcast_case "generated 5+11+17 interleaved" "${U[@]}" 4096

# Segmented trees, root and receivers with different datatypes of one signature
# (test/mpi/bcast_mixed.c, every root): 3 B and 1000 B segments cut every rank's elements
# in different places. Six korea8 hosts in three clusters (A, G, H: multi-hop trees).
grep -E '^(A|G|H)-[01]$' "$P/hosts_korea8.txt" >"$tmp/hosts_mixed.txt"
for seg in "3 B|240" "1000 B|2400"; do
  IFS='|' read -r size ints <<<"$seg"
  { cat "$tmp/korea8.cfg"; printf 'bcast = { segment = "%s"; };\n' "$size"; } >"$tmp/mixed.cfg"
  for b in flat binomial hlot spt greedy multilevel; do
    forced_run "$P/korea8.xml" "$tmp/hosts_mixed.txt" "$tmp/mixed.cfg" "GRIDCOLL_BCAST=$b" bcast_mixed "$ints"
    if forced_ran bcast_mixed 0 3 "$b"; then
      pass "korea8 A,G,H 6 ranks: bcast $b, mixed datatypes, $size segments"
    else
      fail "korea8 A,G,H 6 ranks: bcast $b, mixed datatypes, $size segments"
    fi
  done
done
# 256 ranks pass too, but take about 10 minutes of wall time (SMPI slows down more than
# linearly with the number of ranks): only on request.
[ "${SMPI_LARGE:-0}" = 1 ] &&
  run_case "generated 8x32" "$tmp/grid8x32.xml" "$tmp/hosts_grid8x32.txt" "$tmp/grid8x32.cfg" 8 quick
echo "smpi: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" = 0 ]
