/* MPI_Alltoallv: the call as gridcoll sees it, the table's MPI side, and what the
 * operation keeps per communicator.
 *
 * The counts differ per rank, so no rank knows the call's size as a whole: the dispatch's
 * gc_call.bytes (what supports, predict and the decision cache may read) is the byte
 * total of the last call every rank learnt (the history below), identical everywhere.
 * The log's record reads none of it for its bytes (gc_call.logged_bytes: what this rank
 * sends) and says where its prediction's totals came from (alltoallv.c: describe). */
#ifndef GC_ALLTOALLV_H
#define GC_ALLTOALLV_H

#include <mpi.h>
#include <stddef.h>
#include "comm_state.h"
#include "op.h"

/* MPI_Alltoallv and MPI_Alltoallv_c both arrive here: counts are int[] or, when large,
 * MPI_Count[]; displacements int[] or MPI_Aint[] (read them with the helpers below). */
struct gc_alltoallv_call {
  const void *sendbuf; /* may be MPI_IN_PLACE: then the send side is the receive side */
  const void *sendcounts, *sdispls;
  MPI_Datatype sendtype;
  void *recvbuf;
  const void *recvcounts, *rdispls;
  MPI_Datatype recvtype;
  MPI_Comm comm;
  int large;                /* the application called MPI_Alltoallv_c: so does the native run */
  int size;                 /* set by prepare: the communicator's size */
  MPI_Count send_size, recv_size; /* set by prepare: the types' sizes in bytes */
};

static inline MPI_Count gc_alltoallv_count(const void *counts, int large, int i)
{
  return large ? ((const MPI_Count *)counts)[i] : ((const int *)counts)[i];
}

static inline MPI_Aint gc_alltoallv_displ(const void *displs, int large, int i)
{
  return large ? ((const MPI_Aint *)displs)[i] : ((const int *)displs)[i];
}

/* What every rank learnt of earlier calls on this communicator (st->op[GC_OP_ALLTOALLV]).
 * LG-v's wide messages carry each cluster's row of byte totals, so after an LG-v call
 * that every rank completed, every rank holds the same k x k matrix: `auto` chooses from
 * it (reference.md section 5: combined data, learnt where it costs nothing on the wide area). */
struct gc_alltoallv_state {
  int known;       /* a matrix was learnt */
  double *bytes;   /* [k*k] bytes cluster c sent cluster d in the last LG-v call */
  const double *zeros; /* [k*k] zeros: the matrix `auto` predicts on while none is known
                          (alltoallv.c), made with the state, not per call */
  double total;    /* sum of bytes: the key of the dispatch's decision cache */
  unsigned long long calls, lg_calls; /* blocking calls seen; LG-v runs among them */
  struct gc_lgv_ctx *lg; /* lgv.c's schedule and buffers, built on its first run (agreed
                            there) and freed with the state */
};

extern const struct gc_op gc_alltoallv_op;

/* Makes the op's state on st (state.c): the learnt matrix and the zeros, two k x k
 * matrices of doubles, with the communicator's state (its part, op.h: make), so it
 * exists on every member wherever a call of the op is served. 0, or -1 when out of
 * memory (nothing made). */
int gc_alltoallv_state_make(struct gc_comm_state *st);
static inline struct gc_alltoallv_state *gc_alltoallv_state(struct gc_comm_state *st)
{
  return st->op[GC_OP_ALLTOALLV].data;
}

int gc_alltoallv_native_supports(const void *call, const struct gc_comm_state *st);
int gc_alltoallv_native_run(const void *call, struct gc_comm_state *st,
                            const struct gc_plan *plan);
int gc_alltoallv_lg_supports(const void *call, const struct gc_comm_state *st);
int gc_alltoallv_lg_run(const void *call, struct gc_comm_state *st, const struct gc_plan *plan);
/* LG-v's context (lgv.c), freed with the op's state; NULL is nothing. */
struct gc_lgv_ctx;
void gc_alltoallv_lg_free(struct gc_lgv_ctx *ctx);
/* LG-v's plan of this call laid out (lgv.c, steps 1 and 2: the size messages on my
 * cluster; collective, blocking), for a schedule built from it (lgv_persistent.c):
 * MPI_SUCCESS with *plan (LG-v's own, valid until its next run) and *ok, 0 where this
 * rank cannot carry the call (a count beyond an int, a message beyond an int of bytes);
 * GC_FALLBACK (agreed: some rank has no LG-v schedule) or an MPI error. */
struct gc_alltoallv_lg_plan;
int gc_alltoallv_lg_layout(const struct gc_alltoallv_call *call, struct gc_comm_state *st,
                           const struct gc_alltoallv_lg_plan **plan, int *ok);
/* MPI_Alltoallv_init (and _c) by LG-v, as a persistent schedule (lgv_persistent.c): 0 when
 * the MPI library's own call is to run (every member alike), else 1 with *rc the result. */
int gc_alltoallv_lg_issue(struct gc_alltoallv_call *call, MPI_Request *request, int *rc);

/* MPI_Ialltoallv (and _c) by LG-v, as a nonblocking schedule (lgv_nb.c): 0 when the MPI
 * library's own call is to run (every member alike), else 1 with *rc the result. */
int gc_alltoallv_lg_nb_issue(struct gc_alltoallv_call *call, MPI_Request *request, int *rc);
/* LG-v may run nonblocking calls as schedules: `lg` forced, or `auto` (lgv_nb_reserve.c). */
int gc_alltoallv_lg_nb_wanted(void);
/* LG-v's part of a communicator's nonblocking reservation (lgv_nb_reserve.c; the op's
 * nbc_reserve, op.h): what one call carves at most (*bytes) and LG's block count (*blocks,
 * the bound agreed) where LG-v may run; 0, or -1 out of memory. */
int gc_alltoallv_lg_nb_reserve(struct gc_comm_state *st, size_t *bytes, int *blocks);
int gc_alltoallv_call_prepare(void *call, const struct gc_comm_state *st, struct gc_call *out);

/* Base of LG-v's tags ("LV"): sizes, staged parts, wide (low bit: the verdict), direct. */
#define GC_ALLTOALLV_LG_TAG 0x4c56

#endif
