# shellcheck shell=bash disable=SC2034 # sourced: rc and LIB are for its callers
# Shared by test/multihost/run.sh and scripts/bench-multihost.sh (sourced, bash):
# running an MPI program across the hosts of scripts/grid-up.
#
# grid_mpirun TIMEOUT DONE -- [mpiexec options] PROGRAM...: scripts/grid-mpiexec with
# stdout in ./out, stderr in ./err, exit code in $rc. DONE is a command that says the
# program has finished its work (e.g. its result line is in ./out and every rank wrote its
# log). With UCX 1.13 over TCP, MPI_Finalize sometimes never returns on one rank
# (it spins closing an endpoint whose progress has stopped, like openucx/ucx#8738), after
# every result is out. When DONE holds and the run has not ended FINALIZE_GRACE seconds
# later, the run is ended, $finalize_hangs counts it, and rc is 0: the results stand, the
# hang is MPI's, and it is reported. Without DONE, TIMEOUT ends the run with rc 124.
FINALIZE_GRACE=${FINALIZE_GRACE:-3}
finalize_hangs=0
grid_mpirun() {
  local limit=$1 done_cmd=$2 pid start waited=-1
  shift 3
  start=$SECONDS
  setsid "$GRID_ROOT/scripts/grid-mpiexec" "$@" >out 2>err &
  pid=$!
  while running "$pid"; do
    if [ "$waited" -lt 0 ] && eval "$done_cmd"; then waited=$SECONDS; fi
    if [ "$waited" -ge 0 ] && [ $((SECONDS - waited)) -ge "$FINALIZE_GRACE" ]; then
      grid_stop "$pid"
      finalize_hangs=$((finalize_hangs + 1))
      echo "note: a rank hung in MPI_Finalize after the results (UCX over TCP, like openucx/ucx#8738): run ended" >>err
      rc=0
      return
    fi
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      grid_stop "$pid"
      rc=124
      return
    fi
    sleep 0.2
  done
  wait "$pid"
  rc=$?
}

# running PID: PID has not exited (a zombie, exited but not yet waited for, has).
running() {
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
  [ -n "$state" ] && [ "$state" != Z ]
}

# grid_stop PID: end the run PID leads (mpiexec takes its proxies and ranks with it),
# then whatever of it is left in the grid's host namespaces.
grid_stop() {
  kill -TERM -- "-$1" 2>/dev/null
  sleep 1
  kill -KILL -- "-$1" 2>/dev/null
  wait "$1" 2>/dev/null
  local host pids
  for host in $(sed -n 's/^hosts=//p' "${GRID_STATE:-/run/gridcoll-grid}/grid"); do
    pids=$(ip netns pids "$host" 2>/dev/null)
    [ -z "$pids" ] || kill -KILL $pids 2>/dev/null
  done
}

# backbone_bytes / backbone_drops: bytes the backbone (delayd) delivered between clusters,
# and frames its queues dropped, so far, over every link (delayd rewrites its counters
# at most 100 ms after they change: wait that long after the traffic of interest).
backbone_stat() { # COLUMN of delayd's "link FROM TO sent_pkts sent_bytes dropped_pkts ..."
  awk -v f="$1" '$1 == "link" { t += $f } END { printf "%.0f\n", t }' \
    "${GRID_STATE:-/run/gridcoll-grid}/delayd.stats" 2>/dev/null || echo 0
}
backbone_bytes() { backbone_stat 5; }
backbone_drops() { backbone_stat 6; }
# link_drops FROM TO: frames the queue of the link between those clusters dropped so far;
# socket_drops: frames the stage's sockets had no room for (any link), so far.
link_drops() {
  awk -v a="r$1" -v b="r$2" '$1 == "link" && $2 == a && $3 == b { print $6 }' \
    "${GRID_STATE:-/run/gridcoll-grid}/delayd.stats"
}
socket_drops() {
  awk '$1 == "port" { t += $4 } END { print t + 0 }' "${GRID_STATE:-/run/gridcoll-grid}/delayd.stats"
}

# grid_session NAME: the start every grid script shares. SKIP NAME (exit 0) where this
# machine cannot build a grid; else TOOLS, GRID_BUILD, LIB (the preloaded library of
# $BUILD) and tmp (a folder) set, and the grid this script builds (grid_built=1) taken
# down with tmp at exit. A grid already up is someone else's: left alone.
grid_session() {
  TOOLS=$(realpath "$BUILD/test/multihost")
  local why
  why=$(grid_unavailable "$TOOLS")
  if [ -n "$why" ]; then echo "SKIP $1: $why"; exit 0; fi
  export GRID_BUILD=$TOOLS
  LIB=$(realpath "$BUILD/libgridcoll.so")
  tmp=$(mktemp -d)
  grid_built=0
  trap grid_cleanup EXIT
  trap 'exit 130' INT TERM
}
grid_cleanup() { [ "$grid_built" = 0 ] || "$GRID_ROOT/scripts/grid-down"; rm -rf "$tmp"; }

# grid_unavailable TOOLS: why this machine cannot build the grid (nothing when it can):
# namespaces, veths and the packet sockets of TOOLS/delayd.
grid_unavailable() {
  local tool probe=gc-probe-$$ why
  [ "$(id -u)" = 0 ] || { echo "needs root to create network namespaces (run as root)"; return; }
  for tool in ip unshare hostname mount; do
    command -v "$tool" >/dev/null || { echo "$tool not found (scripts/deps.sh installs iproute2)"; return; }
  done
  [ -x "$1/delayd" ] || { echo "$1/delayd not built (make multihost-tools)"; return; }
  why=$(ip netns add "$probe" 2>&1) || { echo "cannot create a network namespace here: $why"; return; }
  why=$(ip -n "$probe" link add p0 type veth peer name p1 2>&1 &&
    ip -n "$probe" link set p0 up 2>&1 && ip -n "$probe" link set p1 up 2>&1) || true
  if [ -z "$why" ]; then # delayd opens its packet sockets, or says why it cannot
    local dir
    dir=$(mktemp -d)
    why=$(timeout 1 ip netns exec "$probe" "$1/delayd" -s "$dir/stats" -i p0 -i p1 \
      -l 0,1,0,1e6,2000 -l 1,0,0,1e6,2000 2>&1 >/dev/null)
    [ $? = 124 ] && why=
    rm -rf "$dir"
  fi
  ip netns del "$probe"
  [ -z "$why" ] || echo "cannot run the wide-area stage here: $why"
}

# rate_bytes RATE: a tc rate (100mbit, 1gbit, 500kbit, 12500000bps...) in bytes/s.
rate_bytes() {
  awk -v r="$1" 'BEGIN {
    n = r + 0; u = tolower(substr(r, length(n "") + 1))
    f["bit"] = 1 / 8; f["kbit"] = 1e3 / 8; f["mbit"] = 1e6 / 8; f["gbit"] = 1e9 / 8
    f["bps"] = 1; f["kbps"] = 1e3; f["mbps"] = 1e6; f["gbps"] = 1e9
    if (!(u in f)) exit 1
    printf "%.0f\n", n * f[u] }'
}
