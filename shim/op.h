/* A collective as the dispatch sees it: an operation descriptor and its algorithm table.
 *
 * The shared layer (dispatch, log, summary, communicator state, probe) knows operations
 * only through these types: a collective fills a struct gc_op with its table, and
 * nothing in the shared files (shim/, not its op folders) calls a function of shim/<op>/. The shape is UCC's
 * ucc_tl_ucp_alltoall_algs[]: rows in designated initializers, index 0 the MPI library's
 * own algorithm, the one every call can fall back to. */
#ifndef GC_OP_H
#define GC_OP_H

#include <mpi.h>
#include <stddef.h>

#include "algorithm.h"
#include "op_info.h" /* enum gc_op_id, GC_MAX_ALGORITHMS: pure, shared with config/ */

struct gc_comm_state;
struct gc_record;

/* What dispatch reads of any call, filled by the op's prepare(). */
struct gc_call {
  MPI_Comm comm;
  size_t bytes; /* m: the all-to-all's block, the broadcast's message; what the choice
                   keys on, identical on every rank (MPI_Alltoallv's: the learnt total) */
  int root;     /* -1 when the operation has none */
  /* The log's bytes column: this rank's view of this call, never read by a choice.
   * bytes where every rank knows the call's size; MPI_Alltoallv's: the bytes this rank
   * sends (its send buffer's counts times its type's size), which differ per rank. */
  size_t logged_bytes;
};

/* What a call's choice and run read of its arguments besides the communicator: the counts
 * and datatypes (their sizes give the bytes) and the root; an all-to-all keeps
 * whether it is in place in `root`. Two calls of one op on one communicator with equal
 * keys, under the same network view and with no watched datatype freed in between
 * (datatype.h), are prepared, decided and run alike: what the dispatch's fast path
 * (call.h: the memo) relies on. Unused slots hold 0 and MPI_DATATYPE_NULL. */
struct gc_call_key {
  MPI_Count count[2];
  MPI_Datatype type[2];
  int root;
};

static inline int gc_call_key_equal(const struct gc_call_key *a, const struct gc_call_key *b)
{
  return a->count[0] == b->count[0] && a->count[1] == b->count[1] && a->type[0] == b->type[0] &&
         a->type[1] == b->type[1] && a->root == b->root;
}

/* One algorithm's plan for one call: its prediction, and what the prediction already
 * computed that the run needs (the broadcast's tree), so nothing is looked up twice. */
struct gc_plan {
  int algorithm;     /* index in the op's table */
  double predicted;  /* seconds; < 0: none */
  const char *model; /* model/names.c name of the formula, NULL when none */
  const void *data;  /* the algorithm's own (a tree cache entry); NULL: run finds it */
};

/* A table row. `call` is the op's own call struct (struct gc_bcast_call ...). */
struct gc_algorithm {
  const struct gc_algorithm_about *about; /* the pure row's name and description */
  /* 1: serves only communicators spanning two clusters or more (supports says 0
   * elsewhere), so a one-cluster communicator never needs to ask it. */
  int wide;
  /* 1 when it can serve the call, from data identical on every rank: the layout and the
   * call's bytes and root only (what the decision cache keys on, comm_state.h). */
  int (*supports)(const void *call, const struct gc_comm_state *st);
  /* Seconds (< 0: no model); sets plan->model and may set plan->data. */
  double (*predict)(const void *call, struct gc_comm_state *st, struct gc_plan *plan);
  /* MPI_SUCCESS, an MPI error code, or GC_FALLBACK (gridcoll.h) before any traffic.
   * plan may be NULL (the native row run as fallback). */
  int (*run)(const void *call, struct gc_comm_state *st, const struct gc_plan *plan);
};

struct gc_op {
  enum gc_op_id id;
  const char *name;                      /* the log's op column */
  const struct gc_algorithm *algorithms; /* [0]: the MPI library's own */
  int nalgorithms;
  const char *wanted; /* the configured choice (gc_g.cfg's, fixed at MPI_Init), or "auto" */
  /* 1 when gridcoll may act on the call on st's communicator and fills *out (and the
   * call's derived fields: its bytes); 0: pass it through untouched, so any error is
   * exactly the MPI library's. The one place a call is validated: nothing MPI would
   * reject that gridcoll can see (a root out of range included), datatypes whose size it
   * can know. No side effect: it reads st, never writes it. */
  int (*prepare)(void *call, const struct gc_comm_state *st, struct gc_call *out);
  /* The call's key (gc_call_key); NULL for an op whose calls are more than a key (the
   * counts arrays of MPI_Alltoallv): its calls never take the memo's path (call.h). */
  void (*key)(const void *call, struct gc_call_key *out);
  /* What the op keeps per communicator besides its table's own (a part of the state,
   * comm_state.h: made with it, agreed with it, freed through the slot's free_data): 0,
   * or -1 when out of memory. NULL: nothing. */
  int (*make)(struct gc_comm_state *st);
  /* The call's mark on the op's history, once per blocking call gridcoll served (ran:
   * what ran): MPI_Alltoallv's learnt matrix ages with every call. NULL: no history. An
   * op with a history has no key: its choice reads more than the call. */
  void (*settle)(const void *call, struct gc_comm_state *st, int ran);
  /* A logged call's record made true to the call after its run (ran: what ran), outside
   * its timed region and before settle: MPI_Alltoallv's prediction was made on the learnt
   * matrix, which LG-v's run replaces with the call's own. It changes only the record's
   * predicted and model (rec), never anything a choice reads. NULL: the record stands. */
  void (*describe)(const void *call, struct gc_comm_state *st, int ran, struct gc_record *rec);
  /* What the op's nonblocking schedules want of the communicator's reservation (made
   * once, nbc_reserve.c): the bytes its largest call of this rank carves (*bytes, 0:
   * none), and where it carves LG's buffers, my LG blocks (*blocks: the agreed block
   * bound divides GC_NBC_LG_BYTES by their most; untouched otherwise). 0, or -1 when out
   * of memory. NULL: its nonblocking calls are the MPI library's own. */
  int (*nbc_reserve)(struct gc_comm_state *st, size_t *bytes, int *blocks);
};

#endif
