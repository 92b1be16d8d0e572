# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# Sourced by test/mpi/run.sh (ONLY=fastpath runs these cases alone): what gridcoll does
# on calls whose outcome it already knows.
#
# The decision cache (shim/pure/decision.h). test/mpi/decide makes, on two communicators, for
# 4 sizes (two of them in one size class), broadcasts from each of 4 roots 3 times, then
# 3 all-to-alls; roots 0-1 are one cluster, 2-3 the other. At verbose 3, without a log,
# gridcoll says each choice `auto` makes and keeps. A working cache makes exactly one per
# (communicator, operation, bytes, root cluster): 2 x 4 x (2 + 1) = 24 per rank, the
# same lines in the same order on every rank. A cache that never hits says more; one
# that ignores the root cluster or the bytes says fewer; a choice made on one rank only
# breaks the order. Learning is off here (GRIDCOLL_LEARN=0): it is the models' choices
# that are counted; test/mpi/learn.sh counts what learning keeps.
decisions_ok() {
  local r n
  for r in 0 1 2 3; do
    grep "^gridcoll: \[$r\] .*: auto chose " "err.$r" | sed "s/^gridcoll: \[$r\] //" >"choices-$r"
    n=$(wc -l <"choices-$r")
    [ "$n" = 24 ] || { echo "rank $r made $n choices, expected 24" >>out; return 1; }
  done
  cmp -s choices-0 choices-1 && cmp -s choices-0 choices-2 && cmp -s choices-0 choices-3
}
rm -f err.*
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_LEARN=0 GRIDCOLL_VERBOSE=3 -- "${own_err[@]}" "$T/decide"
no_failures && grep -q '^decide: 120 calls per rank, 0 failed' out && decisions_ok &&
  pass "decision cache: one choice per (communicator, op, bytes, root cluster), the same on every rank" ||
  fail "decision cache: one choice per (communicator, op, bytes, root cluster), the same on every rank"

# With the probe, every communicator's view changes (its version is bumped) at its first
# call, before any choice: choices are made, and kept, under the probed view only.
rm -f err.*
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_PROBE=1 GRIDCOLL_LEARN=0 GRIDCOLL_VERBOSE=3 -- "${own_err[@]}" "$T/decide"
no_failures && grep -q '^decide: 120 calls per rank, 0 failed' out && decisions_ok &&
  pass "decision cache after the probe: kept under the new network view" ||
  fail "decision cache after the probe: kept under the new network view"

# With a log, every call is run, timed and recorded (120 records per rank; a decided one
# predicts only what it runs), and no choice is announced as kept.
rm -f dc-*.csv
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_VERBOSE=3 GRIDCOLL_LOG="$tmp/dc-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/decide"
records_ok() {
  local r
  for r in 0 1 2 3; do
    [ "$(awk 'NR > 1' "dc-$r.csv" | wc -l)" = 120 ] || return 1
  done
  ! grep -q ': auto chose ' err
}
no_failures && records_ok &&
  pass "decision cache with a log: every call recorded" ||
  fail "decision cache with a log: every call recorded"

# What gridcoll keeps of a datatype from call to call (shim/datatype.c): test/mpi/typereuse
# frees a derived type and makes another of a different size each round, MPI handing the
# same handle out again (its count of reuses must not be 0, or the case proves nothing).
# The grid algorithms run on every call (LG moves count x the size gridcoll found), their
# results compared with PMPI's; then, logged, every record's bytes must be the new type's
# (12 x its ints per call, in order): a size kept across the free shows there first.
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=flat -- "$T/typereuse"
no_failures && grep -q '^typereuse: 240 calls per rank, 0 failed, [1-9][0-9]* handles reused' out &&
  pass "a freed datatype's handle reused by another: results of lg and flat equal PMPI's" ||
  fail "a freed datatype's handle reused by another: results of lg and flat equal PMPI's"
rm -f tr-*.csv
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_LOG="$tmp/tr-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/typereuse"
type_bytes_ok() {
  local r want
  want=$(awk 'BEGIN { for (r = 0; r < 40; r++) for (k = 0; k < 6; k++) print 12 * (1 + (r * 3) % 7) }')
  for r in 0 1 2 3; do
    [ "$(awk -F, 'NR > 1 { print $8 }' "tr-$r.csv")" = "$want" ] || return 1
  done
}
no_failures && grep -q '^typereuse: 240 calls per rank, 0 failed, [1-9][0-9]* handles reused' out &&
  type_bytes_ok &&
  pass "a freed datatype's handle reused by another: every record has the new type's size" ||
  fail "a freed datatype's handle reused by another: every record has the new type's size"

# The memo with logging off (shim/call.h): a call with the same counts, datatypes and root
# as the last one `auto` sent to the library goes straight there. test/mpi/fastkey
# alternates 8 B (the library's, from cluster 0) and 64 KiB (lg's all-to-all, flat from
# cluster 1, on this slow wide area), rank 0 passing a derived type made anew each round
# (its handle reused for the other length: the count must not be 0) and the others bytes.
# A key kept across the free would send rank 0 alone to the library: a wrong buffer or a
# hang (LIMIT).
cat >slow.cfg <<'CFG'
clusters = ( { name = "a"; ranks = "0-1"; }, { name = "b"; ranks = "2-3"; } );
network = { wan = { latency = ( ("0", "20 ms"), ("20 ms", "0") );
                    bandwidth = ( ("0", "1 MB/s"), ("1 MB/s", "0") ); }; };
CFG
for learn in 0 1; do
  LIMIT=60 mpirun 4 GRIDCOLL_CONFIG="$tmp/slow.cfg" GRIDCOLL_LEARN=$learn -- "$T/fastkey" 8 65536
  no_failures && grep -q '^fastkey: 120 calls per rank, 0 failed, [1-9][0-9]* handles reused' out &&
    pass "fast path (learn=$learn): the same bytes under other keys, a freed type's handle reused" ||
    fail "fast path (learn=$learn): the same bytes under other keys, a freed type's handle reused"
done

# The memo with logging on (shim/call.h): a call the same as the last logged one whose algorithm was settled without measuring (forced, or decided) runs that
# algorithm again and is recorded from that call's line. fastkey's derived type on rank 0,
# its handle reused for the other length, must not be taken for the same call: a wrong
# buffer or a hang (LIMIT); and every rank's log must say the same algorithm for every
# call, with the bytes of that call (rank 0's derived type included).
same_logs() {
  local r
  for r in 0 1 2 3; do
    awk -F, 'NR > 1 { print $2, $4, $5, $6, $8 }' "fk-$r.csv" >"fk-$r.cols" || return 1
  done
  [ "$(wc -l <fk-0.cols)" = 120 ] && cmp -s fk-0.cols fk-1.cols && cmp -s fk-0.cols fk-2.cols &&
    cmp -s fk-0.cols fk-3.cols &&
    [ "$(awk '$5 != 8 && $5 != 65536' fk-0.cols | wc -l)" = 0 ]
}
for learn in 0 1; do
  rm -f fk-*.csv
  LIMIT=60 mpirun 4 GRIDCOLL_CONFIG="$tmp/slow.cfg" GRIDCOLL_LEARN=$learn GRIDCOLL_LOG="$tmp/fk-%r.csv" \
    GRIDCOLL_SUMMARY=0 -- "$T/fastkey" 8 65536
  no_failures && grep -q '^fastkey: 120 calls per rank, 0 failed, [1-9][0-9]* handles reused' out &&
    same_logs &&
    pass "logged fast path (learn=$learn): the same algorithm and bytes in every rank's log, a freed type's handle reused" ||
    fail "logged fast path (learn=$learn): the same algorithm and bytes in every rank's log, a freed type's handle reused"
done
# Forced grid algorithms, logged: typereuse's new type of another size under a reused
# handle must reach lg and flat with its own size (results equal PMPI's, records' bytes).
rm -f tr-*.csv
mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=flat \
  GRIDCOLL_LOG="$tmp/tr-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/typereuse"
no_failures && grep -q '^typereuse: 240 calls per rank, 0 failed, [1-9][0-9]* handles reused' out &&
  type_bytes_ok && [ "$(ops_in tr-0.csv)" = "alltoall,lg=120 bcast,flat=120 " ] &&
  pass "logged fast path, lg and flat forced: a reused handle's new type, results and records right" ||
  fail "logged fast path, lg and flat forced: a reused handle's new type, results and records right"

# commcost's heap bytes a communicator, from its line in out (empty: no such line).
commcost_heap() {
  sed -n 's/^commcost: 500 communicators, heap +\([0-9-]*\) bytes each, 0 failed$/\1/p' out
}

# What a live one-cluster communicator costs (test/mpi/commcost: 500 duplicates, each with
# a broadcast and an all-to-all): its state, without the learning tables it cannot use
# (shim/comm_state.h), under 8 KiB of heap beyond what the library itself keeps (22 KiB
# when every state carried them).
mpirun 2 LD_PRELOAD= -- "$T/commcost" 500
base=$(commcost_heap)
mpirun 2 -- "$T/commcost" 500
with=$(commcost_heap)
[ -n "$base" ] && [ -n "$with" ] && [ $((with - base)) -lt 8192 ] &&
  pass "a one-cluster communicator's state: $((with - base)) bytes of heap (< 8 KiB)" ||
  fail "a one-cluster communicator's state: ${with:-?} - ${base:-?} bytes of heap (< 8 KiB)"

# Two clusters, learning on against learning off (the same layout, the same trees and
# buffers): what learning adds, its tables (78,528 bytes for the three ops,
# shim/pure/learn.h) and a completion-time window for its measured calls, which carries
# no room for the log's nonblocking calls (shim/span.c: under 1 KiB in all; 10 KiB more
# when every window carried that room): under the tables and 8 KiB.
# MPICH only: Open MPI's heap moved by 8 KiB between two runs of the same setting here
# (96,043 and 104,685 bytes a communicator), more than this bounds.
if [ "$GC_LAUNCHER" != openmpi ]; then
  mpirun 2 GRIDCOLL_CLUSTERS=0,1 GRIDCOLL_LEARN=0 -- "$T/commcost" 500
  off=$(commcost_heap)
  mpirun 2 GRIDCOLL_CLUSTERS=0,1 -- "$T/commcost" 500
  on=$(commcost_heap)
  [ -n "$off" ] && [ -n "$on" ] && [ $((on - off)) -lt $((78528 + 8192)) ] &&
    pass "what learning adds to a two-cluster communicator: $((on - off)) bytes of heap (< 78,528 + 8 KiB)" ||
    fail "what learning adds to a two-cluster communicator: ${on:-?} - ${off:-?} bytes of heap (< 78,528 + 8 KiB)"
fi
