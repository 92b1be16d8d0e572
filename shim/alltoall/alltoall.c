/* MPI_Alltoall and MPI_Alltoall_c: the wrappers and the algorithm table; the dispatch
 * (shim/dispatch.c) does the rest.
 *
 * Anything gridcoll cannot judge safely (an invalid argument, an intercommunicator, a
 * communicator of processes outside MPI_COMM_WORLD) goes to PMPI_Alltoall untouched, so
 * the application gets exactly the MPI library's behaviour and error. */
#include "alltoall.h"
#include "alltoall_algorithms.h"
#include "datatype.h"
#include "dispatch.h"
#include "gridcoll.h"

/* Every row's prediction: its pure formula (alltoall_algorithms.c), on the call's block. */
static double predict(const void *call, struct gc_comm_state *st, struct gc_plan *plan)
{
  const struct gc_alltoall_call *c = call;
  const struct gc_shape shape = {.m = (double)c->block_bytes, .root = -1};
  return gc_alltoall_models[plan->algorithm].predict(&st->network, &st->layout, &shape,
                                                     &plan->model);
}

/* Index 0 is the MPI library's own algorithm (select.h). */
static const struct gc_algorithm algorithms[GC_ALLTOALL_LAST] = {
    [GC_ALLTOALL_NATIVE] = {.about = &gc_alltoall_models[GC_ALLTOALL_NATIVE].about,
                            .supports = gc_alltoall_native_supports,
                            .predict = predict,
                            .run = gc_alltoall_native_run},
    [GC_ALLTOALL_LG] = {.about = &gc_alltoall_models[GC_ALLTOALL_LG].about,
                        .wide = 1,
                        .supports = gc_alltoall_lg_supports,
                        .predict = predict,
                        .run = gc_alltoall_lg_run},
    [GC_ALLTOALL_RELAY] = {.about = &gc_alltoall_models[GC_ALLTOALL_RELAY].about,
                           .wide = 1,
                           .supports = gc_alltoall_relay_supports,
                           .predict = predict,
                           .run = gc_alltoall_relay_run},
};
_Static_assert(GC_ALLTOALL_LAST <= GC_MAX_ALGORITHMS, "records hold GC_MAX_ALGORITHMS rows");

/* Both counts and datatypes, or the receive side alone in place, marked in `root` (op.h:
 * gc_call_key): the send side of an in-place call is ignored, as MPI ignores it. */
static void key(const void *args, struct gc_call_key *out)
{
  const struct gc_alltoall_call *c = args;
  int in_place = c->sendbuf == MPI_IN_PLACE;
  *out = (struct gc_call_key){.count = {in_place ? 0 : c->sendcount, c->recvcount},
                              .type = {in_place ? MPI_DATATYPE_NULL : c->sendtype, c->recvtype},
                              .root = in_place ? -2 : -1};
}

/* What the all-to-all keeps per communicator, made and agreed with its state: LG's
 * context, and the relayed all-to-all's routes beside it. */
static int make(struct gc_comm_state *st)
{
  return gc_alltoall_lg_state_make(st) || gc_alltoall_relay_state_make(st) ? -1 : 0;
}

const struct gc_op gc_alltoall_op = {
    .id = GC_OP_ALLTOALL,
    .name = "alltoall",
    .algorithms = algorithms,
    .nalgorithms = GC_ALLTOALL_LAST,
    .wanted = gc_g.cfg.algorithm[GC_OP_ALLTOALL],
    .prepare = gc_alltoall_call_prepare,
    .make = make,
    .key = key,
    .nbc_reserve = gc_alltoall_lg_nb_reserve,
};

/* What MPI itself would reject goes through untouched, so the error is exactly the
 * library's: no communicator, a negative count, no datatype, a NULL buffer that should
 * hold data (MPI_BOTTOM is NULL too: an absolute datatype is rare enough to leave to the
 * library), send and receive buffers that alias without MPI_IN_PLACE. */
static int valid(const struct gc_alltoall_call *c)
{
  int in_place = c->sendbuf == MPI_IN_PLACE;
  return c->comm != MPI_COMM_NULL && c->recvcount >= 0 && c->recvtype != MPI_DATATYPE_NULL &&
         (c->recvcount == 0 || c->recvbuf != NULL) &&
         (in_place || (c->sendcount >= 0 && c->sendtype != MPI_DATATYPE_NULL &&
                       (c->sendcount == 0 || c->sendbuf != NULL) && c->sendbuf != c->recvbuf));
}

int gc_alltoall_call_prepare(void *args, const struct gc_comm_state *st, struct gc_call *out)
{
  (void)st;
  struct gc_alltoall_call *call = args;
  MPI_Count type_size = 0, send_size = 0;
  if (!valid(call) || !gc_datatype_usable(call->recvtype, &type_size) ||
      (call->sendbuf != MPI_IN_PLACE && !gc_datatype_usable(call->sendtype, &send_size)))
    return 0;
  call->block_bytes = (size_t)call->recvcount * (size_t)type_size;
  *out = (struct gc_call){.comm = call->comm, .bytes = call->block_bytes, .root = -1,
                          .logged_bytes = call->block_bytes};
  return 1;
}

GC_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  if (gc_dispatch_bypass(GC_OP_ALLTOALL) || !gc_guard_enter())
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm};
  int rc = gc_dispatch(&gc_alltoall_op, &call, comm);
  gc_guard_leave();
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
  if (gc_dispatch_bypass(GC_OP_ALLTOALL) || !gc_guard_enter())
    return PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm,
                                  .large = 1};
  int rc = gc_dispatch(&gc_alltoall_op, &call, comm);
  gc_guard_leave();
  return rc;
}
#endif
