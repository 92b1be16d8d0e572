#!/usr/bin/env bash
# make bench-auto: every gridcoll algorithm, `auto`, and every model's prediction, on grid
# platforms simulated by SimGrid SMPI (deterministic: the numbers are exact and repeatable),
# under two network settings (NETS, the first one the main one):
#   default  SimGrid's default network model (its piecewise MPI latency and bandwidth
#            factors: cost bends with the message size as real MPI's does), and the
#            configuration gridcoll-calibrate wrote on it, run first on the platform as a
#            user would (curves, native table and all);
#   fluid    factors off (smpi/lat-factor:0:1, smpi/bw-factor:0:1): the platform's numbers
#            exactly, and a configuration that states them (a check of the formulas).
# A setting named in CALIBRATE (default "default") runs on a calibrated configuration, any
# other on the stated one.
#
# Scenarios (platform, layout; broadcast roots):
#   demo      make demo's grid: 4 clusters of 4 (scripts/gen-platform.py, 1 Gbit/s links at
#             5-20 ms), ranks cluster by cluster; roots 0 (c0) and 8 (c2)
#   gen3, gen4, gen8: scripts/gen-platform.py grids (1 Gbit/s wide-area links, 5 ms and
#             more), uneven cluster sizes (3: 4+10+18; 4: 2+6+10+14; 8: 1+2+...+8) with
#             ranks interleaved round-robin over the clusters (--interleave); roots 0 and 1
#             (two clusters)
#   broken3   gen-platform.py's 3 clusters of 14, 20 and 16 hosts, ranks interleaved, the
#             direct c0-c2 link half the bandwidth and twice the latency of the route
#             through c1 (40 ms at 500 Mbit/s; 10 + 10 ms at 1 Gbit/s): relay's case
#             (issue 27); roots 0 and 1
#   g5k2      32+32 (g5k2.xml), g5k2-16x48 16+48 (g5k2_64.xml): root 0
#   korea8    8 x 4 (korea8.xml): broadcast only, from A (rank 0), C (8), E (16), with and
#             without 64 KiB segments (korea8-seg)
# Each simulation (one setting, scenario, collective, algorithm) runs
# test/bench/auto_bench.c over every size. Every rank enters each timed call at the same
# simulated instant, so its completion time is the collective's own time (no wait). `auto`
# runs REPS_AUTO calls per size and root (default 15: learning measures up to 6 candidates
# twice, the untimed first call included, so the last calls run what it kept). Its steady
# state is its last call (its pick from its local-mode log); the report also gives the mean
# of all its calls, what learning costs over REPS_AUTO calls, and its learning table: the
# means of the first 15 and first 1000 calls against the best forced algorithm, the steady
# loss and the calls learning measured (the log's explored column). REPS_AUTO=1000 for the
# first-1000 mean costs about 1.5 s of wall time per 100 calls of a 32-rank broadcast, 3 s
# of a 64-rank all-to-all. The algorithms are the columns
# gridcoll-predict prints for each collective (one list, the library's own tables), plus
# auto; the predictions come from gridcoll-predict on the same configuration: the same
# formulas the library evaluates. scripts/bench-auto-report.py then prints, per setting,
# scenario, collective, root and size, every algorithm's simulated time, auto's pick, the %
# auto lost to the best, and every model's error; per scenario and per model the median and
# worst error under each setting; and writes results.csv, errors.csv and auto.png.
#   BUILD=build SMPIRUN=smpirun scripts/bench-auto.sh       (after `make smpi` and `all`)
# Knobs: NETS ("default fluid"), CALIBRATE ("default"), SCENARIOS (default "demo gen3 gen4
# gen8 broken3"; also g5k2 g5k2-16x48 korea8), SIZES (bytes, comma-separated; the broadcast's),
# A2A_SIZES (the all-to-all's, default 1 KiB to 1 MiB as the broadcast's: the default
# scenarios' 1 MiB all-to-alls take about 2 minutes of wall time together, g5k2's of 64
# ranks minutes per algorithm), REPS_AUTO, JOBS (parallel simulations, default
# 2), OUT (out/bench-auto), PLATFORMS (the SimGrid platforms: platforms by default),
# CAL_ARGS (gridcoll-calibrate's sizes and repetitions, default "-s 1KiB:1MiB -r 3": the
# calibrations take most of the wall time, the 8-cluster grid's native table most of
# them), PREDICT_ONLY=1 (no simulation: the predictions again from OUT's configurations, host
# files and raw.csv, after a change to a model; OUT/cfg keeps them), KOREA8_ROOTS (korea8's
# broadcast roots, default 0,8,16), KOREA8_SEG=0 (korea8 without its 64 KiB segments run),
# WRONG (with korea8: korea8's broadcasts again, each on korea8's configuration with one
# parameter wrong, issue 26's "configuration wrong by 5x": words PARAMxN multiply it by N,
# PARAMdN divide it, PARAM one of bw (every wide-area bandwidth), lat (every wide-area
# latency), eager (bcast.native_eager, 64 KiB unless the configuration states it);
# scenario korea8-WORD), CROSSTRAFFIC=0 (every setting without the TCP acknowledgements
# SimGrid charges to the links of each flow's way back, platforms/README.md: under fluid,
# every byte a link carries is then data, as the formulas count). What learning costs
# with a wrong configuration over 1000 calls:
#   NETS=fluid SCENARIOS=korea8 KOREA8_ROOTS=0,16 KOREA8_SEG=0 SIZES=65536,1048576 \
#     REPS_AUTO=1000 WRONG="bwx5 bwd5 latx5 latd5 eagerx5 eagerd5" JOBS=1 scripts/bench-auto.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
SMPIRUN=${SMPIRUN:-smpirun}
P=$(realpath -m "${PLATFORMS:-platforms}")
[ -e "$P/korea8.xml" ] || { echo "bench-auto: no $P/korea8.xml (set PLATFORMS)" >&2; exit 1; }
OUT=${OUT:-out/bench-auto}
SIZES=${SIZES:-1024,4096,16384,65536,262144,1048576}
A2A_SIZES=${A2A_SIZES:-1024,4096,16384,65536,262144,1048576}
CROSSTRAFFIC=${CROSSTRAFFIC:-1}
[[ $CROSSTRAFFIC == [01] ]] || { echo "bench-auto: CROSSTRAFFIC=$CROSSTRAFFIC: expected 0 or 1" >&2; exit 1; }
SCENARIOS=${SCENARIOS:-"demo gen3 gen4 gen8 broken3"}
NETS=${NETS:-"default fluid"}
CALIBRATE=${CALIBRATE:-default}
JOBS=${JOBS:-2} REPS_AUTO=${REPS_AUTO:-15}
KOREA8_ROOTS=${KOREA8_ROOTS:-0,8,16} KOREA8_SEG=${KOREA8_SEG:-1} WRONG=${WRONG:-}
SEG=$([ "$KOREA8_SEG" = 0 ] || echo seg)
CAL_ARGS=${CAL_ARGS:-"-s 1KiB:1MiB -r 3"}
BENCH=$(realpath "$BUILD/smpi/auto_bench")
CALIB=$(realpath "$BUILD/smpi/gridcoll-calibrate")
PREDICT=$(realpath "$BUILD/gridcoll-predict")
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # smpirun -tmpdir is broken in SimGrid 3.32

# smpirun's flags under each network setting.
net_flags() { # NET
  echo --cfg=smpi/simulate-computation:no --cfg=smpi/auto-shared-malloc-thresh:33554432 \
    --log=root.thres:critical
  [ "$1" = fluid ] && echo --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
  echo --cfg=network/crosstraffic:"$CROSSTRAFFIC"
  return 0
}

# The platform's numbers, as gridcoll's configuration states them: contention-free
# switches (gamma 1, no delta: SimGrid shares bandwidth as a fluid), 50 us host to host.
LAN='lan = { alpha = "50 us"; beta = "1 Gbit/s"; gamma = 1.0; delta = 0; threshold = 0; };'

# Rank lists of a host file's clusters (a host is CLUSTER-N), one line per cluster in the
# order of first appearance: "0,3,6".
lists_of() {
  awk '{ c = $1; sub(/-[^-]*$/, "", c); if (!(c in at)) { at[c] = n++; l[at[c]] = "" }
         i = at[c]; l[i] = l[i] (l[i] == "" ? "" : ",") NR - 1 }
       END { for (i = 0; i < n; i++) print l[i] }' "$1"
}
# The clusters as rank lists (cluster c holds the ranks on line c of stdin): what
# gridcoll-calibrate is told, and the start of a stated configuration.
write_clusters() {
  local lists=() i
  mapfile -t lists
  echo "clusters = ("
  for i in "${!lists[@]}"; do
    printf '  { name = "c%d"; ranks = "%s"; }%s\n' "$i" "${lists[$i]}" \
      "$([ "$i" = $((${#lists[@]} - 1)) ] || echo ,)"
  done
  echo ");"
}
# A stated configuration: the clusters of HOSTS, wan matrices from the latency (ms) and
# bandwidth functions given.
write_cfg() { # FILE HOSTS LATFN BW PAIRWISE
  local file=$1 hosts=$2 lat=$3 bw=$4 pairwise=$5 k i j
  k=$(lists_of "$hosts" | wc -l)
  {
    lists_of "$hosts" | write_clusters
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
gen_lat() { awk -v i="$1" -v j="$2" 'BEGIN { d = i > j ? i - j : j - i; print 10 * (1 + d) / 2 }'; }

# Platforms, host files and stated configurations: $work/<scenario>.{xml,hosts,stated.cfg}.
# SMPI's own all-to-all (its default selector is Open MPI's decision table) exchanges
# pairwise from 256 KiB blocks at 64 to 127 ranks and never below 64 ranks: the stated
# configuration says so (alltoall.native_pairwise), as it would say MPICH's 32 KiB.
gen_grid() { # NAME K SIZES [--interleave]
  local name=$1 k=$2 sizes=$3 il=${4:-} base
  python3 scripts/gen-platform.py "$k" "$sizes" "$work/gen" --wan-bw 1Gbps --wan-lat 10ms $il \
    >/dev/null || return 1
  base="grid${k}x${sizes//,/-}"
  cp "$work/gen/$base.xml" "$work/$name.xml"
  cp "$work/gen/hosts_$base${il:+_interleaved}.txt" "$work/$name.hosts"
  write_cfg "$work/$name.stated.cfg" "$work/$name.hosts" gen_lat "1 Gbit/s" "1 GiB"
}
prepare() { # SCENARIO
  case $1 in
    demo) gen_grid demo 4 4 ;;
    gen3) gen_grid gen3 3 4,10,18 --interleave ;;
    gen4) gen_grid gen4 4 2,6,10,14 --interleave ;;
    gen8) gen_grid gen8 8 1,2,3,4,5,6,7,8 --interleave ;;
    broken3) python3 scripts/gen-platform.py 3 14,20,16 "$work/gen" --interleave \
               --link 0-2:40ms:500Mbps --network --name broken3 >/dev/null || return 1
          cp "$work/gen/broken3.xml" "$work/broken3.xml"
          cp "$work/gen/hosts_broken3_interleaved.txt" "$work/broken3.hosts"
          # its network as gen-platform.py states it, its clusters as rank lists: the
          # predictions below give gridcoll-predict a layout, and a host glob's would be
          # contiguous (the ranks are dealt round robin)
          { lists_of "$work/broken3.hosts" | write_clusters
            sed '/^clusters = (/,/^);/d' "$work/gen/broken3.cfg"
            echo 'alltoall = { native_pairwise = "1 GiB"; };'; } >"$work/broken3.stated.cfg" ;;
    g5k2) cp "$P/g5k2.xml" "$work/g5k2.xml"; cp "$P/hosts_g5k2_32x32.txt" "$work/g5k2.hosts"
          write_cfg "$work/g5k2.stated.cfg" "$work/g5k2.hosts" g5k_lat "10 Gbit/s" "256 KiB" ;;
    g5k2-16x48) cp "$P/g5k2_64.xml" "$work/g5k2-16x48.xml"
          cp "$P/hosts_g5k2_16x48.txt" "$work/g5k2-16x48.hosts"
          write_cfg "$work/g5k2-16x48.stated.cfg" "$work/g5k2-16x48.hosts" g5k_lat "10 Gbit/s" "256 KiB" ;;
    korea8) cp "$P/korea8.xml" "$work/korea8.xml"; cp "$P/hosts_korea8.txt" "$work/korea8.hosts"
          cp examples/korea8.cfg "$work/korea8.stated.cfg"
          for v in $SEG $WRONG; do
            cp "$work/korea8.xml" "$work/korea8-$v.xml"; cp "$work/korea8.hosts" "$work/korea8-$v.hosts"
          done ;;
    *) echo "bench-auto: unknown scenario $1" >&2; return 1 ;;
  esac
}
# shellcheck disable=SC2054 # the commas are in the values: a scenario's roots
declare -A ROOTS=([demo]=0,8 [gen3]=0,1 [gen4]=0,1 [gen8]=0,1 [broken3]=0,1 [g5k2]=0 [g5k2-16x48]=0
  [korea8]=$KOREA8_ROOTS [korea8-seg]=$KOREA8_ROOTS)
for w in $WRONG; do ROOTS[korea8-$w]=$KOREA8_ROOTS; done
# Korea8's broadcasts again with 64 KiB segments, on whatever configuration korea8 has.
segmented() { sed 's/^bcast *= .*/bcast = { algorithm = "auto"; segment = "64 KiB"; };/' "$1"; }
# korea8's configuration FILE with one parameter wrong (WORD: bwx5, latd5, eagerx5, ...): the
# quoted values of its wan latency or bandwidth matrix (written as examples/korea8.cfg's, one
# row a line) or its bcast.native_eager, scaled. Fails where nothing was scaled.
wrong() { # WORD FILE
  [[ $1 =~ ^(bw|lat|eager)([xd])([0-9.]+)$ ]] || { echo "bench-auto: WRONG word $1: expected (bw|lat|eager)(x|d)N" >&2; return 1; }
  local f=${BASH_REMATCH[3]}
  [ "${BASH_REMATCH[2]}" = d ] && f=$(awk -v f="$f" 'BEGIN { printf "%.17g", 1 / f }')
  awk -v what="${BASH_REMATCH[1]}" -v f="$f" '
    function scale(line,   out, s, n) { # every quoted "NUMBER UNIT" of line, times f
      out = ""
      while (match(line, /"[0-9.eE+-]+ [^"]+"/)) {
        s = substr(line, RSTART + 1, RLENGTH - 2); n = s; sub(/ .*/, "", n); sub(/^[^ ]+ /, "", s)
        out = out substr(line, 1, RSTART - 1) sprintf("\"%.6g %s\"", n * f, s); line = substr(line, RSTART + RLENGTH); done++
      }
      return out line
    }
    what == "eager" && /native_eager *=/ { $0 = scale($0) }
    what == "eager" && /^bcast *=/ && !/native_eager/ { sub(/\{/, sprintf("{ native_eager = \"%.6g B\";", 65536 * f)); done++ }
    (what == "lat" && /^ *(wan = \{ *)?latency = \(/) || (what == "bw" && /^ *bandwidth = \(/) { on = 1 }
    on { $0 = scale($0); if (/\);/) on = 0 }
    { print }
    END { if (!done) { print "bench-auto: nothing to scale for " what > "/dev/stderr"; exit 1 } }' "$2"
}

start=$SECONDS
if [ -n "${PREDICT_ONLY:-}" ]; then
  [ -s "$OUT/raw.csv" ] && [ -d "$OUT/cfg" ] || { echo "bench-auto: no $OUT/raw.csv or $OUT/cfg" >&2; exit 1; }
  cp -r "$OUT/cfg/." "$work/"
  SCENARIOS=$(awk -F, 'NR > 1 && $2 !~ /^korea8-/ { print $2 }' "$OUT/raw.csv" | sort -u | tr '\n' ' ')
  WRONG=$(awk -F, 'NR > 1 && $2 ~ /^korea8-/ && $2 != "korea8-seg" { sub(/^korea8-/, "", $2); print $2 }' \
    "$OUT/raw.csv" | sort -u | tr '\n' ' ')
  for w in $WRONG; do ROOTS[korea8-$w]=$KOREA8_ROOTS; done
  SEG=$(awk -F, '$2 == "korea8-seg" { print "seg"; exit }' "$OUT/raw.csv")
  NETS=$(awk -F, 'NR > 1 && !($1 in s) { s[$1]; printf "%s ", $1 }' "$OUT/raw.csv")
fi
for sc in $SCENARIOS; do [ -n "${PREDICT_ONLY:-}" ] || prepare "$sc" || exit 1; done
# The configurations: $work/<net>/<scenario>.cfg, calibrated where CALIBRATE says.
cal_start=$SECONDS
[ -n "${PREDICT_ONLY:-}" ] || for net in $NETS; do
  mkdir -p "$work/$net"
  for sc in $SCENARIOS; do
    if [[ " $CALIBRATE " == *" $net "* ]]; then
      lists_of "$work/$sc.hosts" | write_clusters >"$work/$net/$sc.clusters.cfg"
      # shellcheck disable=SC2046
      (cd "$work/$net" && timeout 1800 "$SMPIRUN" -platform "$work/$sc.xml" -hostfile "$work/$sc.hosts" \
        $(net_flags "$net") "$CALIB" -c "$sc.clusters.cfg" $CAL_ARGS -o "$sc.cfg" \
        >"$sc.calibrate.out" 2>&1)
      [ -s "$work/$net/$sc.cfg" ] ||
        { echo "bench-auto: gridcoll-calibrate failed on $sc ($net):" >&2; tail -5 "$work/$net/$sc.calibrate.out" >&2; exit 1; }
      cp "$work/$net/$sc.cfg" "$OUT/$net-$sc.cfg"
    else
      cp "$work/$sc.stated.cfg" "$work/$net/$sc.cfg"
    fi
    if [ "$sc" = korea8 ]; then
      [ -z "$SEG" ] || segmented "$work/$net/korea8.cfg" >"$work/$net/korea8-seg.cfg"
      for w in $WRONG; do wrong "$w" "$work/$net/korea8.cfg" >"$work/$net/korea8-$w.cfg" || exit 1; done
    fi
  done
done
if [ -z "${PREDICT_ONLY:-}" ]; then
  echo "bench-auto: configurations ready in $((SECONDS - cal_start)) s (wall; calibrated under: $CALIBRATE)"
  rm -rf "$OUT/cfg" && mkdir -p "$OUT/cfg" &&
    for net in $NETS; do mkdir -p "$OUT/cfg/$net" && cp "$work/$net"/*.cfg "$OUT/cfg/$net/"; done &&
    cp "$work"/*.hosts "$OUT/cfg/"
fi

# The algorithms of an operation: gridcoll-predict's columns (its tables: a new algorithm
# is measured without a change here), then auto.
algorithms() { # OP
  "$PREDICT" -o "$1" -n 2 -s 1024 --csv | head -1 | tr , '\n' | sed '1d' | grep -vx auto
  echo auto
}
A2A=$(algorithms alltoall | tr '\n' ' ')
BCAST=$(algorithms bcast | tr '\n' ' ')

# One simulation: net, scenario, op, algorithm; prints "net,scenario,op,algorithm,m,root,rep,s,pick".
one() {
  local net=$1 sc=$2 op=$3 alg=$4
  local var=GRIDCOLL_ALLTOALL sizes=$A2A_SIZES reps=1 dir="$work/$net/$sc-$op-$alg"
  [ "$op" = bcast ] && var=GRIDCOLL_BCAST sizes=$SIZES
  [ "$alg" = auto ] && reps=$REPS_AUTO
  mkdir -p "$dir"
  # The time limit grows with auto's calls past the default 15: 1000 of a 50-rank
  # all-to-all at 256 KiB take about half an hour, and a simulation cut short loses its
  # log (what ran each call). The default run's 15 take broken3's all-to-all to 96 calls,
  # 16 of them at 1 MiB, where LG's and relay's take about 100 s of wall time each on a
  # 2-core machine: past 1800 s beside another simulation (2026-11-29), so 3600.
  local limit=$((reps <= 15 ? 3600 : 3600 * reps / 15)) rc
  # shellcheck disable=SC2046
  (cd "$dir" && env GRIDCOLL_CONFIG="$work/$net/$sc.cfg" "$var=$alg" GRIDCOLL_LOG="$dir/log.%r.csv" \
    GRIDCOLL_LOG_MODE=local timeout "$limit" "$SMPIRUN" -platform "$work/$sc.xml" -hostfile "$work/$sc.hosts" \
    $(net_flags "$net") "$BENCH" "$op" "$sizes" "${ROOTS[$sc]}" "$reps" >"$dir/out" 2>&1)
  rc=$?
  if [ "$rc" != 0 ] || ! grep -q '^call,' "$dir/out"; then
    echo "bench-auto: $net $sc $op $alg failed (exit $rc$([ "$rc" = 124 ] && echo ": past $limit s"));" \
      "its rows are the calls it finished:" >&2
    tail -3 "$dir/out" >&2
  fi
  # The algorithm that ran each timed call: rank 0's log, calls in order (an untimed first
  # call per size and root, then reps timed ones).
  local picks="$dir/picks"
  if [ -s "$dir/log.0.csv" ]; then
    # and whether learning measured it (the log's explored column; empty in older logs)
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "algorithm") a = i; if ($i == "explored") x = i }; next }
             { print $a "," (x ? $x : "") }' "$dir/log.0.csv" >"$picks"
  fi
  awk -F, -v pre="$net,$sc" -v alg="$alg" -v reps="$reps" -v picks="$picks" '
    BEGIN { n = 0; while ((getline l < picks) > 0) p[n++] = l }
    /^call,/ { i = int(k / reps) * (reps + 1) + 1 + (k % reps); k++
               print pre "," $2 "," alg "," $4 "," $5 "," $6 "," $7 "," (i < n ? p[i] : ",") }' "$dir/out"
}
export -f one net_flags
export A2A_SIZES SIZES REPS_AUTO BENCH SMPIRUN work CROSSTRAFFIC
# associative arrays do not cross `export`: pass them as a declaration
export DECL="$(declare -p ROOTS)"

sim_start=$SECONDS
[ -n "${PREDICT_ONLY:-}" ] || echo "network,scenario,op,algorithm,m,root,rep,seconds,ran,explored" >"$OUT/raw.csv"
[ -n "${PREDICT_ONLY:-}" ] || for net in $NETS; do
  for sc in $SCENARIOS; do
    case $sc in
      korea8) for a in $BCAST; do echo "$net korea8 bcast $a"; done
              for a in $([ -n "$SEG" ] && echo hlot spt greedy auto); do echo "$net korea8-seg bcast $a"; done
              for w in $WRONG; do for a in $BCAST; do echo "$net korea8-$w bcast $a"; done; done ;;
      *) for a in $A2A; do echo "$net $sc alltoall $a"; done
         for a in $BCAST; do echo "$net $sc bcast $a"; done ;;
    esac
  done
done | xargs -P "$JOBS" -L 1 bash -c 'eval "$DECL"; one "$0" "$1" "$2" "$3"' >>"$OUT/raw.csv"
[ -n "${PREDICT_ONLY:-}" ] ||
  echo "bench-auto: $(($(wc -l <"$OUT/raw.csv") - 1)) timings in $((SECONDS - sim_start)) s (wall)"

# Predictions: gridcoll-predict on each configuration, every root, every size.
echo "network,scenario,op,root,bytes,algorithm,model,predicted" >"$OUT/predicted.csv"
for net in $NETS; do
  for sc in $SCENARIOS $([[ " $SCENARIOS " == *" korea8 "* ]] && for v in $SEG $WRONG; do echo "korea8-$v"; done); do
    cfg=$work/$net/$sc.cfg
    layout=(-n "$(wc -l <"$work/$sc.hosts")")
    # clusters by host name (examples/korea8.cfg): their sizes, contiguous as the host file is
    grep -q 'hosts = \[' "$cfg" &&
      layout=(-l "$(lists_of "$work/$sc.hosts" | awk -F, '{ printf "%s%d", (NR > 1 ? "," : ""), NF }')")
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
          awk -F, -v pre="$net,$sc,$op" -v models="$models" \
            -v root="$([ "$op" = alltoall ] && echo -1 || echo "$root")" '
            BEGIN { n = split(models, ms, " "); for (i = 1; i <= n; i++) { split(ms[i], kv, "="); model[kv[1]] = kv[2] } }
            NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; next }
            { for (i = 2; i < NF; i++) print pre "," root "," $1 "," name[i] "," model[name[i]] "," $i }'
      done
    done
  done
done >>"$OUT/predicted.csv"
echo "bench-auto: $((SECONDS - start)) s in all (wall, JOBS=$JOBS)"
"${PYTHON:-$([ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}" \
  scripts/bench-auto-report.py "$OUT"
