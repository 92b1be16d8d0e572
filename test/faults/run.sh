#!/usr/bin/env bash
# gridcoll when one of its allocations fails (issue 24): every rank must keep taking the
# same road. test/faults/failalloc.c, preloaded before the library, fails the N-th
# allocation libgridcoll.so makes on one world rank, then lets everything succeed again.
# For each scenario below: one run counts the allocations the failing rank makes (and
# where); then one run per chosen N, each asserting
#   - no hang (a time limit: 6 times the counting run's, at least FAULTS_LIMIT_MIN s),
#   - exit code 0, no abort,
#   - the program's own verdict: every result byte-identical to the MPI library's,
#   - exactly one line from gridcoll on stderr (the summary's table aside): the failing
#     rank's "gridcoll: out of memory on rank R: ..." (gc_warn_oom, shim/msg.c), so that
#     every site says it one way and a shortage never reads as a bad setting,
#   - the injector did fail that allocation (else "not reached": the sequence of
#     allocations changed between runs, said, and counted as a failure too).
#
#   test/faults/run.sh [SCENARIO...]     (default: all, in the order of the table)
# Environment: BUILD, MPIEXEC, GRIDCOLL_LIB as for test/mpi/run.sh;
#   FAULTS_MODE=every    fail every N of every scenario (long), not the table's choice;
#   FAULTS_N="3 17"      only these N (with one scenario and FAULTS_RANK);
#   FAULTS_RANK=R        only the runs that fail rank R;
#   FAULTS_LIST=1        only count: list the N each scenario would fail, with its site;
#   FAULTS_EXPECTED=FILE failures expected (doc/testing.md): a failure whose line matches
#                        one of FILE's extended regular expressions is "xfail" and does
#                        not fail the run; off by default;
#   FAULTS_KEEP=DIR      keep the out/err of each failing run there;
#   FAULTS_LIMIT_MIN=S   the least time limit per run (default 10 s).
set -u
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
LIB=$(realpath "${GRIDCOLL_LIB:-$BUILD/libgridcoll.so}")
FAILALLOC=$(realpath "$BUILD/test/faults/libfailalloc.so")
T=$(realpath "$BUILD/test/mpi")
ROOT=$(realpath "$(dirname "$0")/../..")
. "$ROOT/scripts/launcher.sh" # MPICH's hydra or Open MPI's mpirun
MODE=${FAULTS_MODE:-}
LIMIT_MIN=${FAULTS_LIMIT_MIN:-10}
EXPECTED=${FAULTS_EXPECTED:-}
[ -z "$EXPECTED" ] || EXPECTED=$(realpath "$EXPECTED")
KEEP=${FAULTS_KEEP:-}
[ -z "$KEEP" ] || { mkdir -p "$KEEP" && KEEP=$(realpath "$KEEP"); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0 failed=0 xfailed=0 unreached=0 runs=0
ms_ok=0 # milliseconds spent in the counting runs and the runs that passed: what the whole
        # takes once nothing fails (a hang costs its time limit)
started=$SECONDS

# --- every allocator the library imports is one the injector counts ---------------------
# (an allocation through a function it does not know would be missed silently)
counted_by_injector="malloc calloc realloc posix_memalign aligned_alloc memalign fdopen strdup strndup"
allocators="$counted_by_injector reallocarray valloc pvalloc __strdup __strndup asprintf vasprintf
  __asprintf open_memstream fmemopen fopen fopen64 freopen tmpfile getline getdelim realpath
  canonicalize_file_name get_current_dir_name wcsdup scandir glob"
imported=$(nm -D --undefined-only "$LIB" | awk '{ sub(/@.*/, "", $2); print $2 }')
missed=""
for f in $allocators; do
  grep -qx "$f" <<<"$imported" && [[ " $counted_by_injector " != *" $f "* ]] && missed+=" $f"
done
if [ -n "$missed" ]; then
  echo "FAIL the library imports allocating function(s) the injector does not count:$missed"
  failed=$((failed + 1))
else
  echo "ok   every allocating function the library imports is counted by the injector"
  passed=$((passed + 1))
fi

# --- the scenarios -------------------------------------------------------------------------
cat >file.cfg <<CFG
clusters = ( { name = "west"; ranks = "0"; hosts = [ "no-such-host-*" ]; },
             { name = "east"; ranks = "1-2"; lan = { alpha = "40 us"; }; } );
network = { wan = { latency = ( ("0", "5 ms"), ("5 ms", "0") );
                    bandwidth = ( ("0", "1 Gbit/s"), ("1 Gbit/s", "0") ); }; };
bcast = { algorithm = "hlot"; segment = "1 KiB"; };
alltoall = { algorithm = "lg"; };
probe = true;
log = { file = "$tmp/f-%r.csv"; summary = true; summary_file = "$tmp/summary.txt"; };
CFG
# A broken triangle (grid3's shape: a-b 20 ms at 50 Mbit/s, through c 3 + 4 ms): the
# relayed all-to-all relays a-b's blocks through rank 2.
cat >relay.cfg <<CFG
clusters = ( { name = "a"; ranks = "0,3"; }, { name = "b"; ranks = "1,4"; }, { name = "c"; ranks = "2"; } );
network = { wan = { latency = ( ("0", "20 ms", "3 ms"), ("20 ms", "0", "4 ms"), ("3 ms", "4 ms", "0") );
                    bandwidth = ( ("0", "50 Mbit/s", "100 Mbit/s"), ("50 Mbit/s", "0", "100 Mbit/s"),
                                  ("100 Mbit/s", "100 Mbit/s", "0") ); }; };
CFG
# name|ranks|choice|settings (@ is the run's folder)|program and arguments
# choice: which N each rank fails: "every:R" every N on rank R; "sites:R" the first N of
# each allocation site (the call and its caller, inside the library) not failed yet on
# rank R in an earlier scenario of this run; "own:R" the first N of each site of this
# scenario, failed before or not; "in:R:F1,F2" the first N of each site of this scenario
# inside one of these functions.
scenarios=(
  # start-up, the first call of each operation on the world, later calls, the sync log
  # (its window, the exchange at MPI_Finalize, the summary), LG and the HLOT tree; rank 0
  # alone prints the summary and gathers the log's last records
  "world|4|every:1 in:0:MPI_Finalize|GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|longrun 40 0"
  # communicators made by MPI_Comm_dup and MPI_Comm_split, used and freed: each one's
  # state, LG context and tree, its log window assembled when it is freed (collective:
  # a rank that could not build what the others built must still free as they do)
  "comms|3|own:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|churn 2 0"
  # a configuration file (rank ranges, host globs, network, segmentation, the probe, the
  # summary to a file): its parse, the probe, segmented trees through the staging buffer
  # with derived datatypes, on world, duplicate, reversed and split communicators; rank 0
  # (the leader that writes the latency file) fails what start-up, the probe and
  # MPI_Finalize allocate
  "file|3|sites:1 in:0:MPI_Init,gc_probe_latency,MPI_Finalize|GRIDCOLL_CONFIG=@/file.cfg|bcast"
  # MPI_Alltoallv by LG-v: its context, size messages, learnt totals
  "alltoallv|3|sites:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|alltoallv quick"
  # the relayed all-to-all (issue 27): its routes on the relay (rank 2) and on a stager
  # (rank 0) and LG's context, made and agreed with the communicator's state; LG's buffers
  # under them, grown without an agreement (a rank without them takes part empty-handed)
  "relay|5|own:2 sites:0|GRIDCOLL_CONFIG=@/relay.cfg GRIDCOLL_ALLTOALL=relay GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|alltoall quick"
  # auto learning from measured calls, the probe, the log
  "learn|3|sites:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_PROBE=1 GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|learn 2 4 0"
  # 300 calls on the world: two log windows filled and assembled by nonblocking
  # allreduces, one still in flight at MPI_Finalize; every allocation of MPI_Finalize
  # the nonblocking schedules (MPICH): MPI_Ibcast and MPI_Bcast_init by a tree, and
  # MPI_Ialltoall by LG, on a 2-cluster split: the communicator's reservation (its pool,
  # LG's schedule, agreed at its first schedule; a persistent one's own memory, agreed at
  # MPI_Bcast_init), after which a call allocates nothing. The blocking all-to-all the
  # ibcast test runs between post and wait is forced too: under auto, learning explored
  # LG in some runs and not others (measured times), so the allocations counted in one
  # run were not those of the next ("not reached" in CI)
  "nbcast|4|own:1|GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|ibcast quick"
  "nballtoall|3|own:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=flat GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|ialltoall quick"
  # MPI_Alltoallv_init by LG-v (MPICH): LG-v's context and size messages at the init, the
  # schedule's own memory agreed there with whether every rank can carry its counts
  "nballtoallv|3|own:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|alltoallv persistent quick"
  # MPI_Ialltoallv by LG-v: the communicator's reservation with LG-v's part (LG's schedule,
  # built for LG-v alone here), after which a call allocates only its types' duplicates
  "nbialltoallv|3|own:1|GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|alltoallv nonblocking quick"
  "windows|4|in:1:MPI_Finalize|GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot GRIDCOLL_LOG=@/log-%r.csv GRIDCOLL_SUMMARY=1|longrun 300 0"
)

# run N SETTINGS... -- program args: stdout to ./out, stderr to ./err, exit code in $rc,
# seconds (with decimals) in $secs; the injector's settings come in SETTINGS.
run() {
  local n=$1 t0 t1; shift
  local cmd=(timeout "$limit" "${GC_LAUNCH[@]}")
  gc_app cmd "$n" LD_PRELOAD="$FAILALLOC $LIB" "$@"
  t0=$(date +%s%N)
  "${cmd[@]}" >out 2>err
  rc=$?
  t1=$(date +%s%N)
  ms=$(((t1 - t0) / 1000000))
  secs=$(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 }')
  runs=$((runs + 1))
}

# Lines gridcoll wrote on stderr, the summary table aside (as test/mpi/run.sh counts them).
gc_lines() { grep '^gridcoll:' err | grep -v -E '^gridcoll: (summary of|op  |alltoall |alltoallv |bcast |first call on each|one-process communicators|learning )'; }

# where LINE: the injector's record LINE's frames named "function (file:line)", innermost
# first, from the library's debug information.
where() {
  local frames=() f
  read -r -a frames <<<"$1"
  local addrs=()
  for f in "${frames[@]:4}"; do addrs+=("$(printf '0x%x' $((${f#*+} - 1)))"); done
  [ "${#addrs[@]}" -gt 0 ] || { echo "?"; return; }
  addr2line -f -i -e "$LIB" "${addrs[@]}" | paste - - |
    awk '{ f = $2; sub(/ \(discriminator [0-9]+\)/, "", f); n = match(f, /\/(config|model|shim|tools)\//)
           if (n) f = substr(f, n + 1)
           printf "%s%s (%s)", (NR > 1 ? " < " : ""), $1, f }'
}

# judge: what went wrong in the last run, or nothing (every assertion of the header).
judge() {
  local why=() lines
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    why+=("hang (killed after ${limit}s)")
  elif [ "$rc" != 0 ]; then
    local cause
    cause=$(grep -m1 -E 'Fatal error|Segmentation|signal [0-9]|Abort|abort|terminated|BAD TERMINATION|killed' err | cut -c1-160)
    if grep -qE ' [1-9][0-9]* failed' out; then why+=("wrong result (exit $rc)"); else why+=("abort (exit $rc${cause:+: $cause})"); fi
  elif ! grep -q ' 0 failed' out || grep -q '^FAIL' out; then
    why+=("wrong result")
  fi
  lines=$(gc_lines | wc -l)
  if [ "$lines" = 0 ]; then
    why+=("no warning")
  elif [ "$lines" -gt 1 ]; then
    why+=("$lines warnings: $(gc_lines | cut -c11-100 | paste -sd'|')")
  elif ! gc_lines | grep -q "^gridcoll: out of memory on rank $rank: "; then
    why+=("its warning is not gc_warn_oom's from rank $rank: $(gc_lines | cut -c11-140)")
  fi
  local joined="" w
  for w in "${why[@]}"; do joined+="${joined:+; }$w"; done
  echo "$joined"
}

expected() { [ -n "$EXPECTED" ] && grep -q -E -f <(grep -v -E '^(#|$)' "$EXPECTED") <<<"$1"; }

declare -A seen_site # "rank key" -> 1 once a site was failed on that rank
for entry in "${scenarios[@]}"; do
  IFS='|' read -r name n choices settings prog <<<"$entry"
  [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
  read -r -a vars <<<"${settings//@/$tmp}"
  read -r -a args <<<"$prog"
  args[0]="$T/${args[0]}"
  t_scenario=$SECONDS
  for choice in $choices; do
    IFS=: read -r mode rank within <<<"$choice"
    [ -z "${FAULTS_RANK:-}" ] || [ "$rank" = "$FAULTS_RANK" ] || continue
    [ -z "$MODE" ] || mode=$MODE
    # The count: a clean run, its allocations on the failing rank recorded.
    rm -f count.txt
    limit=120
    run "$n" "${vars[@]}" FAILALLOC_RANK="$rank" FAILALLOC_OUT="$tmp/count.txt" -- "${args[@]}"
    if [ "$rc" != 0 ] || ! grep -q ' 0 failed' out || [ "$(gc_lines | wc -l)" != 0 ] || [ ! -s count.txt ]; then
      echo "FAIL $name rank=$rank: the run without a fault (exit $rc, ${secs}s) failed or made no allocation"
      sed 's/^/     | /' out err | head -20
      failed=$((failed + 1))
      continue
    fi
    total=$(wc -l <count.txt)
    ms_ok=$((ms_ok + ms))
    limit=$(awk -v s="$secs" -v m="$LIMIT_MIN" 'BEGIN { l = int(6 * s + 1); print (l > m ? l : m) }')
    # Which N. Every site failed here is marked seen on this rank, whatever the choice.
    chosen=""
    declare -A own_site=()
    while read -r line; do
      read -r num _ _ _ f1 f2 _ <<<"$line"
      key="$rank $f1 ${f2:-}"
      case $mode in
        every) ;;
        sites) [ -z "${seen_site[$key]:-}" ] || continue ;;
        own) [ -z "${own_site[$key]:-}" ] || continue; own_site[$key]=1 ;;
        in) [ -z "${own_site[$key]:-}" ] && where "$line" | grep -qE "(^| )(${within//,/|}) \(" || continue
            own_site[$key]=1 ;;
        *) echo "test/faults/run.sh: unknown choice $choice" >&2; exit 2 ;;
      esac
      seen_site[$key]=1
      chosen+=" $num"
    done <count.txt
    [ -z "${FAULTS_N:-}" ] || chosen=$FAULTS_N
    printf 'scenario %s, rank %s: %d allocations, %s: %d runs (%s s each without a fault, limit %s s)\n' \
      "$name" "$rank" "$total" "$mode" "$(wc -w <<<"$chosen")" "$secs" "$limit"
    if [ -n "${FAULTS_LIST:-}" ]; then # what would run, no fault injected
      for num in $chosen; do echo "  N=$num $(sed -n "${num}p" count.txt | cut -d' ' -f2,3): $(where "$(sed -n "${num}p" count.txt)")"; done
      continue
    fi
    for num in $chosen; do
      rm -f one.txt
      run "$n" "${vars[@]}" FAILALLOC_RANK="$rank" FAILALLOC_N="$num" FAILALLOC_OUT="$tmp/one.txt" -- "${args[@]}"
      record=$(grep -m1 '^[0-9]* [a-z_]* [0-9]* FAIL' one.txt 2>/dev/null)
      verdict=$(judge)
      [ -n "$record" ] || verdict="${verdict:+$verdict; }not reached (the run made $(wc -l <one.txt 2>/dev/null || echo 0) allocations)"
      [ -n "$record" ] || record=$(sed -n "${num}p" count.txt)
      read -r _ fn bytes _ <<<"$record"
      site=$(where "$record")
      label="$name rank=$rank N=$num $fn($bytes)"
      if [ -z "$verdict" ]; then
        passed=$((passed + 1)) ms_ok=$((ms_ok + ms))
        [ -z "${FAULTS_VERBOSE:-}" ] || echo "ok   $label at $site"
      elif expected "$label: $verdict; at $site"; then
        xfailed=$((xfailed + 1))
        echo "xfail $label: $verdict; at $site"
        printf '%s\t%s r%s N=%s (expected): %s\n' "${site%% < *}" "$name" "$rank" "$num" "${verdict:0:60}" >>"$tmp/by-site"
      else
        failed=$((failed + 1))
        [[ $verdict == *"not reached"* ]] && unreached=$((unreached + 1))
        echo "FAIL $label: $verdict; at $site"
        printf '%s\t%s r%s N=%s: %s\n' "${site%% < *}" "$name" "$rank" "$num" "${verdict:0:60}" >>"$tmp/by-site"
        if [ -n "$KEEP" ]; then
          cp out "$KEEP/$name-r$rank-n$num.out"; cp err "$KEEP/$name-r$rank-n$num.err"
        fi
      fi
    done
  done
  echo "scenario $name: $((SECONDS - t_scenario)) s"
done

# The same failures, expected ones included, by allocation site (the innermost frame):
# the list to work from.
if [ -s "$tmp/by-site" ]; then
  echo "failures by allocation site:"
  sort -t$'\t' -k1,1 -s "$tmp/by-site" | awk -F'\t' '$1 != last { print "  " $1; last = $1 } { print "      " $2 }'
fi
echo "faults ($GC_LAUNCHER): $passed passed, $failed failed ($unreached not reached), $xfailed expected failures, $runs runs, $((SECONDS - started)) s ($((ms_ok / 1000)) s in the counting runs and the runs that passed)"
[ "$failed" = 0 ]
