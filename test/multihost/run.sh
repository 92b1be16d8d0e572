#!/usr/bin/env bash
# check-multihost: the network namespace grid checked like a measuring instrument, then
# the MPI tests across its delayed, shaped wide area.
#
# For each description (test/multihost/grid2.cfg: 2 clusters, 5 ms one way, 100 Mbit/s;
# grid3.cfg: 3 uneven clusters whose direct a-b link is slower than the route through c)
# scripts/grid-up builds the grid, then for every ordered pair of clusters (data from the
# first host of one to the first host of the other, test/multihost/gridnet):
#   - round trip, idle: median of 30 within 5% or 0.2 ms of the two configured delays
#     (up to 3 tries, as for the goodput);
#   - goodput of 8 TCP flows within 10% of what the rate carries as TCP payload (rate x
#     1448 / 1514: MTU frames, 66 bytes of headers), of 1 flow above half of it;
#   - a UDP flood at twice the rate: every datagram is delivered or counted dropped by
#     the link's queue (or the stage's sockets), some are dropped, and the delivered
#     volume is the rate's over the flood plus one queue, within 10%.
# On grid2: each rank runs under its host's name, and gridcoll-calibrate across the
# clusters finds the backbone bandwidth within 20% of the rate. On grid3: test/mpi's
# alltoall and bcast under gridcoll, every algorithm, byte for byte against the MPI
# library, with the log showing the forced algorithm on 3 clusters found by the globs,
# and their traffic through the backbone.
# Where namespaces cannot be made (not root, no iproute2, a container that forbids them)
# it says "SKIP check-multihost: <why>" and exits 0; it never passes silently.
set -u
BUILD=${BUILD:-build}
GRID_ROOT=$(realpath "$(dirname "$0")/../..")
STATE=${GRID_STATE:-/run/gridcoll-grid}
ALLTOALL_ALGORITHMS=${ALLTOALL_ALGORITHMS:-native lg relay}
BCAST_ALGORITHMS=${BCAST_ALGORITHMS:-native flat binomial hlot spt greedy multilevel}
# MPI_TESTS=quick: the tests' quick mode (one datatype, one communicator), for a short run.
MPI_MODE=${MPI_TESTS:-full}

source "$GRID_ROOT/test/multihost/lib.sh"
grid_session check-multihost
T=$(realpath "$BUILD/test/mpi")
CALIBRATE=$(realpath "$BUILD/gridcoll-calibrate")
NET=$TOOLS/gridnet
cd "$tmp" || exit 1
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; sed 's/^/     | /' out err 2>/dev/null | head -20; }

# grid DESCRIPTION: a fresh grid after it (the previous one removed).
grid() {
  if [ "$grid_built" = 1 ]; then "$GRID_ROOT/scripts/grid-down"; grid_built=0; fi
  "$GRID_ROOT/scripts/grid-up" -f "$GRID_ROOT/test/multihost/$1" || { echo "FAIL grid-up $1"; exit 1; }
  grid_built=1
  hosts=$(sed -n 's/^hosts=//p' "$STATE/grid")
  N=$(wc -w <<<"$hosts")
  K=$(sed -n 's/^clusters=//p' "$STATE/grid")
  echo "grid $1: $K clusters, hosts $hosts"
}
first_host() { awk -v c="$1" '$1 == "cluster" && $2 == c { print $3 }' "$STATE/grid"; }
calc() { awk "BEGIN { $1 }"; }

# measure_links: every ordered pair of clusters of the grid up, as described above.
measure_links() {
  local a b delay rate queue back server client rtt want tol g1 g8 goodput sent got d0 s0 dropped lost expect
  for a in $(awk '$1 == "cluster" { print $2 }' "$STATE/grid"); do
    grid_exec_bg "$(first_host "$a")" "$NET serve 5001"
  done
  sleep 0.3
  while read -r _ a b delay rate queue; do
    server=$(first_host "$a") client=$(first_host "$b")
    back=$(awk -v a="$a" -v b="$b" '$1 == "link" && $2 == b && $3 == a { print $4 }' "$STATE/grid")
    want=$(calc "printf \"%.4f\", ($delay + $back) * 1e3")
    tol=$(calc "t = 0.05 * $want; if (t < 0.2) t = 0.2; printf \"%.4f\", t")
    # Up to 3 tries: a measuring instrument is judged by what it can show, and one try can
    # land on a moment when the scheduler delays delayd's release or a TCP window (seen
    # on an idle 2-core machine: 1 run in 4 off by more than the tolerance).
    for _ in 1 2 3; do
      "$GRID_ROOT/scripts/grid-exec" "$client" "$NET ping $server 5001 30" >out 2>err
      rtt=$(awk '{ print $5 }' out)
      [ -n "$rtt" ] && calc "e = $rtt - $want; exit !(e <= $tol && -e <= $tol)" && break
    done
    [ -n "$rtt" ] && calc "e = $rtt - $want; exit !(e <= $tol && -e <= $tol)" &&
      pass "$a<->$b round trip $rtt ms for $want ms configured (idle, median of 30; within $tol)" ||
      fail "$a<->$b round trip ${rtt:-?} ms for $want ms configured (idle, median of 30; within $tol)"

    goodput=$(calc "printf \"%.0f\", $rate * 1448 / 1514")
    # The link's rate is judged by 8 flows (within 10%). One flow alone fills a tail-drop
    # queue, halves its window at the loss and refills it: where the queue is shorter than
    # the path's bandwidth-delay product it idles the link part of each sawtooth, so it is
    # only asked for half the rate, that the link carries one flow at all (seen: 89.3%
    # while 8 flows gave 99.9%, failing a CI run at 90%; 61.4% on c->b in three tries
    # while 8 flows gave 99.5%, failing one at 75%: the 2 cores also run the delay daemon).
    goodput_ok() {
      calc "exit !($g1 > 0.5 * $goodput && $g1 < 1.1 * $goodput && $g8 > 0.9 * $goodput && $g8 < 1.1 * $goodput)"
    }
    for _ in 1 2 3; do
      "$GRID_ROOT/scripts/grid-exec" "$client" "$NET tcp $server 5001 1 1 2" >out 2>err
      g1=$(awk '{ print $2 }' out)
      d0=$(backbone_drops)
      "$GRID_ROOT/scripts/grid-exec" "$client" "$NET tcp $server 5001 8 1 2" >>out 2>>err
      g8=$(awk 'NR == 2 { print $2 }' out)
      sleep 0.2
      [ -n "$g1" ] && [ -n "$g8" ] && goodput_ok && break
    done
    if [ -n "$g1" ] && [ -n "$g8" ] && goodput_ok; then
      pass "$a->$b TCP goodput: 1 flow $(calc "printf \"%.2f\", $g1 / 1e6") MB/s, 8 flows $(calc "printf \"%.2f\", $g8 / 1e6") MB/s (queue drops $(($(backbone_drops) - d0))), for $(calc "printf \"%.2f\", $goodput / 1e6") MB/s at $(calc "printf \"%.0f\", $rate * 8 / 1e6") Mbit/s (8 flows within 10%, 1 flow above 50%)"
    else
      fail "$a->$b TCP goodput: 1 flow ${g1:-?} B/s, 8 flows ${g8:-?} B/s, for $goodput B/s (8 flows within 10%, 1 flow above 50%)"
    fi

    # The flood: 1 s at twice the rate, datagrams of 1472 bytes (1514-byte frames).
    sent=$(calc "printf \"%.0f\", 2 * $rate / 1514")
    d0=$(link_drops "$a" "$b") s0=$(socket_drops)
    "$GRID_ROOT/scripts/grid-exec" "$client" "$NET flood $server 5001 $sent 1472 $(calc "print 2 * $rate * 1472 / 1514")" >out 2>err
    sleep 0.3
    got=$(awk '{ print $5 }' out)
    dropped=$(($(link_drops "$a" "$b") - d0)) lost=$(($(socket_drops) - s0))
    expect=$(calc "printf \"%.0f\", ($rate * 1 + $queue) / 1514")
    if [ -n "$got" ] && [ $((got + dropped + lost)) = "$sent" ] && [ "$dropped" -gt 0 ] &&
      calc "exit !($got > 0.9 * $expect && $got < 1.1 * $expect)"; then
      pass "$a->$b flood at twice the rate: $sent sent, $got delivered ($expect = 1 s at the rate + one queue), $dropped dropped by the queue, $lost elsewhere"
    else
      fail "$a->$b flood at twice the rate: $sent sent, ${got:-?} delivered (want $expect within 10%), $dropped dropped by the queue, $lost elsewhere (delivered + dropped must be sent)"
    fi
  done < <(awk '$1 == "link"' "$STATE/grid")
  for a in $(awk '$1 == "cluster" { print $2 }' "$STATE/grid"); do grid_kill_in "$(first_host "$a")"; done
}
# grid_exec_bg HOST COMMAND: a server on HOST, in the background (ended by grid_kill_in).
grid_exec_bg() { setsid "$GRID_ROOT/scripts/grid-exec" "$1" "$2" >/dev/null 2>&1 & }
grid_kill_in() {
  local pids
  pids=$(ip netns pids "$1" 2>/dev/null)
  [ -z "$pids" ] || kill $pids 2>/dev/null
}

# run PROGRAM VAR=VALUE...: the program on every host under gridcoll; done when its
# result line is out and every rank has written its log (at MPI_Finalize).
run() {
  local prog=$1 genv=() v args=()
  shift
  for v in "$@"; do genv+=(-genv "${v%%=*}" "${v#*=}"); done
  [ "$MPI_MODE" != quick ] || args=(quick)
  rm -f rec-*.csv
  grid_mpirun 300 "grep -q ' checks, ' out && [ \$(ls rec-*.csv 2>/dev/null | wc -l) = $N ]" -- \
    -genv LD_PRELOAD "$LIB" -genv GRIDCOLL_CONFIG "$CFG" -genv GRIDCOLL_LOG "$tmp/rec-%r.csv" \
    -genv GRIDCOLL_SUMMARY 0 "${genv[@]}" -n "$N" "$T/$prog" "${args[@]}"
}
# Lines gridcoll wrote on stderr.
warnings() { grep -c '^gridcoll:' err; }
no_failures() { [ "$rc" = 0 ] && grep -q ' 0 failed' out && ! grep -q '^FAIL' out; }
# used_as ALGORITHM: every record on rank 0 names all K clusters (the host globs placed
# the ranks), and the forced algorithm served the multi-cluster communicators.
used_as() {
  awk -F, -v k="$K" 'NR > 1 && $9 == k { all++ } END { exit !all }' rec-0.csv || return 1
  [ "$1" = native ] || [ "$(awk -F, -v a="$1" 'NR > 1 && $6 == a' rec-0.csv | wc -l)" -gt 0 ]
}
# One process on each host, under the host's name (what the globs match).
check_names() {
  grid_mpirun 60 "[ \$(wc -l <out) = $N ]" -- -n "$N" hostname
  [ "$rc" = 0 ] && [ "$(sort out | tr '\n' ' ')" = "$(tr ' ' '\n' <<<"$hosts" | sort | tr '\n' ' ')" ] &&
    pass "one process on each of $hosts, each under its own host name" ||
    fail "one process on each of $hosts, each under its own host name"
}

# --- the 2-cluster grid: the instrument, and calibrate across it ---------------------
CFG=$GRID_ROOT/test/multihost/grid2.cfg
grid grid2.cfg
measure_links
check_names
# gridcoll-calibrate across the clusters (plain MPI, no gridcoll): the wide-area
# bandwidth of its ping-pong fit within 20% of the link's rate.
want=$(awk '$1 == "link" { print $5; exit }' "$STATE/grid")
grid_mpirun 300 "grep -q '^gridcoll-calibrate: wrote' err" -- -n "$N" "$CALIBRATE" -c "$CFG" -s 64B:1MiB -r 9 -t 30 -o "$tmp/cal.cfg"
got=$(awk '/bandwidth = \(/ { sub(/.*\( *\( *"0", *"/, ""); sub(/ MB\/s".*/, ""); print $1 * 1e6; exit }' cal.cfg 2>/dev/null)
lat=$(awk '/latency = \(/ { sub(/.*\( *\( *"0", *"/, ""); sub(/".*/, ""); print; exit }' cal.cfg 2>/dev/null)
if [ "$rc" = 0 ] && [ -n "$got" ] && calc "exit !($got > 0.8 * $want && $got < 1.2 * $want)"; then
  pass "gridcoll-calibrate: backbone $(calc "printf \"%.2f\", $got / 1e6") MB/s, rate $(calc "printf \"%.2f\", $want / 1e6") MB/s (within 20%); its wide-area latency: ${lat:-?}"
else
  fail "gridcoll-calibrate: backbone ${got:-?} B/s, rate $want B/s (within 20%)"
  sed 's/^/     | /' cal.cfg 2>/dev/null | grep -A3 '<->' | head
fi

# --- the 3-cluster uneven grid: every algorithm across it -----------------------------
CFG=$GRID_ROOT/test/multihost/grid3.cfg
grid grid3.cfg
measure_links
check_names
before=$(backbone_bytes)
for a in $ALLTOALL_ALGORITHMS; do
  run alltoall GRIDCOLL_ALLTOALL="$a"
  no_failures && [ "$(warnings)" = 0 ] && used_as "$a" &&
    pass "alltoall $a across $K delayed clusters, clusters from host globs" || fail "alltoall $a across $K delayed clusters, clusters from host globs"
done
for b in $BCAST_ALGORITHMS; do
  run bcast GRIDCOLL_BCAST="$b"
  no_failures && [ "$(warnings)" = 0 ] && used_as "$b" &&
    pass "bcast $b across $K delayed clusters, clusters from host globs" || fail "bcast $b across $K delayed clusters, clusters from host globs"
done
# The traffic between clusters went through the backbone (UCX falling back to shared
# memory would leave only its TCP wire-up there, some 16 kB a run: ask 1 MB).
sleep 0.2
crossed=$(($(backbone_bytes) - before))
[ "$crossed" -gt 1000000 ] && pass "the tests sent $crossed bytes through the delayed backbone" ||
  fail "the tests sent $crossed bytes through the delayed backbone"

[ "$finalize_hangs" = 0 ] || echo "note: $finalize_hangs run(s) ended by the harness after their results: a rank hung in MPI_Finalize (UCX over TCP, like openucx/ucx#8738)"
echo "multihost: $passed passed, $failed failed"
[ "$failed" = 0 ]
