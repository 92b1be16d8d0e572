#!/usr/bin/env bash
# A real, unmodified client of MPI_Alltoallv: PT-Scotch's dgord (Debian's ptscotch,
# built against Debian's default MPI, Open MPI on amd64). Its distributed graph code
# (graph scattering, halo and coarsening exchanges) calls MPI_Alltoallv with per-peer
# counts that differ; nothing of ours is compiled into it. dgord orders a 40x40 grid graph
# on 4 ranks, clusters 0-1 and 2-3, without gridcoll and with gridcoll under native, lg and
# auto. -Cd asks Scotch for its deterministic mode (without it the ordering changes from
# run to run even without gridcoll). The orderings must be byte-identical; the logs must
# hold the alltoallv calls, lg on the two-cluster communicators when forced (and native on
# the one-cluster ones, where LG-v does not apply), every rank logging the same choice.
set -u
OPENMPI_BUILD=${OPENMPI_BUILD:-build/openmpi}
# shellcheck disable=SC2034 # read by scripts/launcher.sh
MPIEXEC=mpirun.openmpi
ROOT=$(realpath "$(dirname "$0")/../..")
LIB=$(realpath "$OPENMPI_BUILD/libgridcoll-openmpi.so")
# shellcheck disable=SC1091 # sourced; checked on its own
. "$ROOT/scripts/launcher.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0
failed=0

DGORD=$(command -v dgord || true)
if [ -z "$DGORD" ]; then
  echo "FAIL ptscotch: dgord not found (scripts/deps.sh installs ptscotch for make check-openmpi)"
  exit 1
fi
# Debian's default MPI is MPICH on some architectures: this build could not serve dgord.
if ! ldd "$(readlink -f "$DGORD")" | grep -q 'libmpi\.so\.40'; then
  echo "skip ptscotch: $DGORD is not linked with Open MPI (libmpi.so.40) on this machine"
  exit 0
fi

# A 40x40 grid graph in Scotch's format: version, vertices and arcs, base and flags (no
# labels, no weights), then each vertex's degree and neighbours.
awk -v W=40 -v H=40 'BEGIN {
  print 0; print W * H, 2 * (2 * W * H - W - H); print "0\t000"
  for (y = 0; y < H; y++) for (x = 0; x < W; x++) {
    v = y * W + x; s = ""; d = 0
    if (y > 0) { s = s "\t" (v - W); d++ }
    if (x > 0) { s = s "\t" (v - 1); d++ }
    if (x < W - 1) { s = s "\t" (v + 1); d++ }
    if (y < H - 1) { s = s "\t" (v + W); d++ }
    print d s
  } }' >grid.grf

# run NAME [VAR=VALUE ...]: dgord on 4 ranks, ordering to NAME.ord, exit code in $rc.
run() {
  local name=$1
  shift
  gc_mpiexec 4 "$@" -- "$DGORD" grid.grf "$name.ord" -Cd >out 2>err
  rc=$?
}
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1 (rc $rc)"; sed 's/^/     | /' out err 2>/dev/null | head -20; }

run plain
if [ "$rc" = 0 ] && [ -s plain.ord ]; then ok "ptscotch: dgord without gridcoll"; else bad "ptscotch: dgord without gridcoll"; exit 1; fi

# "comm_size,algorithm=count ..." of the alltoallv records of one log, sorted.
v_ops() { awk -F, 'NR > 1 && $5 == "alltoallv" { print $3 "," $6 }' "$1" | LC_ALL=C sort | uniq -c | awk '{printf "%s=%s ", $2, $1}'; }
# Every rank logs the same algorithm for the same call on the same communicator size.
# (The n-th alltoallv record of each log: the communicators' ids differ between ranks.)
same_choices() { awk -F, 'FNR == 1 { n = 0 } FNR > 1 && $5 == "alltoallv" { k = $3 "," ++n; if (k in a && a[k] != $6) bad = 1; a[k] = $6 } END { exit bad }' log-[0-3].csv; }
for a in native lg auto; do
  rm -f log-*.csv
  run "$a" LD_PRELOAD="$LIB" GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_ALLTOALLV="$a" GRIDCOLL_LOG="$tmp/log-%r.csv" GRIDCOLL_SUMMARY=0
  ops0=$(v_ops log-0.csv 2>/dev/null)
  case $a in
    native) want='^(2,native=[0-9]+ )?4,native=[0-9]+ $' ;;
    lg) want='^(2,native=[0-9]+ )?4,lg=[0-9]+ $' ;;
    auto) want='^(2,native=[0-9]+ )?(4,lg=[0-9]+ )?(4,native=[0-9]+ )?$' ;;
  esac
  # Under lg, LG-v carried data, not only empty exchanges (a record with bytes > 0).
  carried=1
  [ "$a" = lg ] && ! awk -F, 'FNR > 1 && $5 == "alltoallv" && $6 == "lg" && $8 > 0 { f = 1 } END { exit !f }' log-[0-3].csv && carried=0
  if [ "$rc" = 0 ] && cmp -s plain.ord "$a.ord" && ! grep -q '^gridcoll:' err &&
     [[ $ops0 =~ $want ]] && [[ $ops0 == *4,* ]] && same_choices && [ "$carried" = 1 ]; then
    ok "ptscotch: dgord under GRIDCOLL_ALLTOALLV=$a: ordering identical, alltoallv logged ($ops0)"
  else
    bad "ptscotch: dgord under GRIDCOLL_ALLTOALLV=$a: ordering identical, alltoallv logged ($ops0)"
  fi
done
echo "ptscotch: $passed passed, $failed failed"
[ "$failed" = 0 ]
