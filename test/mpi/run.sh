#!/usr/bin/env bash
# MPI integration tests: unmodified programs (linked without gridcoll) get it through
# LD_PRELOAD, as a user's would, under several topologies and configurations.
# Each case checks real results: buffers equal to the PMPI call's, log records per call
# and rank, exactly one warning for a bad configuration and the program unharmed.
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
LIB=$(realpath "${GRIDCOLL_LIB:-$BUILD/libgridcoll.so}") # $BUILD/libgridcoll-openmpi.so for Open MPI
T=$(realpath "$BUILD/test/mpi")
ROOT=$(realpath "$(dirname "$0")/../..") # scripts/ and examples/, for the tools' cases
. "$ROOT/scripts/launcher.sh"              # MPICH's hydra or Open MPI's mpirun
ALLTOALL_ALGORITHMS=${ALLTOALL_ALGORITHMS:-native lg relay}
BCAST_ALGORITHMS=${BCAST_ALGORITHMS:-native flat binomial hlot spt greedy multilevel}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/     | /' out err 2>/dev/null | head -20; }

# mpirun N [VAR=VALUE ...] -- program args: the variables reach every rank through the
# launcher (-env / -x, scripts/launcher.sh), LD_PRELOAD included; stdout to ./out,
# stderr to ./err, exit code in $rc.
# A case that names LD_PRELOAD itself (stacked tools) replaces the default, which is
# $PRELOAD (a sanitizer's runtime, say) followed by gridcoll. LIMIT=S before the call
# kills it after S seconds instead of 300 (cases that would hang if gridcoll regressed).
mpirun() {
  local n=$1; shift
  local cmd=(timeout "${LIMIT:-300}" "${GC_LAUNCH[@]}") preload=(LD_PRELOAD="${PRELOAD:+$PRELOAD }$LIB") a
  for a in "$@"; do
    [ "$a" = -- ] && break
    [[ $a == LD_PRELOAD=* ]] && preload=()
  done
  gc_app cmd "$n" "${preload[@]}" "$@"
  "${cmd[@]}" >out 2>err
  rc=$?
}

# mpirun_mpmd "N [VAR=VALUE ...] -- program args" ...: one app context per argument
# (word-split), each with LD_PRELOAD; output as mpirun's.
mpirun_mpmd() {
  local cmd=(timeout "${LIMIT:-300}" "${GC_LAUNCH[@]}") ctx sep=()
  for ctx in "$@"; do
    cmd+=("${sep[@]}")
    # shellcheck disable=SC2086 # one context's words
    set -- $ctx
    local n=$1; shift
    gc_app cmd "$n" LD_PRELOAD="${PRELOAD:+$PRELOAD }$LIB" "$@"
    sep=(:)
  done
  "${cmd[@]}" >out 2>err
  rc=$?
}

# skip NAME REASON: a case this MPI cannot run, said, never silently.
skipped=0
skip() { skipped=$((skipped + 1)); echo "skip $1 ($2)"; }

# Lines gridcoll wrote on stderr, the summary table aside.
warnings() { grep '^gridcoll:' err | grep -c -v -E '^gridcoll: (summary of|op  |alltoall |alltoallv |bcast |first call on each|one-process communicators|learning )'; }
# "${own_err[@]}" program args: each rank's stderr in its own file, err.RANK, for cases
# that compare the ranks' lines: a launcher may cut two ranks' lines into each other
# (Open MPI's forwarding does, under load).
# shellcheck disable=SC2016 # expanded by the rank's own shell
own_err=(/bin/sh -c 'exec "$0" "$@" 2>"err.${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-x}}"')
no_failures() { [ "$rc" = 0 ] && grep -q ' 0 failed' out && ! grep -q '^FAIL' out; }
# "op,algorithm=count ..." of a log file, sorted.
ops_in() { tail -n +2 "$1" | cut -d, -f5,6 | LC_ALL=C sort | uniq -c | awk '{printf "%s=%s ", $2, $1}'; }

# ONLY=GROUP: one group of cases alone, for a quick check: files (test/mpi/files.sh: the
# files gridcoll reads and writes), fastpath (the passthrough path, the decision cache),
# calibrate (gridcoll-calibrate), log (the per-call log), learn (`auto` learning from
# measured calls), nonblocking (test/mpi/nonblocking.sh: the schedules and every door
# into the two collectives, entry_points); alltoallv runs its cases below.
cat >interleaved.cfg <<'CFG'
clusters = ( { name = "even"; ranks = "0,2"; }, { name = "odd"; ranks = "1,3"; } );
CFG
cat >three.cfg <<'CFG'
clusters = ( { name = "a"; ranks = "0,3"; }, { name = "b"; ranks = "1,4"; }, { name = "c"; ranks = "2"; } );
CFG
# used_as ALGORITHM APPLIES: the log of rank 0 shows the forced algorithm ran on the
# multi-cluster communicators when it applies, and never when it does not.
used_as() {
  local a=$1 applies=$2 count
  count=$(awk -F, -v a="$a" 'NR > 1 && $6 == a' rec-0.csv | wc -l)
  if [ "$a" = native ]; then return 0; fi
  if [ "$applies" = 1 ]; then [ "$count" -gt 0 ]; else [ "$count" = 0 ]; fi
}
case ${ONLY:-} in
  '' | alltoallv) ;;
  files | fastpath | calibrate | log | learn | nonblocking)
    # shellcheck disable=SC1090 # one of the group files beside this one
    . "$ROOT/test/mpi/$ONLY.sh"
    echo "mpi $ONLY ($GC_LAUNCHER): $passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit ;;
  *) echo "test/mpi/run.sh: ONLY=$ONLY: expected files, fastpath, calibrate, log, learn, nonblocking or alltoallv" >&2; exit 2 ;;
esac

# --- correctness under every topology and algorithm --------------------------------
# ranks|setting|LG applies|trees apply|relay applies (LG needs two clusters and one of
# two processes or more; the trees need two clusters; relay, LG and three clusters).
topologies=(
  "2|GRIDCOLL_CLUSTERS=host|0|0|0"
  "2|GRIDCOLL_CLUSTERS=0,1|0|1|0"
  "3|GRIDCOLL_CLUSTERS=0,1-2|1|1|0"
  "4|GRIDCOLL_CLUSTERS=0-1,2-3|1|1|0"
  "4|GRIDCOLL_CONFIG=$tmp/interleaved.cfg|1|1|0"
  "5|GRIDCOLL_CONFIG=$tmp/three.cfg|1|1|1"
)
for entry in "${topologies[@]}"; do
  [ "${ONLY:-}" = alltoallv ] && break # its cases alone (below)
  IFS='|' read -r n topo lg_applies trees_apply relay_applies <<<"$entry"
  for a in $ALLTOALL_ALGORITHMS; do
    rm -f rec-*.csv
    applies=$lg_applies; [ "$a" = relay ] && applies=$relay_applies
    mpirun "$n" "$topo" GRIDCOLL_ALLTOALL="$a" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoall"
    no_failures && [ "$(warnings)" = 0 ] && used_as "$a" "$applies" &&
      pass "alltoall $a, $n ranks, $topo" || fail "alltoall $a, $n ranks, $topo"
  done
  for b in $BCAST_ALGORITHMS; do
    rm -f rec-*.csv
    mpirun "$n" "$topo" GRIDCOLL_BCAST="$b" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast"
    no_failures && [ "$(warnings)" = 0 ] && used_as "$b" "$trees_apply" &&
      pass "bcast $b, $n ranks, $topo" || fail "bcast $b, $n ranks, $topo"
  done
done

# The relayed all-to-all where its planner relays (a broken triangle, issue 27): grid3's
# shape (a-b 20 ms at 50 Mbit/s, through c 3 + 4 ms at 100 Mbit/s) on 5 ranks, 3 uneven
# interleaved clusters on 8, and 4 clusters on 8 (two broken links). Every datatype case,
# in place, on the test's communicators; rank 0's log shows relay ran with a prediction
# (relay-backbone predicts only where the routes relay a message).
relay_net() { # the latency and bandwidth matrices of k clusters, a-b (and c-d) broken
  local k=$1 c d lat sep row
  printf 'network = { wan = {\n  latency = ('
  for lat in latency bandwidth; do
    [ "$lat" = bandwidth ] && printf '  bandwidth = ('
    sep=
    for ((c = 0; c < k; c++)); do
      row=
      for ((d = 0; d < k; d++)); do
        if [ "$c" = "$d" ]; then v=0
        elif [ "$((c / 2))$((d / 2))" = 00 ] || [ "$((c / 2))$((d / 2))" = 11 ]; then
          v=$([ "$lat" = latency ] && echo '20 ms' || echo '50 Mbit/s')
        else v=$([ "$lat" = latency ] && echo "$((3 + (c + d) % 2)) ms" || echo '100 Mbit/s'); fi
        row+="${row:+, }\"$v\""
      done
      printf '%s(%s)' "$sep" "$row"; sep=', '
    done
    printf ');\n'
  done
  printf '}; };\n'
}
{ echo 'clusters = ( { name = "a"; ranks = "0,3"; }, { name = "b"; ranks = "1,4"; }, { name = "c"; ranks = "2"; } );'; relay_net 3; } >relay5.cfg
{ echo 'clusters = ( { name = "a"; ranks = "0,3,6"; }, { name = "b"; ranks = "1,4,5,7"; }, { name = "c"; ranks = "2"; } );'; relay_net 3; } >relay8.cfg
{ echo 'clusters = ( { name = "a"; ranks = "0,4"; }, { name = "b"; ranks = "1,5,6"; }, { name = "c"; ranks = "2"; }, { name = "d"; ranks = "3,7"; } );'; relay_net 4; } >relay8x4.cfg
for entry in "5|relay5.cfg" "8|relay8.cfg" "8|relay8x4.cfg"; do
  [ "${ONLY:-}" = alltoallv ] && break
  IFS='|' read -r n cfg <<<"$entry"
  rm -f rec-*.csv
  mpirun "$n" GRIDCOLL_CONFIG="$tmp/$cfg" GRIDCOLL_ALLTOALL=relay GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoall"
  no_failures && [ "$(warnings)" = 0 ] && used_as relay 1 &&
    awk -F, 'NR > 1 && $6 == "relay" && $10 == "relay-backbone" && $11 > 0 { n++ } END { exit !n }' rec-0.csv &&
    pass "alltoall relay, relaying, $n ranks, $cfg" || fail "alltoall relay, relaying, $n ranks, $cfg"
done

# The packing's verdict without an agreement per call (lg.c, relay.c): from call 3 on,
# test/mpi/tool/verdict_tool.c makes one rank's packing fail per call (rank r on call
# 3 + r: stagers, relays and destinations in turn). Every rank must fall back on that
# call alone (logged native, the others relay with a prediction: the plan relays 64 KiB
# blocks), every result equal to PMPI_Alltoall's, and no agreement inside any call, the
# first included (LG's context and relay's routes are agreed with the communicator's state,
# the buffers grow without one).
for entry in "5|relay5.cfg" "8|relay8x4.cfg"; do
  [ "${ONLY:-}" = alltoallv ] && break
  IFS='|' read -r n cfg <<<"$entry"
  calls=$((3 + n + 1))
  rm -f rec-*.csv
  mpirun "$n" LD_PRELOAD="${PRELOAD:+$PRELOAD }$T/verdict_tool.so $LIB" VERDICT_FAIL_FROM=3 \
    GRIDCOLL_CONFIG="$tmp/$cfg" GRIDCOLL_ALLTOALL=relay GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/verdict" "$calls" 65536
  logs_ok=1
  for ((r = 0; r < n; r++)); do
    # the ranks' logs: native on calls 3 .. 3 + n - 1, relay predicted on the others
    awk -F, -v n="$n" -v calls="$calls" 'NR > 1 { c = NR - 1; fb = c >= 3 && c < 3 + n
      if (fb ? $6 != "native" : $6 != "relay" || $11 <= 0) bad = 1 }
      END { exit bad || NR - 1 != calls }' "rec-$r.csv" || logs_ok=0
  done
  no_failures && grep -q "^verdict: $calls calls, 0 failed" out && [ "$(warnings)" = 0 ] && [ "$logs_ok" = 1 ] &&
    [ "$(grep -c "^verdict_tool: rank [0-9]* calls $calls packs_failed 1 agreements 0$" err)" = "$n" ] &&
    pass "alltoall relay: one rank's pack failure, every rank falls back, no agreement per call, $n ranks, $cfg" ||
    fail "alltoall relay: one rank's pack failure, every rank falls back, no agreement per call, $n ranks, $cfg"
done

# MPI_Alltoallv (test/mpi/alltoallv.sh); ONLY=alltoallv runs these cases alone.
. "$ROOT/test/mpi/alltoallv.sh"
if [ "${ONLY:-}" = alltoallv ]; then
  echo "mpi alltoallv ($GC_LAUNCHER): $passed passed, $failed failed"
  [ "$failed" = 0 ]
  exit
fi

# --- measured latency (GRIDCOLL_PROBE) -------------------------------------------------
# 4 ranks in 3 clusters (c0 = 0, c1 = 1, c2 = 2-3); the test's four communicators give
# comm rank 0 to world ranks 0, 3 and 0/1 (halves). Broadcasts stay byte-identical;
# every probed communicator has one row per ordered pair of its clusters, in the
# companion file of its comm rank 0's log, with a positive measured latency (one
# machine: well below a second), times with nine decimals as in the log; and every
# rank made the same choice and prediction for every call, so all built their tree from
# the same agreed matrix.
probe_ok() {
  cat rec-[0-9].csv.latency.csv >lat.all 2>/dev/null || return 1
  [ "$(grep -c '^comm,from,to,configured_s,measured_s$' lat.all)" = "$(ls rec-[0-9].csv.latency.csv | wc -l)" ] || return 1
  awk -F, '$1 == "comm" { next } { n++; if (!($5 > 0 && $5 < 1 && $4 > 0)) bad = 1 } END { exit bad || !n }' lat.all || return 1
  # seconds to the nanosecond, as the log writes its times (%.9f)
  ! grep -v '^comm,' lat.all | grep -vqE ',[0-9]+\.[0-9]{9},[0-9]+\.[0-9]{9}$' || return 1
  # k(k-1) rows per communicator whose broadcasts spanned k >= 2 clusters
  awk -F, 'FNR > 1 && $5 == "bcast" && $9 >= 2 { k[$2] = $9 } END { for (c in k) print c, k[c] * (k[c] - 1) }' rec-[0-9].csv | sort >want
  awk -F, '$1 != "comm" { n[$1]++; if (seen[$1 "," $2 "," $3]++) n[$1] = -1 } END { for (c in n) print c, n[c] }' lat.all | sort >got
  [ -s want ] && cmp -s want got || return 1
  # (comm, call) -> (algorithm, predicted_s) identical on every rank that made the call
  awk -F, 'FNR > 1 { key = $2 "," $4; v = $6 "," $11; if (key in seen && seen[key] != v) bad = 1; seen[key] = v } END { exit bad }' rec-[0-9].csv
}
for b in hlot greedy; do
  rm -f rec-*
  mpirun 4 GRIDCOLL_CLUSTERS=0,1,2-3 GRIDCOLL_PROBE=1 GRIDCOLL_BCAST="$b" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast"
  no_failures && [ "$(warnings)" = 0 ] && used_as "$b" 1 && probe_ok &&
    pass "probe: bcast $b byte-identical, one latency row per pair, same choices on every rank" ||
    fail "probe: bcast $b byte-identical, one latency row per pair, same choices on every rank"
done

# From the file, by cluster name (world, dup, and reversed whose comm rank 0 is world
# rank 1), printed at verbose 2; at verbose 3 the tree cache says it served calls.
cat >probe.cfg <<'CFG'
clusters = ( { name = "east"; ranks = "0"; }, { name = "west"; ranks = "1"; } );
probe = true;
CFG
rm -f rec-*
mpirun 2 GRIDCOLL_CONFIG="$tmp/probe.cfg" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 GRIDCOLL_VERBOSE=3 -- "$T/bcast"
no_failures && probe_ok && [ "$(grep -hv '^comm,' rec-[0-9].csv.latency.csv | cut -d, -f2,3 | sort -u | tr '\n' ' ')" = "east,west west,east " ] &&
  grep -q '^gridcoll: \[0\] comm [0-9]*: latency east <-> west measured ' err &&
  grep -q 'broadcast tree(s) built, [1-9][0-9]* taken from the cache' err &&
  pass "probe = true: latency file by cluster name, printed at verbose 2; tree cache hits" ||
  fail "probe = true: latency file by cluster name, printed at verbose 2; tree cache hits"

# Without probing nothing is measured and no latency file appears.
rm -f rec-*
mpirun 2 GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast" quick
no_failures && ! ls rec-*.latency.csv >/dev/null 2>&1 && [ "$(warnings)" = 0 ] &&
  pass "probe off (default): no latency file" || fail "probe off (default): no latency file"

# Sites (001's light-WAN level): four one-rank clusters in two sites, the multilevel
# tree forced, from every root, on the test's four communicators.
cat >sites.cfg <<'CFG'
clusters = ( { name = "a"; ranks = "0"; site = "s1"; }, { name = "b"; ranks = "1"; site = "s1"; },
             { name = "c"; ranks = "2"; site = "s2"; }, { name = "d"; ranks = "3"; site = "s2"; } );
network = { wan = { latency = ( ("0", "1 ms", "20 ms", "30 ms"), ("1 ms", "0", "25 ms", "20 ms"),
                                ("20 ms", "25 ms", "0", "1 ms"), ("30 ms", "20 ms", "1 ms", "0") ); }; };
CFG
rm -f rec-*
mpirun 4 GRIDCOLL_CONFIG="$tmp/sites.cfg" GRIDCOLL_BCAST=multilevel GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast"
no_failures && [ "$(warnings)" = 0 ] && used_as multilevel 1 &&
  pass "bcast multilevel: two sites of two clusters" || fail "bcast multilevel: two sites of two clusters"

# One machine, node topology: a single cluster, so everything runs natively.
mpirun 3 GRIDCOLL_CLUSTERS=host GRIDCOLL_LOG="$tmp/node-%r.csv" -- "$T/alltoall" quick
no_failures && awk -F, 'FNR > 1 && ($9 != 1 || $6 != "native") { exit 1 }' node-0.csv node-2.csv &&
  pass "node topology: one machine is one cluster" || fail "node topology: one machine is one cluster"

# Segmented trees: 1 KiB segments cut the 100000-byte case into 98 pieces, more than the
# receives posted ahead, so posting, reuse and the last short piece are all exercised.
cat >segment.cfg <<'CFG'
clusters = ( { name = "a"; ranks = "0,2"; }, { name = "b"; ranks = "1,3"; } );
bcast = { segment = "1 KiB"; };
CFG
for b in hlot greedy; do
  mpirun 4 GRIDCOLL_CONFIG="$tmp/segment.cfg" GRIDCOLL_BCAST=$b -- "$T/bcast"
  no_failures && [ "$(warnings)" = 0 ] && pass "bcast $b, segments of 1 KiB" || fail "bcast $b, segments of 1 KiB"
done

# Segmented trees with different datatypes of one signature on the root and the receivers
# (bcast_mixed.c): segment sizes that are a multiple of neither type's size cut each
# rank's elements in different places, yet every byte must equal PMPI_Bcast's. Messages
# of a few segments (few hundred for the tiny sizes) keep MPICH's busy-polling short.
# MIXED_SEGMENTS narrows the sizes (comma-separated, e.g. "3 B,64 KiB").
IFS=, read -ra mixed_segments <<<"${MIXED_SEGMENTS:-1 B,3 B,8 B,1000 B,64 KiB}"
for seg in "${mixed_segments[@]}"; do
  printf 'bcast = { segment = "%s"; };\n' "$seg" >mixed.cfg
  ints=240; [ "$seg" = "1000 B" ] && ints=2400; [ "$seg" = "64 KiB" ] && ints=36000 # 144000 B: a short third segment
  for b in flat binomial hlot spt greedy multilevel; do
    for topo in "2 GRIDCOLL_CLUSTERS=0,1" "3 GRIDCOLL_CLUSTERS=0,1-2"; do
      # shellcheck disable=SC2086 # ranks and setting
      rm -f rec-*.csv
      mpirun $topo GRIDCOLL_CONFIG="$tmp/mixed.cfg" GRIDCOLL_BCAST=$b GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast_mixed" $ints
      no_failures && [ "$(warnings)" = 0 ] && used_as "$b" 1 && pass "bcast $b, mixed datatypes, $seg segments, ${topo% *} ranks" ||
        fail "bcast $b, mixed datatypes, $seg segments, ${topo% *} ranks"
    done
  done
done

. "$ROOT/test/mpi/nonblocking.sh"

mpirun 1 -- "$T/alltoall" quick
no_failures && pass "alltoall on 1 rank" || fail "alltoall on 1 rank"

mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/ic-%r.csv" -- "$T/intercomm"
no_failures && [ "$(wc -l <ic-0.csv)" = 1 ] && [ "$(warnings)" = 0 ] &&
  pass "intercommunicators pass through, unlogged" || fail "intercommunicators pass through, unlogged"

# --- the log ---------------------------------------------------------------------------
. "$ROOT/test/mpi/log.sh"

mpirun 2 GRIDCOLL_LOG="$tmp/f-%r.csv" -- "$T/fortran"
if no_failures && [ "$(tail -n +2 f-0.csv | cut -d, -f5 | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')" = "alltoall=2 alltoallv=1 bcast=2 ialltoall=1 ialltoallv=1 ibcast=2 " ] &&
   [ "$(wc -l <f-1.csv)" = 10 ]; then pass "fortran: intercepted and logged"; else fail "fortran: intercepted and logged"; fi

mpirun 3 GRIDCOLL_SUMMARY=1 -- "$T/sweep" 16384 2
if [ "$rc" = 0 ] && [ "$(grep -c 'gridcoll: summary of' err)" = 1 ] &&
   grep -q 'gridcoll: alltoall  native' err && grep -q 'gridcoll: bcast     native' err &&
   ! grep -qv '^sweep:' out; then pass "summary on stderr from one rank, stdout untouched"; else fail "summary on stderr from one rank, stdout untouched"; fi

cat >summary.cfg <<CFG
log = { file = "$tmp/s-%r.csv"; summary = true; summary_file = "$tmp/summary.txt"; mode = "local"; };
CFG
mpirun 2 GRIDCOLL_CONFIG="$tmp/summary.cfg" -- "$T/sweep" 4096 1
[ "$rc" = 0 ] && grep -q '^alltoall  native' summary.txt && [ -s s-1.csv ] && [ "$(warnings)" = 0 ] &&
  pass "summary_file and log from the configuration file" || fail "summary_file and log from the configuration file"

cat >cand.cfg <<CFG
clusters = ( { name = "a"; ranks = "0-1"; }, { name = "b"; ranks = "2"; } );
log = { file = "$tmp/cand-%r.csv"; candidates = true; summary = false; };
CFG
mpirun 3 GRIDCOLL_CONFIG="$tmp/cand.cfg" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 0 ] &&
  awk -F, 'NR > 1 && (($6 == "native" && $10 != "linear-grid" && $10 != "pairwise-grid") || ($6 == "lg" && $10 != "lg-backbone") || $11 <= 0 || $13 !~ /^native=[0-9.e-]+;lg=[0-9.e-]+$/) { exit 1 }' cand-0.csv &&
  pass "log.candidates: every algorithm's prediction in each record" || fail "log.candidates: every algorithm's prediction in each record"

mpirun 2 GRIDCOLL_LOG="/nonexistent-dir/x-%r.csv" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'cannot write the log' err &&
  pass "unwritable log: one warning, program continues" || fail "unwritable log: one warning, program continues"

mpirun 2 GRIDCOLL=off GRIDCOLL_LOG="$tmp/off-%r.csv" GRIDCOLL_SUMMARY=1 -- "$T/alltoall" quick
no_failures && [ ! -e off-0.csv ] && [ "$(warnings)" = 0 ] &&
  pass "GRIDCOLL=off: pure passthrough, nothing logged" || fail "GRIDCOLL=off: pure passthrough, nothing logged"

# --- bad configurations: one clear warning naming file and line, then pass-through -------
# bad_config NAME EXPECTED-TEXT CONTENT: the program must still succeed, warn once with
# the file name, and log nothing (every call passed through).
bad_config() {
  local name=$1 expect=$2 content=$3
  printf '%s\n' "$content" >"$name.cfg"
  rm -f bad-*.csv
  mpirun 2 GRIDCOLL_CONFIG="$tmp/$name.cfg" GRIDCOLL_LOG="$tmp/bad-%r.csv" -- "$T/alltoall" quick
  if no_failures && [ "$(warnings)" = 1 ] && grep -q "$name.cfg" err && grep -q -- "$expect" err &&
     [ ! -e bad-0.csv ]; then pass "bad config ($name): one warning, passed through"
  else fail "bad config ($name): one warning, passed through"; fi
}
# libconfig reports an unclosed group where the file ends.
bad_config syntax ':3: syntax error' 'alltoall = { algorithm = "auto"; };
bcast = { algorithm = "auto" '
bad_config unknown-key ':1:.*alpah' 'network = { lan = { alpah = "60 us"; }; };'
bad_config wrong-type ':1:.*clusters' 'clusters = "nancy";'
bad_config bad-unit ':1:.*alpha' 'network = { lan = { alpha = "5 parsecs"; }; };'
bad_config negative-latency ':3:.*latency' 'clusters = ( { name = "a"; ranks = "0"; }, { name = "b"; ranks = "1"; } );
network = {
  wan = { latency = ( ("0", "-5 ms"), ("5 ms", "0") ); };
};'
bad_config zero-bandwidth 'bandwidth' 'clusters = ( { name = "a"; ranks = "0"; }, { name = "b"; ranks = "1"; } );
network = { wan = { bandwidth = ( (0, 0), (0, 0) ); }; };'
bad_config matrix-size 'latency' 'clusters = ( { name = "a"; ranks = "0"; }, { name = "b"; ranks = "1"; } );
network = { wan = { latency = ( ("0", "5 ms", "5 ms"), ("5 ms", "0", "5 ms") ); }; };'
bad_config overlap ':2:' 'clusters = ( { name = "a"; ranks = "0-1"; },
 { name = "b"; ranks = "1"; } );'
bad_config two-hosts 'matched by' 'clusters = ( { name = "a"; hosts = [ "*" ]; }, { name = "b"; hosts = [ "*" ]; } );'
bad_config algorithm 'alltoall.algorithm' 'alltoall = { algorithm = "fast"; };'

mpirun 2 GRIDCOLL_CONFIG="$tmp/missing.cfg" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'missing.cfg' err &&
  pass "missing configuration file: one warning" || fail "missing configuration file: one warning"

mpirun 2 GRIDCOLL_BCAST=fat GRIDCOLL_LOG="$tmp/env-%r.csv" -- "$T/bcast" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'GRIDCOLL_BCAST' err && [ ! -e env-0.csv ] &&
  pass "bad GRIDCOLL_BCAST: one warning, passed through" || fail "bad GRIDCOLL_BCAST: one warning, passed through"

printf 'clusters = ( { name = "a"; ranks = "0"; } );\n' >unmatched.cfg
mpirun 3 GRIDCOLL_CONFIG="$tmp/unmatched.cfg" GRIDCOLL_LOG="$tmp/um-%r.csv" -- "$T/alltoall" quick
no_failures && [ "$(warnings)" = 1 ] && grep -q 'cluster of its own' err && awk -F, 'NR == 2 { exit $9 != 3 }' um-0.csv &&
  pass "unmatched ranks: one warning, each forms a cluster" || fail "unmatched ranks: one warning, each forms a cluster"

printf 'strict = true;\nnetwork = { lan = { alpha = -1; }; };\n' >strict.cfg
mpirun 2 GRIDCOLL_CONFIG="$tmp/strict.cfg" -- "$T/alltoall" quick
[ "$rc" != 0 ] && grep -q 'strict' err && pass "strict = true: bad configuration aborts" || fail "strict = true: bad configuration aborts"

# Ranks that disagree (here one rank forces another algorithm) must all pass through.
mpirun_mpmd "1 GRIDCOLL_LOG=$tmp/mix-%r.csv GRIDCOLL_BCAST=native -- $T/bcast" \
  "1 GRIDCOLL_LOG=$tmp/mix-%r.csv -- $T/bcast"
no_failures && [ "$(warnings)" = 1 ] && grep -q 'differs between ranks' err && [ ! -e mix-0.csv ] &&
  pass "ranks with different settings: one warning, passed through" || fail "ranks with different settings: one warning, passed through"

# --- files that are not what they seem: FIFOs, devices, huge, binary ----------------------
. "$ROOT/test/mpi/files.sh"

# --- the passthrough path: the decision cache, the first call on a communicator ----------
. "$ROOT/test/mpi/fastpath.sh"
. "$ROOT/test/mpi/learn.sh"

# --- gridcoll-report: a real sweep's logs, merged per call ------------------------------
# 4 ranks in two virtual clusters, sizes 1, 4, 16 KiB, 2 calls each (merged over the 4
# ranks): LG forced for every all-to-all, and 6 broadcasts, split between the algorithms auto
# chose for their roots; predictions beside actual times; the first call on the world
# (an all-to-all of 1 KiB, its set-up) in a row of its own, marked set-up.
REPORT="$ROOT/scripts/gridcoll-report"
mpirun 4 GRIDCOLL_CONFIG="$ROOT/examples/two-clusters.cfg" GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rep-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/sweep" 16384 2
if [ "$rc" = 0 ] && "$REPORT" -p "$tmp/rep.png" rep-*.csv >out 2>err &&
   [ "$(awk '$1 == "alltoall" && $2 == "lg" && $3 == 4 && $5 == 2' out | wc -l)" = 2 ] &&
   [ "$(awk '$1 == "alltoall" && $2 == "lg" && $4 == 1024 && $5 == 1 { print $NF }' out | sort | tr '\n' ' ')" = "lg-backbone set-up " ] &&
   [ "$(awk '$1 == "bcast" { calls += $5 } END { print calls }' out)" = 6 ] &&
   awk '$1 == "alltoall" && $4 == 1024 { found = $(NF) == "lg-backbone" || $(NF - 1) == "lg-backbone" } END { exit !found }' out &&
   [ "$(head -c 8 rep.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
  pass "gridcoll-report: table per op, algorithm and size; PNG written"
else fail "gridcoll-report: table per op, algorithm and size; PNG written"; fi

# bad_report NAME EXPECTED-TEXT ARGS...: exit non-zero, one clear line on stderr.
bad_report() {
  local name=$1 expect=$2; shift 2
  "$REPORT" "$@" >out 2>err
  rc=$?
  [ "$rc" != 0 ] && grep -q -- "^gridcoll-report: .*$expect" err && pass "gridcoll-report: $name" ||
    fail "gridcoll-report: $name"
}
printf 'rank,comm\n0,1\n' >short.csv
{ head -1 rep-0.csv; echo '0,1,4,0,alltoall,lg,,1024,2,lg-backbone,0.005,fast,,0.001,,,,0'; } >badtime.csv
{ head -2 rep-0.csv; echo '0,1,4'; } >fields.csv
bad_report "missing file" "missing.csv: No such file" missing.csv
bad_report "not a gridcoll log" "short.csv:1: not a gridcoll log" short.csv
bad_report "malformed time" "badtime.csv:2: actual_s: expected seconds" badtime.csv
bad_report "short record" "fields.csv:3: expected 18 fields" fields.csv
bad_report "same run twice" "twice" rep-0.csv rep-0.csv
bad_report "an operation the logs do not hold" "no alltoallv calls in the logs" --op alltoallv rep-*.csv

# In a pipe whose reader has gone (| head, once it has its lines): no traceback, the exit
# of any filter there (SIGPIPE). The reader exits first, so the write always finds it gone.
{ sleep 0.3; "$REPORT" rep-*.csv 2>err; } | true
rc=${PIPESTATUS[0]}
if [ "$rc" = 141 ] && [ ! -s err ]; then
  pass "gridcoll-report: into a closed pipe, quiet"
else fail "gridcoll-report: into a closed pipe, quiet (exit $rc, $(head -c 200 err))"; fi

# A late rank is no error of the model: a call predicted at its own time (own_s) but
# 20 ms late in arriving scores 0% error; a log without own_s scores the actual time.
{ head -1 rep-0.csv
  echo '0,1,4,1,alltoall,lg,,1024,2,lg-backbone,0.010000000,0.030000000,,0.030000000,0.010000000,0.020000000,,0'
} >late.csv
if "$REPORT" late.csv >out 2>err &&
   awk '$1 == "alltoall" { found = ($(NF - 1) == "0.0" && $10 == "10" && $12 == "20") } END { exit !found }' out; then
  pass "gridcoll-report: scored against own_s, the wait in its own column"
else fail "gridcoll-report: scored against own_s, the wait in its own column ($(cat out err))"; fi

# --- gridcoll-calibrate (test/mpi/calibrate.sh) ---------------------------------------
. "$ROOT/test/mpi/calibrate.sh"

calibrate 2 -x -o "$tmp/flag.cfg"
[ "$rc" = 2 ] && [ "$(grep -c '^gridcoll-calibrate: unknown option -x' err)" = 1 ] && grep -q '^usage:' err &&
  [ ! -e flag.cfg ] && pass "gridcoll-calibrate: bad flag, usage once, exit 2" ||
  fail "gridcoll-calibrate: bad flag, usage once, exit 2"

calibrate 2 "${quick[@]}" -o /nonexistent-dir/cal.cfg
[ "$rc" != 0 ] && grep -q 'cannot write /nonexistent-dir/cal.cfg' err && ! grep -q 'step 1' err &&
  pass "gridcoll-calibrate: unwritable output, said before measuring" ||
  fail "gridcoll-calibrate: unwritable output, said before measuring"

# MPI_Alltoall_c through the relayed all-to-all where it relays (relay5.cfg, above).
if [ "$GC_LAUNCHER" != openmpi ]; then
  rm -f ep-*.csv
  mpirun 5 GRIDCOLL_CONFIG="$tmp/relay5.cfg" GRIDCOLL_ALLTOALL=relay GRIDCOLL_SUMMARY=0 GRIDCOLL_LOG="$tmp/ep-%r.csv" -- "$T/entry_points"
  no_failures && grep -q "^entry: 0 failed" out && [ "$(warnings)" = 0 ] &&
    [ "$(awk -F, 'NR > 1 && $5 == "alltoall" && $6 == "relay" && $11 > 0' ep-0.csv | wc -l)" = 2 ] &&
    pass "entry points: MPI_Alltoall_c through relay, relaying" ||
    fail "entry points: MPI_Alltoall_c through relay, relaying"
fi

# Counts beyond int (opt-in: 2 GiB per rank, ~30 s): MPI_Bcast_c of 2^31 + 16 bytes through
# the flat tree, whose pieces then take PMPI_Isend_c / PMPI_Irecv_c.
if [ "${GC_TEST_HUGE:-0}" = 1 ]; then
  mpirun 2 GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_BCAST=flat GRIDCOLL_SUMMARY=0 GRIDCOLL_LOG="$tmp/huge-%r.csv" -- "$T/entry_points" huge
  no_failures && [ "$(ops_in huge-0.csv)" = "bcast,flat=1 " ] && [ "$(awk -F, 'NR == 2 { print $8 }' huge-1.csv)" = 2147483664 ] &&
    pass "entry points: MPI_Bcast_c of 2^31 + 16 bytes through the flat tree" ||
    fail "entry points: MPI_Bcast_c of 2^31 + 16 bytes through the flat tree"
fi

# Fortran, all three bindings: use mpi, include 'mpif.h', use mpi_f08 (whose MPI_Init
# reaches PMPI_Init directly: gridcoll wraps it, shim/init_f08.c). Values checked by the
# program, in place included; the log shows LG and the flat tree ran on every rank, the
# nonblocking calls as schedules (GRIDCOLL_NONBLOCKING=grid), completed by MPI_WAIT, an
# MPI_TEST loop and MPI_WAITALL: under Open MPI, whose Fortran bindings call PMPI_,
# through the callback in Open MPI's progress engine (shim/nbc_opal.c; without it no
# schedule runs there, and the log says so). Then again with the library's own
# MPI_ALLTOALLV and MPI_IALLTOALLV (GRIDCOLL_ALLTOALLV=native): that MPI_IALLTOALLV is
# logged untimed when issued: a Fortran binding's completion calls may go to PMPI_ (Open
# MPI's; MPICH's mpi_f08), unseen, so a call from Fortran is not followed
# (shim/issued.c; under MPICH its post reaches gridcoll from libmpichfort's code, which
# the test of where it was called from must recognise).
for prog in fortran fortran_mpif fortran_f08; do
  for av in lg native; do
    fo_ops="alltoall,lg=2 alltoallv,$av=1 bcast,flat=3 ialltoall,lg-nb=1 ialltoallv,$av-nb=1 ibcast,flat-nb=2 "
    rm -f fo-*.csv
    mpirun 3 "${grid3[@]}" GRIDCOLL_ALLTOALLV=$av GRIDCOLL_NONBLOCKING=grid GRIDCOLL_LOG="$tmp/fo-%r.csv" -- "$T/$prog"
    if [ "$rc" = 0 ] && grep -q ': 0 failed, 6 calls per rank, 4 nonblocking' out && [ "$(warnings)" = 0 ] &&
       [ "$(ops_in fo-0.csv)" = "$fo_ops" ] && [ "$(ops_in fo-2.csv)" = "$fo_ops" ] &&
       awk -F, 'FNR > 1 && $6 == "native-nb" && ($12 != "" || $14 != "" || $15 != "") { bad = 1 } END { exit bad }' fo-*.csv; then
      pass "fortran ($prog): through LG, LG-v ($av) and the flat tree, nonblocking as schedules"
    else fail "fortran ($prog): through LG, LG-v ($av) and the flat tree, nonblocking as schedules"; fi
  done
done

# Bad arguments: every one passes through untouched, for both collectives and their _c
# (error class and message equal to PMPI's in the same run); only the good calls reach
# gridcoll's algorithms: one right before each NULL or aliased buffer with its counts,
# datatypes and root (the bad call then has the key of the last logged call: the memo's
# path, shim/call.h, must not take it), and an all-to-all at the end.
# Forced flat and hlot trees: a forged predefined datatype (MPICH) must not reach them.
badargs_cases=40 # Open MPI does not check buffers (NULL or aliased ones crash it natively)
[ "$GC_LAUNCHER" = openmpi ] && badargs_cases=12
for b in flat hlot; do
  badargs_ops="alltoall,lg=4 bcast,$b=1 " # the good calls: before the NULL and aliased buffers, the last
  [ "$GC_LAUNCHER" = openmpi ] && badargs_ops="alltoall,lg=1 "
  rm -f ba-*.csv
  mpirun 3 "${grid3[@]}" GRIDCOLL_BCAST=$b GRIDCOLL_LOG="$tmp/ba-%r.csv" -- "$T/badargs"
  [ "$rc" = 0 ] && grep -q "^badargs: $badargs_cases cases, 0 failed" out && ! grep -q '^FAIL' out &&
    [ "$(ops_in ba-0.csv)" = "$badargs_ops" ] &&
    pass "bad arguments ($b): MPI's own errors, nothing reaches the algorithms" ||
    fail "bad arguments ($b): MPI's own errors, nothing reaches the algorithms"
done

# Stacked PMPI tools (doc/portability.md, "What is intercepted"): of two preloaded libraries that
# define MPI_Alltoall, the first wins and its PMPI_Alltoall goes to the MPI library, so
# the second never sees the call. Tool first: the tool counts every call and gridcoll logs
# none; gridcoll first: gridcoll runs and logs every call, the tool counts none. Results
# right either way; no call is lost to the program.
TOOL="$T/counting_tool.so" # test/mpi/tool/tool.mk
# tool_saw OP N: every rank's tool line says it counted N calls of OP.
tool_saw() { [ "$(grep -c "^counting_tool: rank -\?[0-9]* .*$1 $2\b" err)" = 3 ]; }
for prog in alltoall bcast; do
  alg=lg; [ "$prog" = bcast ] && alg=flat
  rm -f st-*.csv
  mpirun 3 "${grid3[@]}" GRIDCOLL_LOG="$tmp/st-%r.csv" LD_PRELOAD="${PRELOAD:+$PRELOAD }$TOOL $LIB" -- "$T/$prog" quick
  calls=$(sed -n 's/.* \([0-9]*\) calls per rank/\1/p' out)
  no_failures && [ -n "$calls" ] && tool_saw "$prog" "$calls" && [ "$(tail -n +2 st-0.csv | wc -l)" = 0 ] &&
    pass "stacking: tool first sees all $calls $prog calls, gridcoll none" ||
    fail "stacking: tool first sees all $calls $prog calls, gridcoll none"
  rm -f st-*.csv
  mpirun 3 "${grid3[@]}" GRIDCOLL_LOG="$tmp/st-%r.csv" LD_PRELOAD="${PRELOAD:+$PRELOAD }$LIB $TOOL" -- "$T/$prog" quick
  no_failures && tool_saw "$prog" 0 && [ "$(ops_in st-1.csv)" = "$prog,$alg=$calls " ] &&
    pass "stacking: gridcoll first runs all $calls $prog calls ($alg), the tool none" ||
    fail "stacking: gridcoll first runs all $calls $prog calls ($alg), the tool none"
done

echo "mpi ($GC_LAUNCHER): $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
