#!/usr/bin/env bash
# bench-multihost: native against LG (all-to-all) and against the trees (broadcast)
# across the hosts of scripts/grid-up, in real time: hosts that talk TCP through a
# backbone shaped by tc, where many flows share a small queue, lose packets and back off.
#
# test/mpi/sweep runs under gridcoll once per algorithm (forced), one process per host,
# clusters from host globs (test/multihost/grid.cfg). The log, in sync mode, gives every
# call's completion time (slowest rank) and the model's prediction. Per operation,
# algorithm and size: median of the calls, native's median over it (above 1: faster than
# native), the median prediction, and the median relative error of the predictions.
# Also the packets the backbone queues dropped during each run.
#
#   HOSTS=2 (per cluster) MAX=1048576 REPS=5 RATE=100mbit OUT=out/bench-multihost
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/..")
HOSTS=${HOSTS:-2}
MAX=${MAX:-1048576}
REPS=${REPS:-5}
RATE=${RATE:-100mbit}
OUT=${OUT:-out/bench-multihost}
BCAST_TREES=${BCAST_TREES:-flat binomial hlot spt greedy multilevel}

source "$GRID_ROOT/test/multihost/lib.sh"
why=$(grid_unavailable "$RATE")
if [ -n "$why" ]; then echo "SKIP bench-multihost: $why"; exit 0; fi
LIB=$(realpath "$BUILD/libgridcoll.so")
SWEEP=$(realpath "$BUILD/test/mpi/sweep")
CFG=$GRID_ROOT/test/multihost/grid.cfg
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
tmp=$(mktemp -d)
grid_built=0
cleanup() { [ "$grid_built" = 0 ] || "$GRID_ROOT/scripts/grid-down"; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$tmp" || exit 1

"$GRID_ROOT/scripts/grid-up" -k 2 -n "$HOSTS" -r "$RATE" || exit 1
grid_built=1
N=$((2 * HOSTS))
echo "bench-multihost: 2 clusters of $HOSTS hosts, backbone $RATE each way; sweep 1 KiB..$MAX B, $REPS calls per size; real time"

# run NAME VAR=VALUE...: one sweep; its per-rank logs become $OUT/NAME-<rank>.csv.
: >"$OUT/drops.txt"
run() {
  local name=$1 genv=() v drops
  shift
  for v in "$@"; do genv+=(-genv "${v%%=*}" "${v#*=}"); done
  rm -f "$OUT/$name"-*.csv
  drops=$(backbone_drops)
  grid_mpirun 600 "[ \$(ls $OUT/$name-*.csv 2>/dev/null | wc -l) = $N ] && grep -q 'sweep: *$MAX ' out" -- \
    -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$CFG" -genv GRIDCOLL_LOG "$OUT/$name-%r.csv" \
    -genv GRIDCOLL_LOG_MODE sync -genv GRIDCOLL_SUMMARY 0 "${genv[@]}" -n "$N" nice "$SWEEP" "$MAX" "$REPS"
  if [ "$rc" != 0 ]; then
    echo "bench-multihost: run $name failed (exit $rc):" >&2
    sed 's/^/  | /' out err | head -20 >&2
    exit 1
  fi
  echo "$name $(($(backbone_drops) - drops))" >>"$OUT/drops.txt"
}
run alltoall-native GRIDCOLL_ALLTOALL=native GRIDCOLL_BCAST=native
run alltoall-lg GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=native
for b in $BCAST_TREES; do run "bcast-$b" GRIDCOLL_ALLTOALL=native GRIDCOLL_BCAST="$b"; done

# Rank 0's records: in sync mode each holds the call's completion time.
/usr/bin/env python3 - "$OUT" <<'PY'
import csv, glob, os, statistics, sys
out = sys.argv[1]
calls = {}  # (op, algorithm, bytes) -> [(actual, predicted)]
for path in sorted(glob.glob(os.path.join(out, "*-0.csv"))):
    run = os.path.basename(path)[:-6]
    want = "alltoall" if run.startswith("alltoall-") else "bcast"
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["op"] != want and not (r["op"] == "bcast" and r["algorithm"] == "native"):
                continue
            calls.setdefault((r["op"], r["algorithm"], int(r["bytes"])), []).append(
                (float(r["actual_s"]), float(r["predicted_s"])))
rows = []
for (op, alg, m), v in sorted(calls.items()):
    act = statistics.median(a for a, _ in v)
    pred = statistics.median(p for _, p in v)
    err = statistics.median(abs(p - a) / a for a, p in v if a > 0)
    rows.append((op, alg, m, len(v), act, pred, err))
native = {(op, m): act for op, alg, m, _, act, _, _ in rows if alg == "native"}
with open(os.path.join(out, "results.csv"), "w") as f:
    f.write("op,algorithm,bytes,calls,median_s,native_over_this,median_predicted_s,median_rel_error\n")
    for op, alg, m, n, act, pred, err in rows:
        f.write(f"{op},{alg},{m},{n},{act:.6g},{native[(op, m)] / act:.4g},{pred:.6g},{err:.4g}\n")
for op in ("alltoall", "bcast"):
    print(f"\n{op}: median ms of the calls, (native / this: above 1 is faster than native), "
          "[median |predicted - actual| / actual]")
    sizes = sorted({m for o, _, m, *_ in rows if o == op})
    algs = [a for a in dict.fromkeys(alg for o, alg, *_ in rows if o == op)]
    algs.sort(key=lambda a: a != "native")
    print(f"{'algorithm':<11}" + "".join(f"{m:>26}" for m in sizes))
    for a in algs:
        cells = []
        for m in sizes:
            r = [x for x in rows if x[0] == op and x[1] == a and x[2] == m]
            if not r:
                cells.append(f"{'-':>26}")
                continue
            _, _, _, _, act, pred, err = r[0]
            cells.append(f"{act * 1e3:>9.2f} ({native[(op, m)] / act:4.2f}) [{100 * err:5.0f}%]")
        print(f"{a:<11}" + "".join(f"{c:>26}" for c in cells))
PY
echo
echo "packets dropped by the backbone queues, per run:"
sed 's/^/  /' "$OUT/drops.txt"
[ "$finalize_hangs" = 0 ] || echo "note: $finalize_hangs run(s) ended by the harness after their results: a rank hung in MPI_Finalize (UCX over TCP, like openucx/ucx#8738)"
echo "logs and results.csv in $OUT"
