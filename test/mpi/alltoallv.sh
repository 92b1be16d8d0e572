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
# once each when issued, untimed (Open MPI 4.1, MPI 3.1, has MPI_Ialltoallv only).
nb_ops="alltoallv,native-nb=2 alltoallv,native-persistent=2 "
[ "$GC_LAUNCHER" = openmpi ] && nb_ops="alltoallv,native-nb=1 "
rm -f rec-*.csv
mpirun 3 GRIDCOLL_CLUSTERS=0,1-2 GRIDCOLL_ALLTOALLV=lg GRIDCOLL_LOG="$tmp/rec-%r.csv" GRIDCOLL_SUMMARY=0 -- "$T/alltoallv" nb
no_failures && [ "$(warnings)" = 0 ] && [ "$(ops_in rec-0.csv)" = "$nb_ops" ] && [ "$(ops_in rec-2.csv)" = "$nb_ops" ] &&
  pass "alltoallv: nonblocking and persistent calls native, logged untimed" ||
  fail "alltoallv: nonblocking and persistent calls native, logged untimed"
