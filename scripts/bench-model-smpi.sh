#!/usr/bin/env bash
# make bench-model-smpi: the all-to-all models against SimGrid SMPI (deterministic).
#
#   1. gridcoll-calibrate (built with smpicc) on 16 processes of one cluster of g5k2_64
#      (nancy-0..15): alpha, beta by ping-pong, the contention signature by all-to-all;
#   2. the MPI library's own all-to-all (SMPI's default algorithm) on 8, 16, 32 and 64
#      processes of that cluster, blocks of 1 KiB..1 MiB (test/bench/alltoall_bench.c);
#   3. gridcoll-predict on the calibrated file: the contention signature (000 Eq. 4, 5)
#      and the contention-free linear model (000 Eq. 1) for the same n and m;
#   4. median and 90th percentile of the relative prediction error of both models, per
#      process count and over all.
# Everything lands in OUT_DIR (out/bench-model-smpi).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=${PLATFORMS:-$PWD/platforms} # platforms/README.md
out=${OUT_DIR:-out/bench-model-smpi}
mkdir -p "$out"
out=$(realpath "$out")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32
flags=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
       --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical)
hosts() { for i in $(seq 0 $(($1 - 1))); do echo "nancy-$i"; done >"$work/h$1"; echo "$work/h$1"; }

echo "== 1. calibrate on 16 processes of nancy (g5k2_64) -> $out/calibrated.cfg"
"$SMPIRUN" -platform "$P/g5k2_64.xml" -hostfile "$(hosts 16)" "${flags[@]}" \
  "$BUILD/smpi/gridcoll-calibrate" -C 0-15 -s 1KiB:1MiB -r 3 -o "$out/calibrated.cfg" 2>&1 |
  grep -E 'alpha|gamma|warning' || true

bench=$(realpath "$BUILD/smpi/alltoall_bench")
echo "== 2. SMPI's own all-to-all on 8..64 processes, 1 KiB..1 MiB"
echo "n,m,actual_s" >"$out/actual.csv"
for n in 8 16 32 64; do
  (cd "$work" && GRIDCOLL_ALLTOALL=native "$SMPIRUN" -platform "$P/g5k2_64.xml" -hostfile "$(hosts $n)" \
    "${flags[@]}" "$bench" 1024 1048576 4 1 1 2>/dev/null) |
    sed -n 's/^bench,\([0-9]*\),\([0-9]*\),\(.*\)$/\1,\2,\3/p' >>"$out/actual.csv"
  echo "   $n processes: done"
done

echo "== 3. predictions of the calibrated models"
echo "n,m,signature_s,linear_s" >"$out/predicted.csv"
for n in 8 16 32 64; do
  "$BUILD/gridcoll-predict" -c "$out/calibrated.cfg" -l "$n" -s 1KiB,4KiB,16KiB,64KiB,256KiB,1MiB \
    --linear --csv | awk -F, -v n="$n" 'NR > 1 { print n "," $1 "," $2 "," $4 }'
done >>"$out/predicted.csv"

echo "== 4. relative prediction error |predicted - actual| / actual"
python3 - "$out/actual.csv" "$out/predicted.csv" <<'PY' | tee "$out/errors.txt"
import csv, sys
actual = {(int(r["n"]), int(r["m"])): float(r["actual_s"]) for r in csv.DictReader(open(sys.argv[1]))}
pred = {(int(r["n"]), int(r["m"])): (float(r["signature_s"]), float(r["linear_s"]))
        for r in csv.DictReader(open(sys.argv[2]))}

def pct(v, q):
    v = sorted(v)
    i = q * (len(v) - 1)
    lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)

print(f"{'procs':>5} {'calls':>5} | {'signature median':>16} {'p90':>6} | {'linear median':>13} {'p90':>6}")
groups = {}
for key in sorted(actual):
    if key in pred:
        groups.setdefault(key[0], []).append(key)
        groups.setdefault("all", []).append(key)
for g, keys in groups.items():
    sig = [abs(pred[k][0] - actual[k]) / actual[k] for k in keys]
    lin = [abs(pred[k][1] - actual[k]) / actual[k] for k in keys]
    print(f"{g:>5} {len(keys):>5} | {pct(sig, .5) * 100:>15.0f}% {pct(sig, .9) * 100:>5.0f}% | "
          f"{pct(lin, .5) * 100:>12.0f}% {pct(lin, .9) * 100:>5.0f}%")
print("\nper size (n, m: actual, signature, linear), seconds:")
for k in sorted(actual):
    if k in pred:
        print(f"  {k[0]:>3} {k[1]:>8}: {actual[k]:.4g} {pred[k][0]:.4g} {pred[k][1]:.4g}")
PY
