#!/usr/bin/env bash
# The MPI library's own collectives measured as black boxes (issue 25) under SimGrid's
# DEFAULT network model (no lat-factor or bw-factor overrides, as test/smpi/curve.sh):
#   1. a two-cluster grid of 2+2 hosts (a power of 2: SMPI's all-to-all
#      selector picks its pair algorithm, which refuses other counts) (scripts/gen-platform.py: 1 Gbit/s NICs, 25 us
#      links, a 1 Gbit/s wide area at 10 ms) is calibrated by gridcoll-calibrate (SMPI
#      build), which also times SMPI's own MPI_Alltoall and MPI_Bcast on all 4 ranks at the
#      powers of 2 and their midpoints from 1 B to 1 MiB, each protocol step bisected: the native table;
#   2. formula.cfg is the same file without its native table (what it said before);
#   3. the native all-to-all, and the native broadcast from each cluster's first rank, run
#      at sizes between the calibration's (5 * 4^k bytes: 5 B to 320 KiB), and
#      gridcoll-predict predicts them from cal.cfg (model "measured") and formula.cfg;
#   4. the measured prediction must be within 10% of the run at every size, and the
#      formula's must miss 10% somewhere (else the test shows nothing).
#   BUILD=build SMPIRUN=smpirun test/smpi/native.sh   (KEEP=1: keep its folder)
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/smpi/setup.sh # BUILD, SMPIRUN, T, ROOT, tmp, TMPDIR
FLAGS=(--cfg=smpi/simulate-computation:no --cfg=smpi/auto-shared-malloc-thresh:33554432
       --log=root.thres:critical)
start=$SECONDS
cd "$tmp" || exit 1

fail() {
  echo "FAIL native: $1"
  echo "smpi native: 0 passed, 1 failed"
  exit 1
}
python3 "$ROOT/scripts/gen-platform.py" 2 2 . --wan-bw 1Gbps --wan-lat 10ms >/dev/null
if ! "$SMPIRUN" -platform grid2x2.xml -hostfile hosts_grid2x2.txt "${FLAGS[@]}" \
     "$T/smpi/gridcoll-calibrate" -c grid2x2.cfg -s 1KiB:1MiB -r 3 --no-curve -o cal.cfg \
     >calibrate.out 2>&1 || ! [ -s cal.cfg ]; then
  sed 's/^/     | /' calibrate.out | tail -20
  fail "gridcoll-calibrate wrote no configuration"
fi
# The formula: the same file without its native table.
python3 - cal.cfg formula.cfg <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'\nnative = \{.*?\n\};\n', '\n', text, flags=re.S)
open(sys.argv[2], 'w').write(text)
PY
grep -q '^native = {' cal.cfg && grep -q 'procs = 4;' cal.cfg && ! grep -q '^native' formula.cfg ||
  fail "expected a native table of 4 processes in cal.cfg, none in formula.cfg"
"$T/gridcoll-predict" -c cal.cfg -o alltoall -l 2,2 -s 1KiB | grep -q 'native=measured' ||
  fail "gridcoll-predict does not predict the native all-to-all from the table"
"$T/gridcoll-predict" -c cal.cfg -o alltoall -l 1,2 -s 1KiB | grep -q 'native=measured' &&
  fail "the table was used on a layout it was not measured on (1+2)"
echo "     calibrated under SimGrid's default network; native table of $(grep -c '"[0-9]* B"' \
  <(sed -n '/^native = {/,/^};/p' cal.cfg)) points"

SIZES=5,20,80,320,1280,5120,20480,81920,327680
# run OP ROOT: "m seconds" per line, the MPI library's own call under gridcoll.
run() {
  if [ "$1" = alltoall ]; then
    env GRIDCOLL_CONFIG=cal.cfg GRIDCOLL_ALLTOALL=native "$SMPIRUN" -platform grid2x2.xml \
      -hostfile hosts_grid2x2.txt "${FLAGS[@]}" "$T/smpi/alltoall_bench" 5 327680 4 1 1
  else
    env GRIDCOLL_CONFIG=cal.cfg GRIDCOLL_BCAST=native "$SMPIRUN" -platform grid2x2.xml \
      -hostfile hosts_grid2x2.txt "${FLAGS[@]}" "$T/smpi/bcast_bench" 5 327680 4 1 1 "$2"
  fi 2>"run_$1_$2.err" | awk -F, '/^bench,/ { print $3, $4 }'
}
# predict CFG OP ROOT: "m seconds" per line, the native row's prediction.
predict() {
  "$T/gridcoll-predict" -c "$1" -o "$2" -l 2,2 -r "$3" --csv -s "$SIZES" |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "native") k = i; next } { print $1, $k }'
}
# compare NAME ACTUAL MEASURED FORMULA: one line per size, the table's error within 10%.
compare() {
  join <(sort -k1,1 "$2") <(sort -k1,1 "$3") | join - <(sort -k1,1 "$4") | sort -n |
    awk -v n="$1" '{
      em = ($3 - $2) / $2 * 100; ef = ($4 - $2) / $2 * 100; ok = em < 10 && em > -10
      printf "%s %s: %d B actual %.4g s, measured %.4g s (%+.1f%%), formula %.4g s (%+.1f%%)%s\n",
        ok ? "PASS" : "FAIL", n, $1, $2, $3, em, $4, ef, (ef >= 10 || ef <= -10) ? " formula off" : "" }'
}
for case in "alltoall 0" "bcast 0" "bcast 2"; do
  set -- $case
  run "$1" "$2" >"a_$1_$2"
  predict cal.cfg "$1" "$2" >"m_$1_$2"
  predict formula.cfg "$1" "$2" >"f_$1_$2"
  name="native $1"; [ "$1" = bcast ] && name="native bcast from rank $2"
  compare "$name" "a_$1_$2" "m_$1_$2" "f_$1_$2"
done >results
cat results
tally native 27 formula 10
