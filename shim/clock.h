/* One clock for every rank: how a rank reads it (gc_clock_now), and its offset to world
 * rank 0's, estimated once at MPI_Init. What makes a collective's completion time (first
 * entry to last exit) mean something across ranks: the log's actual time (log.c), the
 * measured calls of a learning `auto` (span.c) and the probe's round trips read it. */
#ifndef GC_CLOCK_H
#define GC_CLOCK_H

#include <mpi.h>

#include "config.h"
#include "timebase.h"

/* This rank's clock, in seconds: every time the library takes reads it. CLOCK_MONOTONIC
 * read through the processor's counter where that is safe (timebase.h), else read
 * directly, or MPI_Wtime where clock.c chose it. Under SimGrid SMPI (whose mpi.h defines
 * SMPI_H) time is simulated and only MPI_Wtime knows it: always that. */
static inline double gc_clock_now(void)
{
#ifdef SMPI_H
  return PMPI_Wtime();
#else
  return gc_timebase_now();
#endif
}

/* At MPI_Init, before the first read: the clock the configuration asks for
 * (GRIDCOLL_CLOCK; config.h), its calibration started (timebase.h: a millisecond later
 * the counter is read, while the program starts). */
void gc_clock_use(enum gc_clock_source source);

/* Collective over MPI_COMM_WORLD, at MPI_Init, on every rank or none (and only the first
 * time counts): estimates this rank's clock offset to world rank 0 by ping-pong rounds
 * (SKaMPI, ReproMPI), unless MPI says its clock is global (then that clock is read). */
void gc_clock_sync(void);

/* This rank's clock minus world rank 0's: gc_clock_now() - gc_clock_offset() is a time in
 * one clock shared by every rank (0 until gc_clock_sync ran). */
double gc_clock_offset(void);

#endif
