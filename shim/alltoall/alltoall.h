/* MPI_Alltoall: the call as gridcoll sees it and the table of algorithms.
 *
 * Each algorithm is one file in this folder. `supports` decides from data identical on
 * every rank (the layout, the configuration, the call's counts and type sizes) whether
 * it can serve the call; when it cannot, dispatch falls back to the MPI library's own. */
#ifndef GC_ALLTOALL_H
#define GC_ALLTOALL_H

#include <mpi.h>
#include <stddef.h>
#include "comm_state.h"
#include "op.h"

/* MPI_Alltoall and MPI_Alltoall_c both arrive here: counts are MPI_Count. */
struct gc_alltoall_call {
  const void *sendbuf; /* may be MPI_IN_PLACE */
  MPI_Count sendcount;
  MPI_Datatype sendtype;
  void *recvbuf;
  MPI_Count recvcount;
  MPI_Datatype recvtype;
  MPI_Comm comm;
  size_t block_bytes; /* m: bytes of one block (recvcount * size of recvtype) */
  int large;          /* the application called MPI_Alltoall_c: so does the native run */
};

/* The operation: its table (alltoall.c), handed to the dispatch by the wrappers. */
extern const struct gc_op gc_alltoall_op;

/* The rows' MPI side; `call` is a struct gc_alltoall_call (op.h: struct gc_algorithm). */
int gc_alltoall_native_supports(const void *call, const struct gc_comm_state *st);
int gc_alltoall_native_run(const void *call, struct gc_comm_state *st,
                           const struct gc_plan *plan);
int gc_alltoall_lg_supports(const void *call, const struct gc_comm_state *st);
/* 1 when LG can run on this communicator's layout, whatever the block (lg.c): the test
 * of every part that builds LG's schedule (its row, the state's parts, the schedules). */
int gc_alltoall_lg_serves(const struct gc_comm_state *st);
/* LG may run nonblocking calls as schedules: `lg` forced, or `auto` (whose models may pick
 * it, call by call), the same on every rank (lg_nb_reserve.c). */
int gc_alltoall_lg_nb_wanted(void);
/* MPI_Ialltoall (persistent 0) and MPI_Alltoall_init (1) by LG (lg_nb.c): 1 when
 * gridcoll took the call (*request is its, *rc the call's result), 0 when the MPI
 * library's own call is to be made. */
int gc_alltoall_lg_issue(struct gc_alltoall_call *call, MPI_Request *request, int *rc,
                         int persistent);
/* LG's part of a communicator's nonblocking reservation (lg_nb_reserve.c; the op's
 * nbc_reserve, op.h). */
int gc_alltoall_lg_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks);
/* LG's schedule of this rank for the communicator's nonblocking calls (st->nbc_lg),
 * built once, by whichever collective's reservation asks first (LG's placement is also
 * LG-v's, lgv_nb.c): 0, or -1 out of memory. Only where gc_alltoall_lg_serves(st). */
int gc_alltoall_lg_nb_schedule(struct gc_comm_state *st);
int gc_alltoall_lg_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan);
/* LG's context (its schedule) made with the communicator's state, so that it is agreed
 * there, where LG may run a blocking call (lg.c); 0, or -1 out of memory (op.h: make). */
int gc_alltoall_lg_state_make(struct gc_comm_state *st);
/* The relayed all-to-all's routes made with the state, where relay may run (relay.c). */
int gc_alltoall_relay_state_make(struct gc_comm_state *st);
int gc_alltoall_relay_supports(const void *call, const struct gc_comm_state *st);
int gc_alltoall_relay_run(const void *call, struct gc_comm_state *st,
                          const struct gc_plan *plan);

/* 1 when gridcoll may act on the call: nothing MPI would reject that gridcoll can see
 * (no communicator, a negative count, no datatype, a NULL buffer to fill, aliased buffers),
 * and predefined or committed datatypes whose size the library gives (datatype.h);
 * block_bytes and *out are then set. 0: pass the call through untouched, so any error is
 * exactly the MPI library's. The op's prepare (op.h). */
int gc_alltoall_call_prepare(void *call, const struct gc_comm_state *st, struct gc_call *out);

#endif
