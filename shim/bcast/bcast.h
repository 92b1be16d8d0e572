/* MPI_Bcast: the call as gridcoll sees it and the table of algorithms.
 * Same contract as alltoall.h: `supports` uses only data identical on every rank. */
#ifndef GC_BCAST_H
#define GC_BCAST_H

#include <mpi.h>
#include <stddef.h>
#include "comm_state.h"
#include "op.h"

/* MPI_Bcast and MPI_Bcast_c both arrive here: the count is an MPI_Count. */
struct gc_bcast_call {
  void *buffer;
  MPI_Count count;
  MPI_Datatype datatype;
  int root;
  MPI_Comm comm;
  size_t bytes; /* m: count * size of datatype */
  int large;    /* the application called MPI_Bcast_c: so does the native run */
  size_t segment_bytes; /* bcast.segment (gc_g.cfg), for the trees: set by prepare */
};

/* The operation: its table (bcast.c), handed to the dispatch by the wrappers. */
extern const struct gc_op gc_bcast_op;

/* The rows' MPI side; `call` is a struct gc_bcast_call (op.h: struct gc_algorithm). */
int gc_bcast_native_supports(const void *call, const struct gc_comm_state *st);
int gc_bcast_native_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan);

/* Every tree algorithm (tree_algorithms.c): supports when the communicator spans two
 * clusters or more (the call is valid: prepare checked its root); predict takes the row's tree from the communicator's tree cache
 * (built there on a miss) and leaves it in the plan; run runs the plan's tree (or takes
 * it from the cache when nothing was predicted). */
int gc_bcast_tree_supports(const void *call, const struct gc_comm_state *st);
double gc_bcast_tree_plan(const void *call, struct gc_comm_state *st, struct gc_plan *plan);
int gc_bcast_tree_run_plan(const void *call, struct gc_comm_state *st,
                           const struct gc_plan *plan);

/* 1 when gridcoll may act on the call: nothing MPI would reject that gridcoll can see
 * (no communicator, a negative count, no datatype, a NULL buffer to fill, a root out of
 * st's range),
 * and predefined or committed datatypes whose size the library gives (datatype.h);
 * bytes, segment_bytes and *out are then set. 0: pass the call through untouched, so any
 * error is exactly the MPI library's. The op's prepare (op.h). */
int gc_bcast_call_prepare(void *call, const struct gc_comm_state *st, struct gc_call *out);

#endif
