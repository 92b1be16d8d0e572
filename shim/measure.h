/* The measured calls of a learning `auto` (learn.h keeps the books; dispatch.c decides
 * which calls are measured).
 *
 * A measured call reads the clock at entry and exit and nothing else: no message on the
 * timed path. Right after it, one nonblocking MPI_MAX allreduce of (exit, -entry), both
 * in world rank 0's clock (clock.h), is posted on the private duplicate;
 * it is completed at the start of the next call of the same operation on the same
 * communicator (long finished by then), when the communicator is freed, or at
 * MPI_Finalize. Every rank then records the same completion time, from the first entry
 * (a broadcast: the root's) to the last exit. */
#ifndef GC_MEASURE_H
#define GC_MEASURE_H

#include <mpi.h>

#include "learn.h"

/* One operation's measurement in flight on one communicator (comm_state.h). */
struct gc_measure {
  int pending;              /* an allreduce is posted and not yet completed */
  MPI_Request req;
  double span[2];           /* exit, -entry */
  struct gc_learn *entry;   /* what it teaches */
  int algorithm;
  struct gc_measure *next, *prev; /* every pending one, for MPI_Finalize */
};

/* Posts the measurement of a call that ran `algorithm` for e, entered at t0 and left at
 * t1 (PMPI_Wtime, this rank's clock), on the communicator's private duplicate `priv`
 * (gc_comm_private), where this process is `rank`; root < 0 for an operation without one.
 * On every member, after the same call. */
void gc_measure_post(MPI_Comm priv, int rank, struct gc_measure *m, struct gc_learn *e,
                     int algorithm, int root, double t0, double t1);

/* Completes m's allreduce, if any, and records it in its entry. On every member, at the
 * same point: the next call of the operation, the communicator's free. */
void gc_measure_settle(struct gc_measure *m);

/* Collective at MPI_Finalize, before the states are freed: every measurement still
 * pending (communicators the application did not free) completed. */
void gc_measure_finalize(void);

#endif
