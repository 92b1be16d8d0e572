# The nonblocking and persistent cases (sourced by test/mpi/run.sh; ONLY=nonblocking
# runs them alone): the schedules against the MPI library's own, and every door into
# the two collectives (entry_points).
# MPI_Ibcast and MPI_Bcast_init by the trees (tree_nb.c) and MPI_Ialltoall by LG
# (lg_nb.c), under an MPI with extended generalized requests (MPICH): request arrays
# mixing them with the application's (Waitall, Waitany, Testsome, MPI_Startall,
# MPI_Request_get_status), two in flight with blocking calls between, a derived datatype
# freed in flight, a persistent one started three times; every buffer against the PMPI
# call. The log names the tree (<tree>-nb).
if [ "$GC_LAUNCHER" = openmpi ]; then
  skip "ibcast by the trees, ialltoall by LG" "Open MPI has no extended generalized requests: they stay its own"
else
  # Each tree on one layout in turn (17 s a run here): together they cover every layout.
  ib_topos=("4 GRIDCOLL_CLUSTERS=0-1,2-3" "3 GRIDCOLL_CLUSTERS=0,1-2"
    "4 GRIDCOLL_CONFIG=$tmp/interleaved.cfg" "5 GRIDCOLL_CONFIG=$tmp/three.cfg")
  i=0
  for b in flat binomial hlot spt greedy multilevel; do
    topo=${ib_topos[i % 4]}
    i=$((i + 1))
    rm -f rec-*.csv
    # shellcheck disable=SC2086 # ranks and setting
    mpirun $topo GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=$b GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/ibcast"
    no_failures && [ "$(warnings)" = 0 ] && used_as "$b-nb" 1 && pass "ibcast $b, ${topo##*/}, mixed request arrays" ||
      fail "ibcast $b, ${topo##*/}, mixed request arrays"
  done
  # MPI_Ialltoall by LG (lg_nb.c): the same arrays, in place, types freed in flight,
  # blocking calls between post and wait; against PMPI_Alltoall.
  for topo in "4 GRIDCOLL_CONFIG=$tmp/interleaved.cfg" "3 GRIDCOLL_CLUSTERS=0,1-2" "5 GRIDCOLL_CONFIG=$tmp/three.cfg"; do
    rm -f rec-*.csv
    # shellcheck disable=SC2086 # ranks and setting
    mpirun $topo GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/ialltoall"
    no_failures && [ "$(warnings)" = 0 ] && used_as lg-nb 1 && pass "ialltoall lg, ${topo##*/}, mixed request arrays" ||
      fail "ialltoall lg, ${topo##*/}, mixed request arrays"
  done
fi

# --- every door into the two collectives ------------------------------------------------
# 3 ranks in two clusters (0 | 1-2) with LG and the flat tree forced: a call that reaches
# gridcoll's algorithms says so in the log (lg, flat), one that passes through does not.
grid3=(GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALL=lg GRIDCOLL_ALLTOALLV=lg GRIDCOLL_BCAST=flat GRIDCOLL_SUMMARY=0)
# ops_in FILE: "op,algorithm=count ..." over the records of a log, sorted.

# MPI_Alltoall_c and MPI_Bcast_c run the grid algorithms (2 + 3 calls); the nonblocking
# and persistent calls (and their _c) run natively and are logged once each when issued,
# untimed: native-nb / native-persistent with empty predicted_s and actual_s, which
# gridcoll-report leaves out.
# Open MPI 4.1 is MPI 3.1: of these only MPI_Ialltoall and MPI_Ibcast exist.
if [ "$GC_LAUNCHER" = openmpi ]; then
  entry_calls="0 blocking, 2 nonblocking, 0 persistent" entry_grid=0
  entry_ops="alltoall,native-nb=1 bcast,native-nb=1 "
else
  # MPICH, GRIDCOLL_NONBLOCKING=grid: MPI_Ialltoall(_c) and MPI_Ibcast(_c) run LG and the flat tree as schedules
  # (lg-nb, flat-nb), MPI_Bcast_init(_c) the flat tree (flat-persistent), untimed as the
  # native ones.
  entry_calls="5 blocking, 4 nonblocking, 4 persistent" entry_grid=5
  entry_ops="alltoall,lg=2 alltoall,lg-nb=2 alltoall,native-persistent=2 bcast,flat=3 bcast,flat-nb=2 bcast,flat-persistent=2 "
fi
entry_log_ok() {
  local r
  for r in 0 1 2; do
    [ "$(ops_in "ep-$r.csv")" = "$entry_ops" ] || return 1
    awk -F, 'NR > 1 && (NF != 18 || ($6 ~ /^native-|-nb$|-persistent$/ && ($11 != "" || $12 != "" || $14 != "" || $15 != "")) || ($6 !~ /^native-|-nb$|-persistent$/ && ($12 == "" || $14 == "" || $15 == ""))) { exit 1 }' "ep-$r.csv" || return 1
  done
  [ "$entry_grid" = 0 ] && return 0 # nothing timed: gridcoll-report has no records to show
  "$ROOT/scripts/gridcoll-report" ep-*.csv >rep.out 2>&1 &&
    [ "$(awk '$1 == "alltoall" && $2 == "lg" { n += $5 } $1 == "bcast" && $2 == "flat" { n += $5 } END { print n + 0 }' rep.out)" = "$entry_grid" ] &&
    ! grep -qE 'native-|-nb|-persistent' rep.out
}
mpirun 3 "${grid3[@]}" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_LOG="$tmp/ep-%r.csv" -- "$T/entry_points"
no_failures && grep -q "^entry: 0 failed, $entry_calls" out && [ "$(warnings)" = 0 ] && entry_log_ok &&
  pass "entry points: _c through the grid algorithms, nonblocking and persistent logged untimed" ||
  fail "entry points: _c through the grid algorithms, nonblocking and persistent logged untimed"


# Progress in the MPI library's blocking calls (doc/design.md: Nonblocking collectives,
# the limit): rank 1 waits in MPI_Recv for rank 2, which waits on an MPI_Ibcast (then an
# MPI_Ialltoall) that needs rank 1's part. Legal; gridcoll's schedules would hang there,
# so with the trees and LG forced for the blocking calls the nonblocking ones stay the
# MPI library's own unless GRIDCOLL_NONBLOCKING=grid: the default runs it to the end.
rm -f rec-*.csv
mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_progress"
no_failures && grep -q '^nb_progress: 2 checks, 0 failed' out && [ "$(warnings)" = 0 ] &&
  [ "$(ops_in rec-0.csv)" = "alltoall,native-nb=1 bcast,native-nb=1 " ] &&
  pass "nonblocking native by default with the trees and LG forced: progress in MPI_Recv" ||
  fail "nonblocking native by default with the trees and LG forced: progress in MPI_Recv"
