# The per-call log (sourced by test/mpi/run.sh; ONLY=log runs these alone).
# One record per call and rank, a header, the same communicator id for the same call on
# every rank; in sync mode every rank holds the same actual_s, the collective's completion
# time, at least each rank's own elapsed_s.
check_log() { # mode
  local mode=$1 calls
  mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_LOG="$tmp/log-$mode-%r.csv" GRIDCOLL_LOG_MODE="$mode" -- "$T/alltoall" quick
  calls=$(sed -n 's/.* \([0-9]*\) calls per rank/\1/p' out)
  no_failures || return 1
  for r in 0 1 2; do
    [ "$(head -1 "log-$mode-$r.csv")" = "rank,comm,comm_size,call,op,algorithm,root,bytes,clusters,model,predicted_s,actual_s,candidates,elapsed_s" ] || return 1
    [ "$(tail -n +2 "log-$mode-$r.csv" | wc -l)" = "$calls" ] || return 1
    awk -F, -v r=$r 'NR > 1 && ($1 != r || NF != 14 || $3 != 3 || $5 != "alltoall" || $9 != 2 || $12 < 0 || $14 < 0) { exit 1 }' "log-$mode-$r.csv" || return 1
  done
  # Same communicator id and call index on every rank, line by line.
  paste -d' ' <(cut -d, -f2,4 "log-$mode-0.csv") <(cut -d, -f2,4 "log-$mode-1.csv") <(cut -d, -f2,4 "log-$mode-2.csv") |
    awk 'NR > 1 && ($1 != $2 || $2 != $3) { exit 1 }' || return 1
  if [ "$mode" = sync ]; then
    paste -d, "log-$mode-0.csv" "log-$mode-1.csv" "log-$mode-2.csv" |
      awk -F, 'NR > 1 && ($12 != $26 || $12 != $40 || $12 < $14 - 1e-6 || $12 < $28 - 1e-6 || $12 < $42 - 1e-6) { exit 1 }' || return 1
  else # local: the rank's own time
    awk -F, 'NR > 1 && $12 != $14 { exit 1 }' "log-$mode-0.csv" || return 1
  fi
}
check_log sync && pass "log: one record per call and rank (sync)" || fail "log: one record per call and rank (sync)"
check_log local && pass "log: one record per call and rank (local)" || fail "log: one record per call and rank (local)"

# Ranks entering at different times (test/mpi/skew.c, 300 ms sleeps): the logged time is
# the collective's, from the first entry (a broadcast: the root's) to the last exit, the
# same in every rank's log. Neither a barrier before the call (it hides the late rank) nor
# a rank's own time (the root of call 2 leaves at once) passes; nor a first-entry start
# for a broadcast (call 3 would count the wait for the root).
mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_LOG="$tmp/skew-%r.csv" GRIDCOLL_LOG_MODE=sync -- "$T/skew" 300
no_failures && [ "$(warnings)" = 0 ] &&
  paste -d, skew-0.csv skew-1.csv skew-2.csv |
  awk -F, 'NR == 1 { next }
           $12 != $26 || $12 != $40 { bad = 1 }
           $4 == 2 && !($5 == "bcast" && $12 >= 0.25 && $14 < $12) { bad = 1 }
           $4 == 3 && !($5 == "bcast" && $12 < $14 && $12 < $42) { bad = 1 }
           $4 == 4 && !($5 == "alltoall" && $12 >= 0.25) { bad = 1 }
           { n++ } END { exit bad || n != 5 }' &&
  pass "log: completion time across late ranks, no barrier skew (sync)" ||
  fail "log: completion time across late ranks, no barrier skew (sync)"
