# shellcheck shell=bash disable=SC2154 # sourced: tmp, rc and the helpers are test/mpi/run.sh's
# MPI_Alltoallv cases of test/mpi/run.sh (sourced: its helpers, $T, topologies and
# used_as). test/mpi/alltoallv.c compares against PMPI_Alltoallv byte for byte;
# test/mpi/fft_transpose.c is an application-style client checked against a serial
# transpose.
# --- MPI_Alltoallv -----------------------------------------------------------------------
# Forced lg on every topology: the whole test (count patterns, displacements, types, in
# place, _c, four communicators) where LG-v applies, byte for byte against PMPI, and the
# log shows lg ran; elsewhere the quick test and the log shows it never did. Forced native,
# quick. Then `auto` on the FFT-style client: nothing is learnt before a communicator's
# first call, and on empty blocks the library's posted-at-once exchange (linear-grid-v) is
# faster than LG-v (lgv-backbone: the same wide-area latency, its local phase on top), so
# auto never runs lg there, and every rank logs the same algorithm for every call (the
# choice reads only what every rank holds).
same_choices() { awk -F, 'FNR > 1 { k = $2 "," $4; if (k in a && a[k] != $6) bad = 1; a[k] = $6 } END { exit bad }' rec-[0-9].csv; }
for entry in "${topologies[@]}"; do
  IFS='|' read -r n topo lg_applies _ <<<"$entry"
  for a in ${ALLTOALLV_ALGORITHMS:-native lg}; do
    mode=quick
    [ "$a" = lg ] && [ "$lg_applies" = 1 ] && mode=
    rm -f rec-*.csv
    mpirun "$n" "$topo" GRIDCOLL_ALLTOALLV="$a" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoallv" $mode
    no_failures && [ "$(warnings)" = 0 ] && used_as "$a" "$lg_applies" &&
      pass "alltoallv $a, $n ranks, $topo" || fail "alltoallv $a, $n ranks, $topo"
  done
  # The models keep the library's exchange (posted at once, never above LG-v's model):
  # auto trusting them (GRIDCOLL_LEARN=0) never runs lg. Learning would measure LG-v
  # where its model is within reach, on timings of one machine: not asserted here.
  rm -f rec-*.csv
  mpirun "$n" "$topo" GRIDCOLL_LEARN=0 GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/fft_transpose"
  no_failures && [ "$(warnings)" = 0 ] && used_as lg 0 && same_choices &&
    pass "alltoallv auto: FFT transpose client, $n ranks, $topo" ||
    fail "alltoallv auto: FFT transpose client, $n ranks, $topo"
done


# The nonblocking and persistent calls run natively, equal PMPI_Alltoallv, and are logged
# once per call and per MPI_Start (two inits started twice), timed to the completion the
# application saw (in sync mode assembled over the ranks where all saw it complete by the
# next point: a spread then), own_s empty (issued.h; Open MPI 4.1, MPI 3.1, has
# MPI_Ialltoallv only).
nb_ops="alltoallv_init,native-persistent=4 ialltoallv,native-nb=2 "
[ "$GC_LAUNCHER" = openmpi ] && nb_ops="ialltoallv,native-nb=1 "
rm -f rec-*.csv
mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoallv" nb
no_failures && [ "$(warnings)" = 0 ] && [ "$(ops_in rec-0.csv)" = "$nb_ops" ] && [ "$(ops_in rec-2.csv)" = "$nb_ops" ] &&
  awk -F, 'FNR > 1 && ($12 !~ /^[0-9]+[.][0-9]+$/ || $15 != "" || ($16 == "" ? $14 != $12 : $16 !~ /^[0-9]+[.][0-9]+$/)) { bad = 1 } END { exit bad }' rec-*.csv &&
  pass "alltoallv: nonblocking and persistent calls native, logged with their time" ||
  fail "alltoallv: nonblocking and persistent calls native, logged with their time"

# MPI_Alltoallv_init by LG-v (GRIDCOLL_NONBLOCKING=grid; MPI 4: MPICH,
# shim/alltoallv/lgv_persistent.c): the whole test as persistent calls, each
# started twice on new data, byte for byte against PMPI_Alltoallv (types freed after the
# init, in place, _c, four communicators), where LG-v applies. Each rank's log: on the
# world (the communicator of its one blocking call), every start lg-persistent but the one
# call whose counts one rank cannot carry (beyond an int), which every rank runs as the
# library's own (native-persistent, its one start); on each other communicator all
# lg-persistent, or all native-persistent where LG-v does not apply to it (a split).
persistent_logs() { # ranks
  local r
  for ((r = 0; r < $1; r++)); do
    awk -F, 'FNR > 1 { if ($5 == "alltoallv") w = $2; n[$2 "," $6]++; c[$2] = 1 }
      END { if (n[w ",native-persistent"] != 1 || n[w ",lg-persistent"] == 0 || n[w ",lg-persistent"] % 2) exit 1
            for (x in c) if (x != w && n[x ",lg-persistent"] && n[x ",native-persistent"]) exit 1 }' "rec-$r.csv" || return 1
  done
}
if [ "$GC_LAUNCHER" != openmpi ]; then
  for entry in "${topologies[@]}"; do
    IFS='|' read -r n topo lg_applies _ <<<"$entry"
    [ "$lg_applies" = 1 ] || continue
    rm -f rec-*.csv
    mpirun "$n" "$topo" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoallv" persistent
    no_failures && grep -q '^alltoallv: [1-9][0-9]* checks' out && [ "$(warnings)" = 0 ] && persistent_logs "$n" &&
      pass "alltoallv_init lg (persistent schedule), $n ranks, $topo" ||
      fail "alltoallv_init lg (persistent schedule), $n ranks, $topo"
  done
fi

# MPI_Ialltoallv by LG-v (GRIDCOLL_NONBLOCKING=grid, shim/alltoallv/lgv_nb.c): the whole
# test as nonblocking calls (types freed after the post, each completed in one
# MPI_Waitall with the application's own message), byte for byte against PMPI_Alltoallv,
# and one block beyond what a schedule's slot holds (every rank falls back to the direct
# exchange, learnt from the schedule's own messages). Each rank's log: lg-nb where LG-v
# delivered, direct-nb where the direct exchange did (that block's call at least: every
# rank must have learnt the same verdict), native-nb for the library's own (in place, a
# split where LG-v does not apply), and every rank the same algorithm for every call.
for entry in "${topologies[@]}"; do
  IFS='|' read -r n topo lg_applies _ <<<"$entry"
  [ "$lg_applies" = 1 ] || continue
  rm -f rec-*.csv
  mpirun "$n" "$topo" GRIDCOLL_NONBLOCKING=grid GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoallv" nonblocking
  no_failures && grep -q '^alltoallv: [1-9][0-9]* checks' out && [ "$(warnings)" = 0 ] && same_choices &&
    awk -F, 'FNR > 1 && $5 == "ialltoallv" { n[$6]++; if ($6 !~ /^(lg|direct|native)-nb$/) bad = 1 }
      END { exit bad || !n["lg-nb"] || !n["direct-nb"] }' rec-[0-9].csv &&
    pass "ialltoallv lg (nonblocking schedule), $n ranks, $topo" ||
    fail "ialltoallv lg (nonblocking schedule), $n ranks, $topo"
done

# Each record true to its own call (test/mpi/avrecord.c: counts, so totals, differ call
# to call; calls 0, 3 and 6 are alike). bytes: what the rank sent in that call, as the
# program wrote it. predicted_s: forced native has no basis (nothing learnt: only LG-v
# spreads the totals), so none and no model; forced lg, the model on the call's own
# totals, which its run spreads: the same on every rank, alike for the calls alike,
# different otherwise (on the previous call's totals, calls 0, 3 and 6 would differ);
# auto, either of those or a prediction on an earlier call's totals named "@learnt".
own_bytes() { # ranks: each rank's alltoallv bytes, in call order, as it sent them
  local r
  for ((r = 0; r < $1; r++)); do
    [ -s "exp-$r.txt" ] && [ "$(awk -F, 'FNR > 1 && $5 == "alltoallv" { print $8 }' "rec-$r.csv")" = "$(cat "exp-$r.txt")" ] || return 1
  done
}
own_predictions() { # algorithm
  case $1 in
    native) awk -F, 'FNR > 1 && ($10 != "" || $11 != "") { exit 1 }' rec-[0-9].csv ;;
    lg) awk -F, 'FNR > 1 && ($6 != "lg" || $10 != "lgv-backbone" || $11 == "") { bad = 1 }
                 FNR > 1 { k = $4; if (k in p && p[k] != $11) bad = 1; p[k] = $11 }
                 END { exit bad || p[0] != p[3] || p[0] != p[6] || p[0] == p[1] || p[1] == p[2] || p[1] == p[4] }' rec-[0-9].csv ;;
    auto) awk -F, 'FNR > 1 && $11 == "" && $10 != "" { bad = 1 }
                   FNR > 1 && $11 != "" && !($6 == "lg" && $10 == "lgv-backbone") && $10 !~ /@learnt$/ { bad = 1 }
                   FNR > 1 && $6 == "lg" && $10 != "lgv-backbone" { bad = 1 }
                   END { exit bad }' rec-[0-9].csv ;;
  esac
}
# gridcoll-report sums a call's ranks' bytes (its total: --calls) and rows them by
# power-of-two bucket of it: every call, under the buckets of the totals the program wrote.
report_totals() {
  local totals want got
  totals=$(paste exp-[0-9].txt | awk '{ t = 0; for (i = 1; i <= NF; i++) t += $i; print t }')
  want=$(awk '{ b = 1; while (b * 2 <= $1) b *= 2; print "[" b "," 2 * b ")" }' <<<"$totals" | sort -u | tr '\n' ' ')
  "$ROOT/scripts/gridcoll-report" --op alltoallv --calls calls.csv rec-[0-9].csv >rep.out 2>rep.err || return 1
  got=$(awk '$1 == "alltoallv" { print $4 }' rep.out | sort -u | tr '\n' ' ')
  [ "$(tail -n +2 calls.csv | cut -d, -f7)" = "$totals" ] && [ "$got" = "$want" ] &&
    [ "$(awk '$1 == "alltoallv" { n += $5 } END { print n }' rep.out)" = 9 ]
}
for entry in "4|GRIDCOLL_CLUSTERS=0-1,2-3" "3|GRIDCOLL_CLUSTERS=0,1-2"; do
  IFS='|' read -r n topo <<<"$entry"
  for a in native lg auto; do
    rm -f rec-*.csv exp-*.txt
    mpirun "$n" "$topo" GRIDCOLL_ALLTOALLV="$a" GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/avrecord" "$tmp/exp-%r.txt"
    no_failures && [ "$(warnings)" = 0 ] && own_bytes "$n" && own_predictions "$a" && same_choices &&
      report_totals &&
      pass "alltoallv $a: each record its own call's bytes and prediction, $n ranks, $topo" ||
      fail "alltoallv $a: each record its own call's bytes and prediction, $n ranks, $topo"
  done
done
