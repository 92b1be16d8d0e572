#!/usr/bin/env bash
# make bench-model: how well do the all-to-all models predict this machine?
#
#   1. gridcoll-calibrate on NP_CAL (4) processes, one cluster per host: alpha, beta and
#      the contention signature (gamma, delta, M) of this machine;
#   2. the sweep program under gridcoll with GRIDCOLL_ALLTOALL=native and that file, for
#      2..NP_MAX (8) processes, 1 KiB..1 MiB blocks, REPS calls per size, logged in sync
#      mode: each record holds the signature model's prediction (000 Eq. 4, 5) beside the
#      actual time;
#   3. the contention-free linear model (000 Eq. 1) for the same calls, from
#      gridcoll-predict --linear on the same file;
#   4. median and 90th percentile of the absolute and relative prediction errors of both
#      models, over all calls and per process count, and the report's table and plot.
# Everything lands in OUT_DIR (out/bench-model). On a machine with fewer cores than
# processes the ranks are oversubscribed and every time is noisy: read the numbers so.
set -euo pipefail
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
NP_CAL=${NP_CAL:-4}
NP_MAX=${NP_MAX:-8}
REPS=${REPS:-5}
out=${OUT_DIR:-out/bench-model}
lib=$(realpath "$BUILD/libgridcoll.so")
mkdir -p "$out"
out=$(realpath "$out")
rm -f "$out"/n*-*.csv

echo "== 1. calibrate on $NP_CAL processes -> $out/calibrated.cfg"
start=$SECONDS
"$MPIEXEC" -n "$NP_CAL" "$BUILD/gridcoll-calibrate" -s 1KiB:1MiB -r 10 -t 60 -o "$out/calibrated.cfg"
grep -E '^ *(lan =|delta =|#.*fit:)' "$out/calibrated.cfg" | head -6

echo "== 2. native all-to-all under gridcoll, 2..$NP_MAX processes, 1 KiB..1 MiB, $REPS calls per size"
for n in $(seq 2 "$NP_MAX"); do
  "$MPIEXEC" -genv LD_PRELOAD "$lib" -genv GRIDCOLL_CONFIG "$out/calibrated.cfg" \
    -genv GRIDCOLL_ALLTOALL native -genv GRIDCOLL_LOG "$out/n$n-%r.csv" -genv GRIDCOLL_SUMMARY 0 \
    -n "$n" "$BUILD/test/mpi/sweep" 1048576 "$REPS" >/dev/null
  echo "   $n processes: done ($((SECONDS - start)) s so far)"
done

echo "== 3. per-call records and the linear model's predictions"
scripts/gridcoll-report --op alltoall --calls "$out/calls.csv" -p "$out/bench-model.png" \
  "$out"/n*-*.csv >"$out/report.txt"
sizes=$(tail -n +2 "$out/calls.csv" | cut -d, -f7 | sort -n -u | paste -sd, -)
for n in $(seq 2 "$NP_MAX"); do
  "$BUILD/gridcoll-predict" -c "$out/calibrated.cfg" -l "$n" -s "$sizes" --linear --csv |
    sed "1d; s/^/$n,/" # n,bytes,native(signature),lg,linear,auto
done >"$out/linear.csv"

echo "== 4. prediction errors over $(($(wc -l <"$out/calls.csv") - 1)) calls (actual = slowest rank)"
/usr/bin/python3 - "$out/calls.csv" "$out/linear.csv" <<'PY'
import csv, sys
calls = list(csv.DictReader(open(sys.argv[1])))
linear = {}
for row in csv.reader(open(sys.argv[2])):
    linear[(int(row[0]), int(row[1]))] = (float(row[2]), float(row[4]))

def pct(v, q):
    v = sorted(v)
    i = q * (len(v) - 1)
    lo = int(i)
    return v[lo] + (v[min(lo + 1, len(v) - 1)] - v[lo]) * (i - lo)

def line(label, rows):
    cells = [f"{label:<6}{len(rows):>6}"]
    for k in (0, 1):  # signature, linear
        ab = [abs(p[k] - a) for p, a in rows]
        rel = [abs(p[k] - a) / a for p, a in rows]
        cells.append(f"{pct(ab, .5) * 1e3:>9.2f} {pct(ab, .9) * 1e3:>9.2f} "
                     f"{pct(rel, .5) * 100:>7.0f}% {pct(rel, .9) * 100:>7.0f}%")
    print(" | ".join(cells))

rows, by_n = [], {}
for c in calls:
    n, m, a = int(c["procs"]), int(c["bytes"]), float(c["actual_s"])
    sig_log, lin = float(c["predicted_s"]), linear[(n, m)][1]
    # The log's prediction is gridcoll-predict's signature column: same code, same file.
    assert abs(sig_log - linear[(n, m)][0]) <= 1e-6 * sig_log, (n, m, sig_log)
    rows.append(((sig_log, lin), a))
    by_n.setdefault(n, []).append(rows[-1])
print(f"{'':12} | {'signature (000 Eq. 4, 5)':^37} | {'linear (000 Eq. 1)':^37}")
print(f"{'procs':<6}{'calls':>6} | " + " | ".join(
    [f"{'|err| ms':>9} {'p90 ms':>9} {'rel med':>8} {'rel p90':>8}"] * 2))
for n in sorted(by_n):
    line(str(n), by_n[n])
line("all", rows)
PY
echo "== table: $out/report.txt; plot: $out/bench-model.png; $((SECONDS - start)) s in all"
