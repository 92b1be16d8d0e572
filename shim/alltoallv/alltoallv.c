/* MPI_Alltoallv and MPI_Alltoallv_c: the wrappers, the algorithm table and the choice's
 * inputs; the dispatch (shim/dispatch.c) does the rest.
 *
 * The choice (`auto`). Every rank must choose alike, but each knows only its own counts:
 * a choice from them would differ between ranks. So `auto` reads only what every rank
 * holds alike (reference.md section 5): the configuration, the layout, and the matrix of
 * per-cluster-pair byte totals of the last LG-v call, which LG-v spreads for nothing
 * (each cluster's row rides on its wide messages: alltoallv.h, lgv.c). It predicts both
 * algorithms on that matrix (model/alltoallv.c) and takes the faster:
 *   - nothing learnt yet: both are predicted on empty blocks (latency only): both pay
 *     the wide-area latency once, LG-v its local size messages too, so the library's own
 *     exchange runs;
 *   - learnt: the models on the last matrix, the bet that an application repeats its
 *     exchange (an FFT's transposes, a solver's halo) as the predictions' learning does;
 *   - the matrix is forgotten after GC_ALLTOALLV_FORGET calls without an LG-v run (a
 *     stale matrix is not read); an LG-v run, forced or chosen, learns it again.
 * With the library's exchange posted at once, its model is never above LG-v's on any
 * matrix (the same wide-area bytes and latency; LG-v adds its local phase), so `auto`
 * keeps the library's alltoallv: SMPI runs it faster than LG-v on g5k2 and korea8.
 * All three read counters and a matrix identical on every rank. The dispatch's
 * gc_call.bytes is the learnt total (0 when nothing is known), so its decision cache
 * keys on what the choice read; the log's record is the call's own (describe, below). */
#include "alltoallv.h"

#include <stdint.h>

#include "alltoallv_algorithms.h"
#include "datatype.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "prediction.h"
#include "record.h"

/* Calls without an LG-v run after which the learnt matrix is forgotten (see above). */
#define GC_ALLTOALLV_FORGET 64

/* The matrix the choice reads: the learnt one while fresh, NULL otherwise. */
static const double *learnt(struct gc_comm_state *st)
{
  const struct gc_alltoallv_state *vs = gc_alltoallv_state(st);
  return vs->known ? vs->bytes : NULL;
}

/* Every row's prediction on the learnt matrix, or on empty blocks when none is known (the
 * state's zeros: nothing allocated per call). */
static double predict(const void *call, struct gc_comm_state *st, struct gc_plan *plan)
{
  (void)call;
  const struct gc_alltoallv_state *vs = st->op[GC_OP_ALLTOALLV].data;
  const double *bytes = learnt(st);
  const struct gc_shape shape = {.root = -1, .pair_bytes = bytes ? bytes : vs->zeros};
  return gc_alltoallv_models[plan->algorithm].predict(&st->network, &st->layout, &shape,
                                                      &plan->model);
}

int gc_alltoallv_lg_supports(const void *call, const struct gc_comm_state *st)
{
  (void)call;
  return gc_alltoallv_lg_applies(&st->layout) && st->layout.size <= (1 << 24);
}

/* Index 0 is the MPI library's own algorithm (select.h). */
static const struct gc_algorithm algorithms[GC_ALLTOALLV_LAST] = {
    [GC_ALLTOALLV_NATIVE] = {.about = &gc_alltoallv_models[GC_ALLTOALLV_NATIVE].about,
                             .supports = gc_alltoallv_native_supports,
                             .predict = predict,
                             .run = gc_alltoallv_native_run},
    [GC_ALLTOALLV_LG] = {.about = &gc_alltoallv_models[GC_ALLTOALLV_LG].about,
                         .wide = 1,
                         .supports = gc_alltoallv_lg_supports,
                         .predict = predict,
                         .run = gc_alltoallv_lg_run},
};
_Static_assert(GC_ALLTOALLV_LAST <= GC_MAX_ALGORITHMS, "records hold GC_MAX_ALGORITHMS rows");

/* The record of a logged call (op.h: describe), true to the call rather than to the
 * matrix the choice read, which is no part of the choice (it runs after it):
 *   - LG-v ran and learnt this call's own matrix (every rank holds it alike): its
 *     prediction on it, under the model's own name;
 *   - else a matrix learnt from an earlier LG-v call: the prediction the choice made on it,
 *     its model named with "@learnt" (another call's totals, a bet on a repeated exchange);
 *   - else none: nothing in what a rank knows gives this call's totals.
 * A fallback is recorded unpredicted by the dispatch and stays so. */
static const char *learnt_model[GC_ALLTOALLV_LAST] = {
    [GC_ALLTOALLV_NATIVE] = "linear-grid-v@learnt",
    [GC_ALLTOALLV_LG] = "lgv-backbone@learnt",
};

static void describe(const void *call, struct gc_comm_state *st, int ran, struct gc_record *rec)
{
  const struct gc_alltoallv_state *vs = gc_alltoallv_state(st);
  if (vs->known && vs->lg_calls == vs->calls) { /* learnt by this call (before settle) */
    struct gc_plan plan = {.algorithm = ran, .predicted = -1};
    rec->predicted = gc_prediction_checked(predict(call, st, &plan));
    rec->model = rec->predicted >= 0 ? plan.model : NULL;
  } else if (vs->known && rec->predicted >= 0) {
    rec->model = learnt_model[ran];
  } else {
    rec->predicted = -1;
    rec->model = NULL;
  }
}

/* The history (see the top): every call ages the learnt matrix, which is forgotten
 * GC_ALLTOALLV_FORGET calls after the last LG-v run learnt it. Every rank settles the
 * same calls on a communicator, so the counters agree. */
static void settle(const void *call, struct gc_comm_state *st, int ran)
{
  (void)call, (void)ran;
  struct gc_alltoallv_state *vs = gc_alltoallv_state(st);
  vs->calls++;
  if (vs->known && vs->calls - vs->lg_calls > GC_ALLTOALLV_FORGET)
    vs->known = 0;
}

const struct gc_op gc_alltoallv_op = {
    .id = GC_OP_ALLTOALLV,
    .name = "alltoallv",
    .algorithms = algorithms,
    .nalgorithms = GC_ALLTOALLV_LAST,
    .wanted = gc_g.cfg.algorithm[GC_OP_ALLTOALLV],
    .prepare = gc_alltoallv_call_prepare,
    .make = gc_alltoallv_state_make,
    .settle = settle,
    .describe = describe,
    .nbc_reserve = gc_alltoallv_lg_nb_reserve,
};

/* counts[0..size-1] all >= 0; *any: one of them > 0. */
static int counts_ok(const void *counts, int large, int size, int *any)
{
  *any = 0;
  if (!counts)
    return 0;
  for (int i = 0; i < size; i++) {
    MPI_Count c = gc_alltoallv_count(counts, large, i);
    if (c < 0)
      return 0;
    *any |= c > 0;
  }
  return 1;
}

/* What MPI itself would reject goes through untouched, so the error is exactly the
 * library's (as alltoall.c's valid()). */
static int valid(struct gc_alltoallv_call *c)
{
  int any = 0;
  if (c->comm == MPI_COMM_NULL || PMPI_Comm_size(c->comm, &c->size) != MPI_SUCCESS)
    return 0;
  if (c->recvtype == MPI_DATATYPE_NULL || !c->rdispls ||
      !counts_ok(c->recvcounts, c->large, c->size, &any) || (any && !c->recvbuf))
    return 0;
  if (c->sendbuf == MPI_IN_PLACE)
    return 1;
  return c->sendtype != MPI_DATATYPE_NULL && c->sdispls &&
         counts_ok(c->sendcounts, c->large, c->size, &any) && (!any || c->sendbuf) &&
         c->sendbuf != c->recvbuf;
}

/* The bytes this rank sends: its send counts times its send type's size, its own block
 * included; in place, its receive side's (what it sends back from). Saturates at SIZE_MAX:
 * a count MPI accepts times a type's size may not fit. */
static size_t sent_bytes(const struct gc_alltoallv_call *c)
{
  int in_place = c->sendbuf == MPI_IN_PLACE;
  const void *counts = in_place ? c->recvcounts : c->sendcounts;
  size_t unit = (size_t)(in_place ? c->recv_size : c->send_size), total = 0;
  for (int i = 0; i < c->size; i++) {
    size_t n = (size_t)gc_alltoallv_count(counts, c->large, i);
    if (unit && n > (SIZE_MAX - total) / unit)
      return SIZE_MAX;
    total += n * unit;
  }
  return total;
}

int gc_alltoallv_call_prepare(void *args, const struct gc_comm_state *st, struct gc_call *out)
{
  struct gc_alltoallv_call *call = args;
  if (!valid(call) || !gc_datatype_usable(call->recvtype, &call->recv_size) ||
      (call->sendbuf != MPI_IN_PLACE && !gc_datatype_usable(call->sendtype, &call->send_size)))
    return 0;
  /* The choice's key (see the top): the learnt total, 0 when nothing is known or it was
   * forgotten. The log's bytes: this rank's own, which no choice reads. */
  const struct gc_alltoallv_state *vs = st->op[GC_OP_ALLTOALLV].data;
  *out = (struct gc_call){.comm = call->comm, .bytes = vs->known ? (size_t)vs->total : 0,
                          .root = -1, .logged_bytes = sent_bytes(call)};
  return 1;
}

GC_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm};
  int rc = gc_dispatch(&gc_alltoallv_op, &call, comm);
  gc_guard_leave();
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                            rdispls, recvtype, comm);
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm,
                                   .large = 1};
  int rc = gc_dispatch(&gc_alltoallv_op, &call, comm);
  gc_guard_leave();
  return rc;
}
#endif
