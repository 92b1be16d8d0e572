# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# The nonblocking and persistent cases (sourced by test/mpi/run.sh; ONLY=nonblocking
# runs them alone): the schedules against the MPI library's own, and every door into
# the two collectives (entry_points).
# MPI_Ibcast and MPI_Bcast_init by the trees (tree_nb.c), MPI_Ialltoall and
# MPI_Alltoall_init by LG (lg_nb.c), under both MPIs (Open MPI 4.1 is MPI 3.1: no
# MPI_Bcast_init nor MPI_Alltoall_init there, so no persistent schedule): request arrays
# mixing them with the application's (Waitall, Waitany, Testsome, MPI_Startall,
# MPI_Request_get_status), two in flight with blocking calls between, a derived datatype
# freed in flight, a persistent one started three times; every buffer against the PMPI
# call. The log names the tree (<tree>-nb) and times every call (nb_log_ok).
#
# nb_log_ok LOG...: the logs of every rank of such a run (doc/log.md, issue 28 item 4). On every
# rank each communicator's calls are numbered 0, 1, ... once each (one line per call, per
# MPI_Start for a persistent schedule), and every member logs a call alike (op,
# algorithm, root, bytes, clusters, model, prediction) and does log it. A schedule's line
# (op ibcast, ialltoall, bcast_init or alltoall_init; algorithm <name>-nb or
# <name>-persistent) has a prediction and either its rank's own times (actual_s =
# elapsed_s, post to the completion the application saw; own_s, post to the schedule's
# last step, at most that; no spread nor lateness) or times assembled over the ranks at
# the communicator's next point (sync mode: doc/log.md): a spread, a broadcast's root
# lateness, own_s at most actual_s, and the same three times on every rank. One the MPI
# library ran (native-nb, native-persistent) the same but own_s, the library's progress
# being unseen (issued.h). At least one such line. NB_ASSEMBLED=N: at least N of rank
# 0's such lines assembled (default 0).
nb_log_ok() {
  awk -F, '
    FNR == 1 { next }
    NF != 18 { print FILENAME ":" FNR ": " NF " fields"; bad = 1; next }
    {
      k = $2 SUBSEP $4
      if (($1, k) in seen) { print FILENAME ":" FNR ": call logged twice"; bad = 1 }
      seen[$1, k] = 1
      n[$1 SUBSEP $2]++
      if ($4 + 0 > last[$1 SUBSEP $2]) last[$1 SUBSEP $2] = $4 + 0
      what = $5 "," $6 "," $7 "," ($5 == "alltoallv" ? "" : $8) "," $9 "," $10 "," $11
      if (k in call && call[k] != what) { print FILENAME ":" FNR ": ranks disagree: " what " / " call[k]; bad = 1 }
      call[k] = what; ranks[k]++; size[k] = $3
      t = "^[0-9]+[.][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$"
      if ($6 !~ /^native-|-nb$|-persistent$/) next
      sched++
      rooted = $5 ~ /bcast/
      if ($16 == "") { # the times of its rank alone
        ok = $12 ~ t && $14 == $12 && $17 == ""
      } else { # assembled: the same on every rank
        ok = $16 ~ t && (rooted ? $17 ~ t : $17 == "")
        if (k in times && times[k] != $12 "," $15 "," $16) { print FILENAME ":" FNR ": assembled times differ: " $12 "," $15 "," $16 " / " times[k]; bad = 1 }
        times[k] = $12 "," $15 "," $16
        if ($1 == 0) assembled++
      }
      if ($6 ~ /^native-/)
        ok = ok && $5 ~ /^i|_init$/ && $12 ~ t && $15 == ""
      else
        ok = ok && $5 ~ /^(ibcast|ialltoall|bcast_init|alltoall_init)$/ && $11 ~ t && $12 ~ t &&
             $15 ~ t && $15 + 0 <= $12 + 0
      if (!ok) { print FILENAME ":" FNR ": " $0; bad = 1 }
    }
    END {
      if (assembled < want) { print "rank 0: " assembled + 0 " nonblocking lines assembled, " want " wanted"; bad = 1 }
      for (rc in n) if (n[rc] != last[rc] + 1) { split(rc, p, SUBSEP); print "rank " p[1] " comm " p[2] ": " n[rc] " lines for calls 0.." last[rc]; bad = 1 }
      for (k in ranks) if (ranks[k] != size[k]) { split(k, p, SUBSEP); print "comm " p[1] " call " p[2] ": logged by " ranks[k] " of " size[k] " ranks"; bad = 1 }
      exit bad || !sched
    }' want="${NB_ASSEMBLED:-0}" "$@" >&2
}
# lines_of OP [ALGORITHM-REGEX]: rank 0's lines for OP.
lines_of() { awk -F, -v op="$1" -v a="${2:-.}" 'NR > 1 && $5 == op && $6 ~ a' rec-0.csv | wc -l; }
# ibcast_made_ok: rank 0's log has a line per MPI_Ibcast it made, and per MPI_Start of its
# MPI_Bcast_init, whoever ran it (gridcoll's schedule, or the MPI library followed:
# issued.h).
ibcast_made_ok() {
  local ib ni ns
  read -r ib ni ns < <(sed -n 's/^ibcast: rank 0 made \([0-9]*\) MPI_Ibcast, \([0-9]*\) MPI_Bcast_init, \([0-9]*\) MPI_Start$/\1 \2 \3/p' out)
  [ -n "$ib" ] && [ "$(lines_of ibcast)" = "$ib" ] && [ "$(lines_of bcast_init)" = "$ns" ]
}
# ialltoall_made_ok: a line per MPI_Ialltoall and MPI_Ibcast rank 0 made, and per
# MPI_Start of its MPI_Alltoall_init. Under MPI 3 (no init), none.
ialltoall_made_ok() {
  local ia ib ni ns
  read -r ia ib < <(sed -n 's/^ialltoall: rank 0 made \([0-9]*\) MPI_Ialltoall, \([0-9]*\) MPI_Ibcast$/\1 \2/p' out)
  read -r ni ns < <(sed -n 's/^ialltoall: rank 0 made \([0-9]*\) MPI_Alltoall_init, \([0-9]*\) MPI_Start$/\1 \2/p' out)
  [ -n "$ia" ] && [ -n "$ni" ] && [ "$(lines_of ialltoall)" = "$ia" ] && [ "$(lines_of ibcast)" = "$ib" ] &&
    [ "$(lines_of alltoall_init)" = "$ns" ]
}
# persistent: 1 where the MPI has persistent collectives (MPI 4: MPICH), 0 under Open MPI
# 4.1 (MPI 3.1), where the test programs make none and no line may say one ran.
persistent=1
[ "$GC_LAUNCHER" = openmpi ] && persistent=0
{
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
    no_failures && [ "$(warnings)" = 0 ] && used_as "$b-nb" 1 && used_as "$b-persistent" $persistent &&
      nb_log_ok rec-*.csv && ibcast_made_ok && pass "ibcast $b, ${topo##*/}, mixed request arrays, logged" ||
      fail "ibcast $b, ${topo##*/}, mixed request arrays, logged"
  done
  # Segmented trees (tree_nb.c, tree_steps.h): the same request arrays with 1 KiB segments,
  # which cut the 100000-byte case past GC_BCAST_NB_SEGMENTS (32 longer segments) and the
  # small cases into a few; then different datatypes of one signature on the root and
  # the receivers (bcast_mixed.c), cut where no type's elements end, nonblocking and
  # persistent: a receiver that is not raw stages and unpacks, a root packs at every
  # start, every byte as PMPI_Bcast's.
  printf 'bcast = { segment = "1 KiB"; };\n' >nbseg.cfg
  mpirun 4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_CONFIG="$tmp/nbseg.cfg" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=greedy GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/ibcast"
  no_failures && [ "$(warnings)" = 0 ] && used_as greedy-nb 1 && used_as greedy-persistent $persistent &&
    nb_log_ok rec-*.csv && ibcast_made_ok && pass "ibcast greedy, 1 KiB segments, mixed request arrays, logged" ||
    fail "ibcast greedy, 1 KiB segments, mixed request arrays, logged"
  # The layouts of ib_topos, each configuration file with the segment size added.
  seg_topos=("4 GRIDCOLL_CONFIG=$tmp/seg-interleaved.cfg" "3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_CONFIG=$tmp/seg.cfg"
    "5 GRIDCOLL_CONFIG=$tmp/seg-three.cfg" "4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_CONFIG=$tmp/seg.cfg")
  i=0
  for seg in "3 B:240" "1000 B:2400"; do
    printf 'bcast = { segment = "%s"; };\n' "${seg%:*}" >seg.cfg
    cat interleaved.cfg seg.cfg >seg-interleaved.cfg
    cat three.cfg seg.cfg >seg-three.cfg
    forms="nb persistent"
    [ "$persistent" = 1 ] || forms=nb
    for form in $forms; do
      for b in hlot binomial multilevel; do
        topo=${seg_topos[i % 4]}
        i=$((i + 1))
        rm -f rec-*.csv
        # shellcheck disable=SC2086 # ranks and setting
        mpirun $topo GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=$b GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/bcast_mixed" "${seg#*:}" $form
        used=$b-nb
        [ $form = persistent ] && used=$b-persistent
        no_failures && [ "$(warnings)" = 0 ] && used_as "$used" 1 && nb_log_ok rec-*.csv &&
          pass "$form bcast $b, mixed datatypes, ${seg%:*} segments, ${topo//$tmp\//}" ||
          fail "$form bcast $b, mixed datatypes, ${seg%:*} segments, ${topo//$tmp\//}"
      done
    done
  done
  # MPI_Ialltoall and MPI_Alltoall_init by LG (lg_nb.c): the same arrays, in place,
  # types freed in flight, blocking calls between post and wait, persistent ones started
  # with new data; against PMPI_Alltoall. Once in local mode with
  # the summary, which has no row of a nonblocking call (warnings() would count one).
  for topo in "4 GRIDCOLL_CONFIG=$tmp/interleaved.cfg" "3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_LOG_MODE=local" "5 GRIDCOLL_CONFIG=$tmp/three.cfg"; do
    rm -f rec-*.csv
    summary=0
    [[ $topo == *local ]] && summary=1
    # shellcheck disable=SC2086 # ranks and setting
    mpirun $topo GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALL=lg GRIDCOLL_BCAST=hlot GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=$summary -- "$T/ialltoall"
    no_failures && [ "$(warnings)" = 0 ] && used_as lg-nb 1 && used_as lg-persistent $persistent &&
      nb_log_ok rec-*.csv && ialltoall_made_ok &&
      { [ "$summary" = 0 ] || grep -q '^gridcoll: summary of' err; } &&
      pass "ialltoall lg, ${topo##*/}, mixed request arrays, logged" ||
      fail "ialltoall lg, ${topo##*/}, mixed request arrays, logged"
  done
  # `auto` (issue 28 item 3): the models pick, call by call, among the MPI library's own
  # and the algorithms with a schedule (dispatch.h: gc_dispatch_scheduled), from data
  # identical on every rank. Over a slow wide area (40 ms, 10 Mbit/s; gridcoll-predict
  # -c slowwan.cfg -n 5 -s 16,5000,64KiB says so) LG for the 64 KiB blocks, as nonblocking
  # and persistent calls alike, the library's own below; a tree for the 4-byte MPI_Ibcast.
  cat >slowwan.cfg <<'CFG'
clusters = ( { name = "a"; ranks = "0,3"; }, { name = "b"; ranks = "1,4"; }, { name = "c"; ranks = "2"; } );
network = { lan = { alpha = "2 us"; beta = "10 Gbit/s"; };
  wan = { latency = ( ("0", "40 ms", "40 ms"), ("40 ms", "0", "40 ms"), ("40 ms", "40 ms", "0") );
          bandwidth = ( ("0", "10 Mbit/s", "10 Mbit/s"), ("10 Mbit/s", "0", "10 Mbit/s"),
                        ("10 Mbit/s", "10 Mbit/s", "0") ); }; };
CFG
  rm -f rec-*.csv
  mpirun 5 GRIDCOLL_CONFIG="$tmp/slowwan.cfg" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/ialltoall" quick 65536
  no_failures && [ "$(warnings)" = 0 ] && nb_log_ok rec-*.csv && ialltoall_made_ok &&
    awk -F, 'FNR > 1 && $5 ~ /^(ialltoall|alltoall_init)$/ {
               if (($8 == 65536) != ($6 ~ /^lg-/)) bad = 1; lg += $6 ~ /^lg-/; nat += $6 ~ /^native-/ }
             FNR > 1 && $5 == "ibcast" && $6 !~ /^(flat|binomial|hlot|spt|greedy|multilevel)-nb$/ { bad = 1 }
             END { exit bad || !lg || !nat }' rec-*.csv &&
    pass "auto, nonblocking and persistent: the models pick LG at 64 KiB over a slow wide area, the library below, a tree for ibcast" ||
    fail "auto, nonblocking and persistent: the models pick LG at 64 KiB over a slow wide area, the library below, a tree for ibcast"
}

# Where a schedule's line takes its times (test/mpi/nb_seen.c): each call polled complete
# with MPI_Request_get_status, then 300 ms of sleep before the MPI_Wait that completes it:
# the sleep is in actual_s (post to the completion the application saw: at least 0.25 s)
# and not in own_s (post to the schedule's last step: at least 0.2 s less). Its
# collectives are all nonblocking or persistent: the summary says it timed none. In sync
# mode every line is assembled over the ranks at MPI_Finalize (NB_ASSEMBLED).
seen_ops="bcast_init,hlot-persistent=1 ialltoall,lg-nb=1 ibcast,hlot-nb=1 " seen_checks=3
[ "$persistent" = 1 ] || seen_ops="ialltoall,lg-nb=1 ibcast,hlot-nb=1 " seen_checks=2
{
  rm -f rec-*.csv
  mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=1 -- "$T/nb_seen" 300
  no_failures && grep -q "^nb_seen: $seen_checks checks, 0 failed" out && [ "$(warnings)" = 0 ] && NB_ASSEMBLED=$seen_checks nb_log_ok rec-*.csv &&
    [ "$(grep -c '^gridcoll: summary of 0 call(s) on 3 rank(s): no blocking collective was timed' err)" = 1 ] &&
    [ "$(ops_in rec-0.csv)" = "$seen_ops" ] &&
    awk -F, 'FNR > 1 && !($12 >= 0.25 && $15 <= $12 - 0.2) { bad = 1 } END { exit bad }' rec-*.csv &&
    pass "nonblocking log: post to the completion seen (actual_s), to the schedule's end (own_s)" ||
    fail "nonblocking log: post to the completion seen (actual_s), to the schedule's end (own_s)"
  # The same calls run by the MPI library (no GRIDCOLL_NONBLOCKING=grid), followed to the
  # completion the application saw (issued.h): the sleep in actual_s, own_s empty.
  rm -f rec-*.csv
  mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=1 -- "$T/nb_seen" 300
  no_failures && grep -q "^nb_seen: $seen_checks checks, 0 failed" out && [ "$(warnings)" = 0 ] && NB_ASSEMBLED=$seen_checks nb_log_ok rec-*.csv &&
    [ "$(ops_in rec-0.csv)" = "$(sed 's/hlot-persistent/native-persistent/; s/[a-z]*-nb=/native-nb=/g' <<<"$seen_ops")" ] &&
    awk -F, 'FNR > 1 && !($12 >= 0.25) { bad = 1 } END { exit bad }' rec-*.csv &&
    pass "nonblocking log: the library's own calls from the post to the completion seen (actual_s)" ||
    fail "nonblocking log: the library's own calls from the post to the completion seen (actual_s)"
  # More of them in flight than gridcoll follows (test/mpi/nb_many.c: 70 MPI_Ibcast, then
  # one): on every rank each call logged once (indices 0..70), the 6 past the table's 64
  # untimed when issued, the last one timed once the table drained (shim/issued.c).
  rm -f rec-*.csv
  mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_many" 70
  no_failures && grep -q '^nb_many: 71 checks, 0 failed' out && [ "$(warnings)" = 0 ] &&
    awk -F, 'FNR == 1 { files++ } FNR > 1 && $5 == "ibcast" && $6 == "native-nb" {
               k = FILENAME SUBSEP $4; if (k in seen) bad = 1; seen[k] = 1
               n[FILENAME]++; if ($12 == "") untimed[FILENAME]++; if ($4 == 70) last[FILENAME] = $12 }
             END { for (f in n) { ok++; if (n[f] != 71 || untimed[f] != 6 || last[f] == "") bad = 1 }
                   exit bad || ok != 3 || files != 3 }' rec-*.csv &&
    pass "nonblocking log: past 64 of the library's calls in flight, the rest untimed, none lost" ||
    fail "nonblocking log: past 64 of the library's calls in flight, the rest untimed, none lost"
  # Times assembled over the ranks at the communicator's next point (test/mpi/nb_points.c,
  # span.h: gc_span_own): an MPI_Ialltoall carried by a half window's post, an MPI_Ibcast
  # whose last rank posted 100 ms late carried by MPI_Comm_free (a spread of at least
  # 0.08 s, its root on time), and, by the library's own calls only, an MPI_Ibcast no
  # member saw complete before its communicator was freed (each rank's own times).
  for nb in native grid; do
    rm -f rec-*.csv
    if [ $nb = grid ]; then
      mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_points" seen
      checks=3 sched='(lg|hlot)-nb'
    else
      mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_points"
      checks=4 sched='native-nb'
    fi
    no_failures && grep -q "^nb_points: $checks checks, 0 failed" out && [ "$(warnings)" = 0 ] &&
      NB_ASSEMBLED=2 nb_log_ok rec-*.csv &&
      awk -F, -v a="^$sched\$" 'FNR == 1 { files++ } FNR > 1 && $5 != "bcast" {
                 if ($6 !~ a) bad = 1
                 if ($5 == "ialltoall") { all++; if ($16 == "") bad = 1 }
                 else if ($8 == 256) { late++; if (!($16 >= 0.08 && $17 != "" && $17 < 0.05)) bad = 1 }
                 else if ($8 == 8) { unseen++; if ($16 != "" || $12 != $14) bad = 1 }
                 else bad = 1 }
               END { exit bad || files != 3 || all != 3 || late != 3 || unseen != (a ~ /native/ ? 3 : 0) }' rec-*.csv &&
      pass "nonblocking log ($nb): times assembled at a half window's post and at MPI_Comm_free, own where unseen" ||
      fail "nonblocking log ($nb): times assembled at a half window's post and at MPI_Comm_free, own where unseen"
  done
}

# Every root, the world and a split, MPI_Wait, MPI_Test loops and MPI_Waitall
# (test/mpi/nb_basic.c, plain MPI 3: SMPI runs it too, test/smpi/nonblocking.sh): HLOT's
# and LG's schedules under both MPIs. On the split each member is a cluster of its own:
# no LG there (rank 0's 6 all-to-alls of its half).
mpirun 4 GRIDCOLL_CLUSTERS=0,1-3 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_basic" 300
want="bcast,hlot=1 ialltoall,lg-nb=12 ialltoall,native-nb=6 ibcast,hlot-nb=18 "
no_failures && [ "$(warnings)" = 0 ] && [ "$(ops_in rec-0.csv)" = "$want" ] &&
  pass "nb_basic: every root, the world and a split, three completion calls" ||
  fail "nb_basic: every root, the world and a split, three completion calls"

# A start that fails on one rank reports its error there (test/mpi/nb_error.c): the last
# rank receives half the root's count, under MPI_ERRORS_RETURN; each completion call in
# turn on a persistent broadcast started again, then MPI_Ibcast. The library's own first
# (the test's expectations hold for it), then two trees whose short rank is a leaf.
if [ "$GC_LAUNCHER" != openmpi ]; then
  for run in "3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=native:native-persistent" \
    "3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=flat:flat-persistent" \
    "4 GRIDCOLL_CLUSTERS=0-1,2-3 GRIDCOLL_BCAST=hlot:hlot-persistent"; do
    rm -f rec-*.csv
    # shellcheck disable=SC2086 # ranks and setting
    mpirun ${run%:*} GRIDCOLL_NONBLOCKING=grid GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_error"
    no_failures && [ "$(grep -c '^nb_error: persistent [a-z_]* class [a-z_]*$' out)" = 6 ] &&
      ! grep -q '^nb_error: .* class success' out && [ "$(warnings)" = 0 ] &&
      [ "$(lines_of bcast_init "^${run#*:}\$")" -ge 2 ] &&
      pass "a failed persistent start's error in its request, every completion call: ${run#* }" ||
      fail "a failed persistent start's error in its request, every completion call: ${run#* }"
  done
fi

# --- every door into the two collectives ------------------------------------------------
# 3 ranks in two clusters (0 | 1-2) with LG and the flat tree forced: a call that reaches
# gridcoll's algorithms says so in the log (lg, flat), one that passes through does not.
# shellcheck disable=SC2054 # the commas are in the values
grid3=(GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALL=lg GRIDCOLL_ALLTOALLV=lg GRIDCOLL_BCAST=flat GRIDCOLL_SUMMARY=0)
# ops_in FILE: "op,algorithm=count ..." over the records of a log, sorted.

# MPI_Alltoall_c and MPI_Bcast_c run the grid algorithms (2 + 3 calls). The nonblocking
# and persistent calls (and their _c) gridcoll runs as schedules are logged once per
# call (per MPI_Start), timed (nb_log_ok), as their own rows of gridcoll-report. Their op
# is the call the application made (ibcast, alltoall_init ...).
# Open MPI 4.1 is MPI 3.1: of these only MPI_Ialltoall and MPI_Ibcast exist.
if [ "$GC_LAUNCHER" = openmpi ]; then
  # MPI_Ialltoall and MPI_Ibcast as LG's and the flat tree's schedules
  entry_calls="0 blocking, 2 nonblocking, 0 persistent" entry_grid=0 entry_nb=2
  entry_ops="ialltoall,lg-nb=1 ibcast,flat-nb=1 "
else
  # MPICH, GRIDCOLL_NONBLOCKING=grid: MPI_Ialltoall(_c) and MPI_Ibcast(_c) run LG and the
  # flat tree as schedules (lg-nb, flat-nb), MPI_Alltoall_init(_c) and MPI_Bcast_init(_c)
  # LG and the flat tree (lg-persistent, flat-persistent: two inits started twice each,
  # four lines each).
  entry_calls="5 blocking, 4 nonblocking, 4 persistent" entry_grid=5 entry_nb=12
  entry_ops="alltoall,lg=2 alltoall_init,lg-persistent=4 bcast,flat=3 bcast_init,flat-persistent=4 ialltoall,lg-nb=2 ibcast,flat-nb=2 "
fi
entry_log_ok() {
  local r
  for r in 0 1 2; do
    [ "$(ops_in "ep-$r.csv")" = "$entry_ops" ] || return 1
    awk -F, 'NR > 1 && (NF != 18 || ($6 ~ /^native-/ && ($12 == "" || $14 == "" || $15 != "")) || ($6 !~ /^native-/ && ($12 == "" || $14 == "" || $15 == ""))) { exit 1 }' "ep-$r.csv" || return 1
  done
  [ "$entry_grid" = 0 ] && [ "$entry_nb" = 0 ] && return 0 # nothing timed: gridcoll-report has no records to show
  nb_log_ok ep-*.csv && "$ROOT/scripts/gridcoll-report" ep-*.csv >rep.out 2>&1 &&
    [ "$(awk '$1 == "alltoall" && $2 == "lg" { n += $5 } $1 == "bcast" && $2 == "flat" { n += $5 } END { print n + 0 }' rep.out)" = "$entry_grid" ] &&
    [ "$(awk '$2 ~ /-nb$|-persistent$/ { n += $5 } END { print n + 0 }' rep.out)" = "$entry_nb" ] &&
    ! grep -q 'native-' rep.out
}
mpirun 3 "${grid3[@]}" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_LOG="$tmp/ep-%r.csv" -- "$T/entry_points"
no_failures && grep -q "^entry: 0 failed, $entry_calls" out && [ "$(warnings)" = 0 ] && entry_log_ok &&
  pass "entry points: _c through the grid algorithms, nonblocking and persistent logged (schedules timed)" ||
  fail "entry points: _c through the grid algorithms, nonblocking and persistent logged (schedules timed)"


# Progress in the MPI library's blocking calls (doc/design.md: Nonblocking collectives,
# the limit): rank 1 waits in MPI_Recv for rank 2, which waits on an MPI_Ibcast (then an
# MPI_Ialltoall) that needs rank 1's part. Legal; gridcoll's schedules would hang there,
# so with the trees and LG forced for the blocking calls the nonblocking ones stay the
# MPI library's own unless GRIDCOLL_NONBLOCKING=grid: the default runs it to the end.
rm -f rec-*.csv
mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_progress"
no_failures && grep -q '^nb_progress: 2 checks, 0 failed' out && [ "$(warnings)" = 0 ] &&
  [ "$(ops_in rec-0.csv)" = "ialltoall,native-nb=1 ibcast,native-nb=1 " ] &&
  pass "nonblocking native by default with the trees and LG forced: progress in MPI_Recv" ||
  fail "nonblocking native by default with the trees and LG forced: progress in MPI_Recv"
# Under Open MPI the schedules move inside its own progress engine too (shim/nbc_opal.c):
# the same program runs to the end under grid, its waits made by MPI_Wait, then by
# PMPI_Wait (a completion call gridcoll never sees, as a tool preloaded in front of it
# makes). Without the engine's callback both hang (LIMIT: a minute, not five).
if [ "$GC_LAUNCHER" = openmpi ]; then
  for w in mpi pmpi; do
    rm -f rec-*.csv
    LIMIT=60 mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_NONBLOCKING=grid GRIDCOLL_BCAST=hlot GRIDCOLL_ALLTOALL=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/nb_progress" $w
    no_failures && grep -q '^nb_progress: 2 checks, 0 failed' out && [ "$(warnings)" = 0 ] &&
      [ "$(ops_in rec-0.csv)" = "ialltoall,lg-nb=1 ibcast,hlot-nb=1 " ] &&
      pass "Open MPI: schedules advance inside MPI_Recv, waited by ${w^^}_Wait" ||
      fail "Open MPI: schedules advance inside MPI_Recv, waited by ${w^^}_Wait"
  done
fi
