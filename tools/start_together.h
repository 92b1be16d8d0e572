/* The instant every rank starts a timed call at, shared by gridcoll-calibrate's timing of
 * the library's own collectives (tools/calibrate/native.c) and the timing programs
 * (test/bench/bench.h). Under SMPI, where MPI_Wtime is the simulated clock every rank
 * shares and smpicc makes nanosleep a sleep in simulated time, the ranks agree on an
 * instant later than any of them leaves the allreduce and sleep until it: then the time
 * from it to the last exit is the collective's own time, for the all-to-all and the
 * broadcast alike. A barrier alone lets ranks leave it a wide-area latency apart, which
 * would count in every algorithm's time (a broadcast's own time starts at its root's
 * entry, doc/design.md). Under a real MPI a call starts after a barrier. */
#ifndef GC_START_TOGETHER_H
#define GC_START_TOGETHER_H

#include <mpi.h>
#include <time.h>

static inline double start_together(void)
{
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
  double now = MPI_Wtime(), latest = 0;
  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double at = latest + 10.0; /* simulated seconds: later than any rank leaves the allreduce */
  double wait = at - MPI_Wtime();
  if (wait > 0) {
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
  }
  return at;
#else
  return MPI_Wtime();
#endif
}

#endif
