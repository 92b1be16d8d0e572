/* MPI_Bcast: the call as gridcoll sees it and the table of algorithms.
 * Same contract as alltoall.h: `supports` uses only data identical on every rank. */
#ifndef GC_BCAST_H
#define GC_BCAST_H

#include <mpi.h>
#include <stddef.h>
#include "comm_state.h"
#include "op.h"
#include "tree_stage.h"
#include "tree_cache.h"

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

/* What the broadcast keeps per communicator (state.c), in st->op[GC_OP_BCAST].data: made
 * once with the communicator's state and agreed with it (op.h: make), so that no call
 * allocates: an allocation that failed on one rank only would send that rank another way
 * than the others. */
struct gc_bcast_state {
  struct gc_tree_cache cache;    /* every entry with room for a tree over the k clusters */
  unsigned long long version;    /* st->version the cache was built under */
  MPI_Request *reqs;             /* [k - 1]: the sends of a leader with more children than
                                    tree_exec.c's stack holds; NULL when k - 1 fits it */
  struct gc_bcast_stage_cache stage; /* the segmented broadcast's staging buffer, grown
                                        when every rank agreed (tree_stage.h) */
};

/* Makes st's broadcast state where a tree can serve (two clusters or more; elsewhere
 * nothing, and 0): the tree cache's storage, 32 trees of gc_tree_ints(k) ints, and k - 1
 * requests when k - 1 > GC_BCAST_SEND_REQS. 0, or -1 when out of memory (nothing made).
 * Called when the communicator's state is built, before any call is served. */
int gc_bcast_state_make(struct gc_comm_state *st);
/* st's broadcast state; NULL when none was made (one cluster, or out of memory). */
struct gc_bcast_state *gc_bcast_state(struct gc_comm_state *st);

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

/* Row `algorithm`'s tree for the call, from the communicator's tree cache (built there
 * on a miss); NULL when it cannot be had (the same on every rank: out of the scratch
 * the bound makes enough). */
const struct gc_tree *gc_bcast_tree_of(const struct gc_bcast_call *call, struct gc_comm_state *st,
                                       int algorithm);
/* MPI_Ibcast (MPI_Bcast_init: persistent) by a tree (tree_nb.c): 1 when gridcoll took
 * the call (*request is its, *rc the call's result), 0 when the MPI library's own call
 * is to be made. */
int gc_bcast_tree_issue(struct gc_bcast_call *call, MPI_Request *request, int *rc,
                        int persistent);
/* The trees' part of the communicator's nonblocking reservation (tree_nb_reserve.c; the
 * op's nbc_reserve, op.h). */
int gc_bcast_tree_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks);

/* 1 when gridcoll may act on the call: nothing MPI would reject that gridcoll can see
 * (no communicator, a negative count, no datatype, a NULL buffer to fill, a root out of
 * st's range),
 * and predefined or committed datatypes whose size the library gives (datatype.h);
 * bytes, segment_bytes and *out are then set. 0: pass the call through untouched, so any
 * error is exactly the MPI library's. The op's prepare (op.h). */
int gc_bcast_call_prepare(void *call, const struct gc_comm_state *st, struct gc_call *out);

#endif
