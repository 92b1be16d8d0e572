#!/usr/bin/env bash
# scripts/bench-auto-report.py on made-up timings whose figures are worked out by hand
# below: the numbers README.md and doc/benchmarks.md quote from `make bench-auto` (auto's
# loss, its first 15 and first 1000 calls, the models' errors) come from this script.
#   test/unit/bench_auto_report.sh        (part of make check-unit)
set -u
cd "$(dirname "$0")/../.." || exit 1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fails=0
check() { # what, expected, got
  if [ "$2" = "$3" ]; then
    echo "ok   bench-auto-report: $1"
  else
    echo "FAIL bench-auto-report: $1: expected '$2', got '$3'"
    fails=$((fails + 1))
  fi
}

# Three cases (seconds):
#   gridA all-to-all 1 KiB: native 0.100, lg 0.200, relay 0.150; auto's 20 calls: native,
#     lg (explored), relay (explored), then native 17 times.
#     first 15: (0.1 + 0.2 + 0.15 + 12 x 0.1) / 15 = 0.110, +10.0%; all 20 (first 1000):
#     2.15 / 20 = 0.1075, +7.5%; steady (the last) 0.0%; 2 explored; worst explored call
#     0.2 over the best seen before it (0.1): 2.00x; best first run at call 1.
#     Predicted: native 0.110 (+10%), lg 0.150 (-25%), relay none.
#   gridA broadcast from root 0, 4 KiB: flat 0.050, hlot 0.040; auto: hlot, hlot, flat
#     (explored, the last): steady 0.05 / 0.04 = +25.0%; first 15: 0.13 / 3, +8.3%; worst
#     1.25x; best at call 1. No prediction.
#   gridB all-to-all 1 KiB: native 0.1, lg 0.2; auto: lg (explored) then native 999 times:
#     first 15: 1.6 / 15, +6.7%; first 1000: 100.1 / 1000, +0.1%; best first at call 2;
#     worst 0.00x (an exploring first call has nothing measured before it).
# auto's steady loss over the three: 0.0, 25.0, 0.0: median 0.0%, worst 25.0%, 2 of 3
# within 2%.
python3 - "$out" <<'EOF'
import csv, sys
out = sys.argv[1]
rows = []
def forced(sc, op, root, m, alg, s):
    rows.append(dict(network="default", scenario=sc, op=op, root=root, m=m, algorithm=alg,
                     rep=0, seconds=s, ran=alg, explored=""))
def auto(sc, op, root, m, calls):
    for i, (alg, s, ex) in enumerate(calls):
        rows.append(dict(network="default", scenario=sc, op=op, root=root, m=m,
                         algorithm="auto", rep=i, seconds=s, ran=alg, explored=ex))
forced("gridA", "alltoall", -1, 1024, "native", 0.100)
forced("gridA", "alltoall", -1, 1024, "lg", 0.200)
forced("gridA", "alltoall", -1, 1024, "relay", 0.150)
auto("gridA", "alltoall", -1, 1024,
     [("native", 0.1, "0"), ("lg", 0.2, "1"), ("relay", 0.15, "1")] + [("native", 0.1, "0")] * 17)
forced("gridA", "bcast", 0, 4096, "flat", 0.050)
forced("gridA", "bcast", 0, 4096, "hlot", 0.040)
auto("gridA", "bcast", 0, 4096, [("hlot", 0.04, "0"), ("hlot", 0.04, "0"), ("flat", 0.05, "1")])
forced("gridB", "alltoall", -1, 1024, "native", 0.1)
forced("gridB", "alltoall", -1, 1024, "lg", 0.2)
auto("gridB", "alltoall", -1, 1024, [("lg", 0.2, "1")] + [("native", 0.1, "0")] * 999)
with open(f"{out}/raw.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
with open(f"{out}/predicted.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["network", "scenario", "op", "root", "bytes", "algorithm", "model", "predicted"])
    w.writerow(["default", "gridA", "alltoall", -1, 1024, "native", "measured", 0.110])
    w.writerow(["default", "gridA", "alltoall", -1, 1024, "lg", "lg-backbone", 0.150])
    w.writerow(["default", "gridA", "alltoall", -1, 1024, "relay", "relay-backbone", "-"])
EOF
if ! MPLBACKEND=Agg python3 scripts/bench-auto-report.py "$out" >"$out/stdout" 2>"$out/stderr"; then
  echo "FAIL bench-auto-report: exit status"; cat "$out/stderr"
  exit 1
fi

# The CSV files end their lines with \r\n (Python's csv module).
for f in learning errors results; do tr -d '\r' <"$out/$f.csv" >"$out/$f.txt"; done
# learning.csv: scenario,op,root,m -> first15,first1000,steady,explored,best_at,worst,calls
got=$(awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 ":" $9 "," $10 "," $11 "," $12 "," $13 "," $14 "," $8 }' \
  "$out/learning.txt" | sort | tr '\n' ' ')
check "learning.csv: first 15, first 1000, steady, explored, best at, worst, calls" \
  "gridA,alltoall,-1,1024:10.0,7.5,0.0,2,1,2.00,20 gridA,bcast,0,4096:8.3,8.3,25.0,1,1,1.25,3 gridB,alltoall,-1,1024:6.7,0.1,0.0,1,2,0.00,1000 " \
  "$got"
got=$(awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' "$out/errors.txt" | sort | tr '\n' ' ')
check "errors.csv: each model's n, median and worst |error|" \
  "alltoall,lg,lg-backbone,1,25.0,25.0 alltoall,native,measured,1,10.0,10.0 " "$got"
got=$(awk -F, 'NR > 1 && $6 == "native" { print $2 "," $5 "," $11 "," $12 "," $13 "," $14 }' \
  "$out/results.txt" | sort | tr '\n' ' ')
check "results.csv: the best, what auto ran last, its loss and its calls' mean loss" \
  "gridA,1024,native,native,0.0,7.5 gridB,1024,native,native,0.0,0.1 " "$got"
check "the steady losses' summary" \
  "[default] auto lost to the best: median 0.0%, worst 25.0%, within 2% in 2 of 3 cases (steady state: auto's last call)" \
  "$(grep '^\[default\] auto lost' "$out/stdout")"
check "the case above the goal is named" "  gridA bcast root 0 4096 B: ran flat, best hlot, lost 25.0%" \
  "$(grep 'ran flat, best hlot' "$out/stdout")"
check "the first 15 calls' summary" \
  "default: first 15 within 5% of the best in 0 of 3 cases (median 8.3%, worst 10.0%)" \
  "$(grep '^default: first 15' "$out/stdout")"
check "the first 1000 calls' line, only where every case ran 1000" \
  "default gridB: first 1000 0.1% to 0.1% above the best, within 1% in 1 and within 3% in 1 of 1 cases; the best first run at call 2" \
  "$(grep '^default grid[AB]: first 1000' "$out/stdout")"
echo "bench-auto-report: $fails failed"
[ "$fails" = 0 ]
