#!/usr/bin/env bash
# SimGrid's acknowledgement traffic (network/crosstraffic, on by default) against an
# exchange whose two directions carry the same bytes in different numbers of flows
# (test/bench/crosstraffic.c): two hosts joined by two one-way links (1 Gbit/s, 10 ms,
# SHARED, as scripts/gen-platform.py writes a wide-area link), SMPI's factors off. For
# each pair of flow counts, the time of each direction without and with the
# acknowledgements, and their ratio. Issue 27: LG sends a cluster pair b messages one way
# and a*ceil(b/a) the other (shim/alltoall/pure/lg_schedule.h), equal only where the
# smaller cluster's size divides the larger's; the library's pairwise exchange sends as
# many each way.
#   BUILD=build scripts/bench-crosstraffic.sh     (after `make smpi`; a few seconds)
# Knobs: PAIRS ("A:B ...", each side N equal messages or NxU[+NxU...], N messages of U
# units: test/bench/crosstraffic.c; default 1:1 1:2 1:4 2:2 22:22 22:36 and LG's pair of
# 18 and 22 ranks, 22x18:18x18+18x4, then its larger side mirrored), BYTES (64 MiB a
# direction).
# Prints: flows_0to1,flows_1to0,dir,seconds_off,seconds_on,on_over_off
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
PAIRS=${PAIRS:-1:1 1:2 1:4 2:2 22:22 22:36 22x18:18x18+18x4 18x18+18x4:18x18+18x4}
BYTES=${BYTES:-67108864}
PROG=$(realpath "$BUILD/smpi/crosstraffic") || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
cat >"$work/p.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="two" routing="Full">
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <link id="wan-0-1" bandwidth="1Gbps" latency="10ms" sharing_policy="SHARED"/>
    <link id="wan-1-0" bandwidth="1Gbps" latency="10ms" sharing_policy="SHARED"/>
    <route src="h0" dst="h1" symmetrical="NO"><link_ctn id="wan-0-1"/></route>
    <route src="h1" dst="h0" symmetrical="NO"><link_ctn id="wan-1-0"/></route>
  </zone>
</platform>
XML
printf 'h0\nh1\n' >"$work/hosts"

# One run: A B crosstraffic; prints "seconds_0to1,seconds_1to0" (rank 1 receives the first).
one() {
  local out
  out=$("$SMPIRUN" -np 2 -platform "$work/p.xml" -hostfile "$work/hosts" \
    --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=network/crosstraffic:"$3" \
    --cfg=smpi/simulate-computation:no --log=root.thres:critical "$PROG" "$1" "$2" "$BYTES" 2>&1)
  awk -F, '/^[01],/ { t[$1] = $2; got[$1] = 1 }
    END { if (!got[0] || !got[1]) exit 1; print t[1] "," t[0] }' <<<"$out" ||
    { echo "bench-crosstraffic: $1:$2 crosstraffic $3 failed:" >&2; tail -3 <<<"$out" >&2; exit 1; }
}

echo "flows_0to1,flows_1to0,dir,seconds_off,seconds_on,on_over_off"
for p in $PAIRS; do
  a=${p%:*} b=${p#*:}
  off=$(one "$a" "$b" 0) && on=$(one "$a" "$b" 1) || exit 1
  awk -F, -v a="$a" -v b="$b" -v off="$off" -v on="$on" 'BEGIN {
    split(off, f, ","); split(on, n, ",")
    printf "%s,%s,0to1,%.4f,%.4f,%.2f\n", a, b, f[1], n[1], n[1] / f[1]
    printf "%s,%s,1to0,%.4f,%.4f,%.2f\n", a, b, f[2], n[2], n[2] / f[2] }'
done
