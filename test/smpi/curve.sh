#!/usr/bin/env bash
# A link's curve against its Hockney line under SimGrid's DEFAULT network model (issue 25):
# no smpi/lat-factor or bw-factor overrides, so SMPI applies its piecewise MPI factors and
# switches from eager to rendezvous at 64 KiB (smpi/send-is-detached-thresh), which a
# straight line alpha + m*beta cannot follow.
#   1. a two-cluster grid of 2+2 hosts (scripts/gen-platform.py: 1 Gbit/s NICs, 25 us
#      links, a 1 Gbit/s wide area at 10 ms) is calibrated by gridcoll-calibrate (SMPI
#      build): alpha, beta and, beside them, every link's curve (--curve's default,
#      1 B to 4 MiB; --no-native: the native table's curves are test/smpi/native.sh's);
#   2. line.cfg is the same file without its curves (what the configuration said before);
#   3. one message inside a cluster and across (the native broadcast of 2 ranks) is run at
#      sizes between the calibration's, 1000 B to 4096000 B, across the protocol switch,
#      and gridcoll-predict predicts it from cal.cfg (curve) and line.cfg (line);
#   4. the curve's prediction must be within 5% of the run at every size, and the line's
#      must miss 5% somewhere (else the test shows nothing).
#   BUILD=build SMPIRUN=smpirun test/smpi/curve.sh   (KEEP=1: keep its folder)
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh # BUILD, SMPIRUN, T, ROOT, tmp, TMPDIR
# SimGrid's default network: no lat-factor, no bw-factor.
FLAGS=(--cfg=smpi/simulate-computation:no --cfg=smpi/auto-shared-malloc-thresh:33554432
       --log=root.thres:critical)
start=$SECONDS
cd "$tmp" || exit 1

python3 "$ROOT/scripts/gen-platform.py" 2 2 . --wan-bw 1Gbps --wan-lat 10ms >/dev/null
if ! "$SMPIRUN" -platform grid2x2.xml -hostfile hosts_grid2x2.txt "${FLAGS[@]}" \
     "$T/smpi/gridcoll-calibrate" -c grid2x2.cfg -s 1KiB:1MiB -r 3 --no-native -o cal.cfg \
     >calibrate.out 2>&1 || ! [ -s cal.cfg ]; then
  echo "FAIL curve: gridcoll-calibrate wrote no configuration"
  sed 's/^/     | /' calibrate.out | tail -20
  echo "smpi curve: 0 passed, 1 failed"
  exit 1
fi
# The line: the same file without its curves (a lan's `curve = ( ... );`, wan's `curves`).
python3 - cal.cfg line.cfg <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'\n\s*curves = \(.*?\}\s*\);', '', text, flags=re.S)
text = re.sub(r'\s*curve = \(.*?\);', '', text, flags=re.S)
open(sys.argv[2], 'w').write(text)
PY
n_all=$(grep -c '^ *curve = (' cal.cfg) # each cluster's, and the pair's
n_wan=$(grep -c 'curves = (' cal.cfg)
if [ "$n_all" != 3 ] || [ "$n_wan" != 1 ] || grep -q 'curve' <(grep -v '^ *#' line.cfg) ||
   ! "$T/gridcoll-predict" -c line.cfg -l 1,1 >/dev/null 2>&1; then
  echo "FAIL curve: expected 2 lan curves and 1 wan curve in cal.cfg, none in line.cfg"
  echo "smpi curve: 0 passed, 1 failed"
  exit 1
fi
echo "     calibrated under SimGrid's default network; curves:"
grep -h 'curve: ping-pong' cal.cfg | sed 's/^ *#/     |/'

# run HOSTS: "m seconds" per line, one message (the native broadcast of 2 ranks).
run() {
  env GRIDCOLL_CONFIG=cal.cfg GRIDCOLL_BCAST=native "$SMPIRUN" -platform grid2x2.xml \
    -hostfile "$1" "${FLAGS[@]}" "$T/smpi/bcast_bench" 1000 4096000 2 2>"run_$1.err" |
    awk -F, '/^bench,/ { print $3, $4 }'
}
# predict CFG LAYOUT: "m seconds" per line, the native broadcast's prediction.
predict() {
  "$T/gridcoll-predict" -c "$1" -o bcast -l "$2" --csv -s "$SIZES" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "native") k = i; next } { print $1, $k }'
}
printf 'c0-0\nc0-1\n' >h_lan
printf 'c0-0\nc1-0\n' >h_wan
run h_lan >a_lan
run h_wan >a_wan
SIZES=$(cut -d' ' -f1 a_lan | paste -sd, -)
predict cal.cfg 2,0 >c_lan; predict line.cfg 2,0 >l_lan
predict cal.cfg 1,1 >c_wan; predict line.cfg 1,1 >l_wan
# compare NAME ACTUAL CURVE LINE: one line per size, the curve's error asserted within 5%.
compare() {
  join <(sort -k1,1 "$2") <(sort -k1,1 "$3") | join - <(sort -k1,1 "$4") | sort -n |
    awk -v n="$1" '{
      ec = ($3 - $2) / $2 * 100; el = ($4 - $2) / $2 * 100; ok = ec < 5 && ec > -5
      printf "%s %s: %d B actual %.4g s, curve %.4g s (%+.1f%%), line %.4g s (%+.1f%%)%s\n",
        ok ? "PASS" : "FAIL", n, $1, $2, $3, ec, $4, el, (el >= 5 || el <= -5) ? " line off" : "" }'
}
{
  compare "one message inside a cluster" a_lan c_lan l_lan
  compare "one message across (wide area)" a_wan c_wan l_wan
} >results
cat results
tally curve 20 line 5
