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

/* The start of a timed call: the instant the call's time counts from. */
#include "../../tools/start_together.h"

static long arg(int argc, char **argv, int i, long dflt)
{
  return argc > i ? atol(argv[i]) : dflt;
}

#endif
