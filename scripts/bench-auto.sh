#!/usr/bin/env bash
# make bench-auto: every gridcoll algorithm, `auto`, and every model's prediction, on grid
# platforms simulated by SimGrid SMPI (deterministic: the numbers are exact and repeatable).
#
# Scenarios (platform, layout, collective, roots):
#   g5k2      32+32 (g5k2.xml)        all-to-all; broadcast from rank 0
#   g5k2-16x48 16+48 (g5k2_64.xml)    all-to-all; broadcast from rank 0
#   korea8    8 x 4 (korea8.xml)      broadcast from A (rank 0), C (8), E (16), with and
#                                     without 64 KiB segments
#   gen3, gen4, gen8: scripts/gen-platform.py grids (1 Gbit/s wide-area links, 10 ms and
#             more), uneven cluster sizes (3: 4+10+18; 4: 2+6+10+14; 8: 1+2+...+8) with
#             ranks interleaved round-robin over the clusters; all-to-all and broadcast
#             from rank 0 and rank 1 (another cluster).
#   broken3   gen-platform.py's 3 clusters of 14, 20 and 16 hosts, ranks interleaved, the
#             direct c0-c2 link half the bandwidth and twice the latency of the route
#             through c1 (40 ms at 500 Mbit/s; 10 + 10 ms at 1 Gbit/s): relay's case
#             (issue 27); all-to-all and broadcast from rank 0 and rank 1.
# Each simulation (one scenario, one algorithm) runs test/bench/auto_bench.c over every
# size; `auto` runs REPS_AUTO calls per size and root (default 15: learning measures up to 6
# candidates twice, the untimed first call included, so the last calls run what it kept).
# Its steady-state time is its last call's (its pick comes from its local-mode log); the
# report also gives the mean of all its calls, what learning costs over REPS_AUTO calls.
# The predictions come from gridcoll-predict on the same configuration: the same formulas
# the library evaluates. scripts/bench-auto-report.py then prints, per
# scenario, size and root, every algorithm's simulated time, auto's pick, the % auto lost
# to the best, and every model's error, and writes results.csv, errors.csv and auto.png.
#   BUILD=build SMPIRUN=smpirun scripts/bench-auto.sh       (after `make smpi` and `all`)
# Knobs: SCENARIOS (names above), SIZES (bytes, comma-separated; all-to-all and broadcast),
# A2A_SIZES (the all-to-all's, default up to 256 KiB: a 64-rank 1 MiB all-to-all costs
# minutes of wall time per algorithm), JOBS (parallel simulations, default 2), OUT
# (out/bench-auto), PLATFORMS (the SimGrid platforms: platforms by default).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=$(realpath -m "${PLATFORMS:-platforms}")
[ -e "$P/korea8.xml" ] || { echo "bench-auto: no $P/korea8.xml (set PLATFORMS)" >&2; exit 1; }
OUT=${OUT:-out/bench-auto}
SIZES=${SIZES:-1024,4096,16384,65536,262144,1048576}
A2A_SIZES=${A2A_SIZES:-1024,4096,16384,65536,262144}
SCENARIOS=${SCENARIOS:-"g5k2 g5k2-16x48 korea8 gen3 gen4 gen8 broken3"}
JOBS=${JOBS:-2} REPS_AUTO=${REPS_AUTO:-15}
BENCH=$(realpath "$BUILD/smpi/auto_bench")
PREDICT=$(realpath "$BUILD/gridcoll-predict")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32

# The platform's numbers, as gridcoll's configuration states them: contention-free
# switches (gamma 1, no delta: SimGrid shares bandwidth as a fluid), 50 us host to host.
LAN='lan = { alpha = "50 us"; beta = "1 Gbit/s"; gamma = 1.0; delta = 0; threshold = 0; };'

# A configuration placing ranks by rank lists: cluster c holds the ranks listed on line c
# of stdin; wan matrices from the latency (ms) and bandwidth functions given.
write_cfg() { # FILE LATFN BW PAIRWISE
  local file=$1 lat=$2 bw=$3 pairwise=$4 i=0 lists=()
  mapfile -t lists
  local k=${#lists[@]}
  {
    echo "clusters = ("
    for i in $(seq 0 $((k - 1))); do
      printf '  { name = "c%d"; ranks = "%s"; }%s\n' "$i" "${lists[$i]}" "$([ "$i" = $((k - 1)) ] || echo ,)"
    done
    echo ");"
    echo "network = { $LAN"
    echo "  wan = { latency = ("
    for i in $(seq 0 $((k - 1))); do
      printf '    (%s)%s\n' "$(for j in $(seq 0 $((k - 1))); do
        [ "$i" = "$j" ] && printf '"0"' || printf '"%s ms"' "$($lat "$i" "$j")"
        [ "$j" = $((k - 1)) ] || printf ', '; done)" "$([ "$i" = $((k - 1)) ] || echo ,)"
    done
    echo "    ); bandwidth = ("
    for i in $(seq 0 $((k - 1))); do
      printf '    (%s)%s\n' "$(for j in $(seq 0 $((k - 1))); do
        [ "$i" = "$j" ] && printf '"0"' || printf '"%s"' "$bw"
        [ "$j" = $((k - 1)) ] || printf ', '; done)" "$([ "$i" = $((k - 1)) ] || echo ,)"
    done
    echo "    ); }; };"
    echo "alltoall = { native_pairwise = \"$pairwise\"; };"
  } >"$file"
}
g5k_lat() { echo 5.5; }
gen_lat() { echo "$((10 * (1 + (${1} > ${2} ? ${1} - ${2} : ${2} - ${1}))))" | awk '{print $1 / 2}'; }

# g5k2 layouts: contiguous ranks, as the host files place them.
# SMPI's own all-to-all (its default selector is Open MPI's decision table) exchanges
# pairwise from 256 KiB blocks at 64 to 127 ranks and never at 32 to 63: the
# configuration says so (alltoall.native_pairwise), as it would say MPICH's 32 KiB.
{ echo "0-31"; echo "32-63"; } | write_cfg "$work/g5k2.cfg" g5k_lat "10 Gbit/s" "256 KiB"
{ echo "0-15"; echo "16-63"; } | write_cfg "$work/g5k2-16x48.cfg" g5k_lat "10 Gbit/s" "256 KiB"
sed 's/^bcast = .*/bcast = { algorithm = "auto"; segment = "64 KiB"; };/' examples/korea8.cfg >"$work/korea8-seg.cfg"
cp examples/korea8.cfg "$work/korea8.cfg"

# Generated grids: cluster sizes, ranks dealt round-robin to the clusters that still have
# room (so every cluster's ranks are interleaved with the others'), hosts c<i>-<j>.
gen_grid() { # NAME SIZE...
  local name=$1
  shift
  local sizes=("$@") k=$# max=0 r=0 left=() lists=() hosts=()
  for s in "${sizes[@]}"; do ((s > max)) && max=$s; done
  python3 scripts/gen-platform.py "$k" "$max" "$work" >/dev/null || return 1
  mv "$work/grid${k}x${max}.xml" "$work/$name.xml"
  left=("${sizes[@]}")
  local used=()
  for i in $(seq 0 $((k - 1))); do used[$i]=0; lists[$i]=""; done
  while :; do
    local any=0
    for i in $(seq 0 $((k - 1))); do
      ((used[i] < left[i])) || continue
      any=1
      hosts+=("c$i-${used[$i]}")
      lists[$i]+="${lists[$i]:+,}$r"
      used[$i]=$((used[i] + 1)) r=$((r + 1))
    done
    ((any)) || break
  done
  printf '%s\n' "${hosts[@]}" >"$work/hosts_$name.txt"
  printf '%s\n' "${lists[@]}" | write_cfg "$work/$name.cfg" gen_lat "1 Gbit/s" "1 GiB"
}
gen_grid gen3 4 10 18 && gen_grid gen4 2 6 10 14 && gen_grid gen8 1 2 3 4 5 6 7 8 ||
  { echo "bench-auto: scripts/gen-platform.py failed" >&2; exit 1; }
python3 scripts/gen-platform.py 3 14,20,16 "$work" --interleave --link 0-2:40ms:500Mbps \
  --network --name broken3 >/dev/null &&
  echo 'alltoall = { native_pairwise = "1 GiB"; };' >>"$work/broken3.cfg" ||
  { echo "bench-auto: scripts/gen-platform.py failed" >&2; exit 1; }

A2A="native lg relay auto"
BCAST="native flat binomial hlot spt greedy multilevel auto"
# scenario -> "platform hosts config roots"
declare -A PLAT=([g5k2]="$P/g5k2.xml $P/hosts_g5k2_32x32.txt $work/g5k2.cfg"
  [g5k2-16x48]="$P/g5k2_64.xml $P/hosts_g5k2_16x48.txt $work/g5k2-16x48.cfg"
  [korea8]="$P/korea8.xml $P/hosts_korea8.txt $work/korea8.cfg"
  [korea8-seg]="$P/korea8.xml $P/hosts_korea8.txt $work/korea8-seg.cfg"
  [gen3]="$work/gen3.xml $work/hosts_gen3.txt $work/gen3.cfg"
  [gen4]="$work/gen4.xml $work/hosts_gen4.txt $work/gen4.cfg"
  [gen8]="$work/gen8.xml $work/hosts_gen8.txt $work/gen8.cfg"
  [broken3]="$work/broken3.xml $work/hosts_broken3_interleaved.txt $work/broken3.cfg")
declare -A ROOTS=([g5k2]=0 [g5k2-16x48]=0 [korea8]=0,8,16 [korea8-seg]=0,8,16 [gen3]=0,1 [gen4]=0,1 [gen8]=0,1
  [broken3]=0,1)

# One simulation: scenario, op, algorithm; prints "scenario,op,algorithm,m,root,rep,s,pick".
one() {
  local sc=$1 op=$2 alg=$3 plat hosts cfg
  read -r plat hosts cfg <<<"${PLAT[$sc]}"
  local var=GRIDCOLL_ALLTOALL sizes=$A2A_SIZES reps=1 dir="$work/$sc-$op-$alg"
  [ "$op" = bcast ] && var=GRIDCOLL_BCAST sizes=$SIZES
  [ "$alg" = auto ] && reps=$REPS_AUTO
  mkdir -p "$dir"
  (cd "$dir" && env GRIDCOLL_CONFIG="$cfg" "$var=$alg" GRIDCOLL_LOG="$dir/log.%r.csv" \
    GRIDCOLL_LOG_MODE=local timeout 1800 "$SMPIRUN" -platform "$plat" -hostfile "$hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/auto-shared-malloc-thresh:33554432 --log=root.thres:critical \
    "$BENCH" "$op" "$sizes" "${ROOTS[$sc]}" "$reps" >"$dir/out" 2>&1)
  grep -q '^call,' "$dir/out" || { echo "bench-auto: $sc $op $alg failed:" >&2; tail -3 "$dir/out" >&2; }
  # The algorithm that ran each timed call: rank 0's log, calls in order (an untimed first
  # call per size and root, then reps timed ones).
  local picks="$dir/picks"
  if [ -s "$dir/log.0.csv" ]; then
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "algorithm") a = i; next } { print $a }' \
      "$dir/log.0.csv" >"$picks"
  fi
  awk -F, -v sc="$sc" -v alg="$alg" -v reps="$reps" -v picks="$picks" '
    BEGIN { n = 0; while ((getline l < picks) > 0) p[n++] = l }
    /^call,/ { i = int(k / reps) * (reps + 1) + 1 + (k % reps); k++
               print sc "," $2 "," alg "," $4 "," $5 "," $6 "," $7 "," (i < n ? p[i] : "") }' "$dir/out"
}
export -f one
export A2A_SIZES SIZES REPS_AUTO BENCH SMPIRUN work
# associative arrays do not cross `export`: pass them as declarations
export DECL="$(declare -p PLAT ROOTS)"

start=$SECONDS
echo "scenario,op,algorithm,m,root,rep,seconds,ran" >"$OUT/raw.csv"
for sc in $SCENARIOS; do
  case $sc in
    korea8) for a in $BCAST; do echo "korea8 bcast $a"; done
            for a in hlot spt greedy auto; do echo "korea8-seg bcast $a"; done ;;
    *) for a in $A2A; do echo "$sc alltoall $a"; done
       for a in $BCAST; do echo "$sc bcast $a"; done ;;
  esac
done | xargs -P "$JOBS" -L 1 bash -c 'eval "$DECL"; one "$0" "$1" "$2"' >>"$OUT/raw.csv"
echo "bench-auto: $(($(wc -l <"$OUT/raw.csv") - 1)) timings in $((SECONDS - start)) s (wall)"

# Predictions: gridcoll-predict on each configuration, every root, every size.
echo "scenario,op,root,bytes,algorithm,model,predicted" >"$OUT/predicted.csv"
for sc in $SCENARIOS $([[ " $SCENARIOS " == *" korea8 "* ]] && echo korea8-seg); do
  read -r plat hosts cfg <<<"${PLAT[$sc]}"
  n=$(wc -l <"$hosts")
  layout=(-n "$n")
  [[ $sc == korea8* ]] && layout=(-l 4,4,4,4,4,4,4,4)
  [ "$sc" = broken3 ] && layout=(-l 14,20,16) # clusters by host name: sizes, not ranks
  ops="alltoall bcast"
  [[ $sc == korea8* ]] && ops=bcast
  for op in $ops; do
    sizes=$SIZES
    [ "$op" = alltoall ] && sizes=$A2A_SIZES
    for root in ${ROOTS[$sc]//,/ }; do
      [ "$op" = alltoall ] && [ "$root" != 0 ] && continue
      models=$("$PREDICT" -c "$cfg" -o "$op" "${layout[@]}" -r "$root" -s "$sizes" |
        sed -n 's/^# models: \([^;]*\);.*/\1/p')
      "$PREDICT" -c "$cfg" -o "$op" "${layout[@]}" -r "$root" -s "$sizes" --csv |
        awk -F, -v sc="$sc" -v op="$op" -v models="$models" \
          -v root="$([ "$op" = alltoall ] && echo -1 || echo "$root")" '
          BEGIN { n = split(models, ms, " "); for (i = 1; i <= n; i++) { split(ms[i], kv, "="); model[kv[1]] = kv[2] } }
          NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; next }
          { for (i = 2; i < NF; i++) print sc "," op "," root "," $1 "," name[i] "," model[name[i]] "," $i }'
    done
  done
done >>"$OUT/predicted.csv"
"${PYTHON:-$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}" \
  scripts/bench-auto-report.py "$OUT"
