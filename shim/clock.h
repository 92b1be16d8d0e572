/* One clock for every rank: the offset of this rank's PMPI_Wtime to world rank 0's,
 * estimated once at MPI_Init. What makes a collective's completion time (first entry to
 * last exit) mean something across ranks: the log's actual time (log.c) and the measured
 * calls of a learning `auto` (span.c) read it. */
#ifndef GC_CLOCK_H
#define GC_CLOCK_H

/* Collective over MPI_COMM_WORLD, at MPI_Init, on every rank or none (and only the first
 * time counts): estimates this rank's clock offset to world rank 0 by ping-pong rounds
 * (SKaMPI, ReproMPI), unless MPI says its clock is global. */
void gc_clock_sync(void);

/* This rank's clock minus world rank 0's: PMPI_Wtime() - gc_clock_offset() is a time in
 * one clock shared by every rank (0 until gc_clock_sync ran). */
double gc_clock_offset(void);

#endif
