/* What the timing programs (alltoall_bench.c, bcast_bench.c) share: buffers that fit at
 * scale under SMPI, the instant a timed call starts, and their numeric arguments.
 * Under SMPI, where MPI_Wtime is the simulated clock every rank shares, all ranks start a
 * call at the same simulated instant (they sleep, in simulated time, until an agreed
 * moment): a barrier alone lets ranks leave it a wide-area latency apart, which would count
 * in every algorithm's time. Under a real MPI a call starts after a barrier. */
#ifndef GC_BENCH_H
#define GC_BENCH_H

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#ifdef SMPI_SHARED_MALLOC
#define BENCH_ALLOC(n) SMPI_SHARED_MALLOC(n)
#define BENCH_FREE(p) SMPI_SHARED_FREE(p)
#else
#define BENCH_ALLOC(n) malloc(n)
#define BENCH_FREE(p) free(p)
#endif

/* The start of a timed call; returns the instant the call's time counts from. */
static double start_together(void)
{
  MPI_Barrier(MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
  double now = MPI_Wtime(), latest = 0;
  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double at = latest + 10.0; /* simulated seconds: later than any rank leaves the allreduce */
  double wait = at - MPI_Wtime();
  if (wait > 0) { /* smpicc turns nanosleep into a sleep in simulated time */
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
  }
  return at;
#else
  return MPI_Wtime();
#endif
}

static long arg(int argc, char **argv, int i, long dflt)
{
  return argc > i ? atol(argv[i]) : dflt;
}

#endif
