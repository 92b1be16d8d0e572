/* MPI_Alltoall and MPI_Alltoall_c: the wrappers, the algorithm table and the dispatch.
 *
 * Anything gridcoll cannot judge safely (an invalid argument, an intercommunicator, a
 * communicator of processes outside MPI_COMM_WORLD) goes to PMPI_Alltoall untouched, so
 * the application gets exactly the MPI library's behaviour and error. */
#include "alltoall.h"
#include "alltoall_algorithms.h"
#include "alltoall_predict.h"
#include "count.h"
#include "datatype.h"
#include "gridcoll.h"
#include "dispatch.h"
#include "log.h"
#include "select.h"

/* Index 0 is the MPI library's own algorithm (select.h). */
static const struct gc_alltoall_algorithm algorithms[] = {
#define GC_ALLTOALL_ENTRY(name, description)                                            \
  {#name, description, gc_alltoall_##name##_supports, gc_alltoall_##name##_run,           \
   gc_alltoall_##name##_predict},
    GC_ALLTOALL_ALGORITHMS(GC_ALLTOALL_ENTRY)
#undef GC_ALLTOALL_ENTRY
};
#define NALGORITHMS ((int)(sizeof algorithms / sizeof algorithms[0]))

const char *const *gc_alltoall_names(void)
{
  static const char *names[NALGORITHMS + 2] = {"auto"};
  for (int i = 0; i < NALGORITHMS; i++)
    names[i + 1] = algorithms[i].name;
  return names;
}

const char *gc_alltoall_algorithm_name(int i)
{
  return i >= 0 && i < NALGORITHMS ? algorithms[i].name : "?";
}

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

static int choose(const struct gc_alltoall_call *call, const struct gc_comm_state *st,
                  struct gc_record *rec)
{
  const char *names[NALGORITHMS], *models[NALGORITHMS];
  int supported[NALGORITHMS];
  double predicted[NALGORITHMS];
  int need = gc_dispatch_needs_predictions(gc_g.cfg.alltoall_algorithm);
  for (int i = 0; i < NALGORITHMS; i++) {
    names[i] = algorithms[i].name;
    supported[i] = algorithms[i].supports(call, st);
    models[i] = NULL;
    predicted[i] = need ? algorithms[i].predict(&st->network, &st->layout,
                                                (double)call->block_bytes, &models[i])
                        : -1;
  }
  return gc_dispatch_choose(gc_g.cfg.alltoall_algorithm, NALGORITHMS, names, supported, predicted,
                            models, rec);
}

static int alltoall(const struct gc_alltoall_call *call)
{
  struct gc_comm_state *st = gc_comm_state_get(call->comm);
  if (!st)
    return gc_alltoall_native_run(call, NULL);
  struct gc_record rec = {.op = GC_OP_ALLTOALL, .root = -1, .bytes = call->block_bytes};
  int a = choose(call, st, &rec);
  struct gc_timing timing;
  gc_call_start(st, &timing);
  int rc = algorithms[a].run(call, st);
  if (rc == GC_FALLBACK) {
    gc_dispatch_fell_back(&rec);
    rc = gc_alltoall_native_run(call, st);
  }
  return gc_dispatch_finish(st, &timing, &rec, rc);
}

int gc_alltoall_call_prepare(struct gc_alltoall_call *call)
{
  MPI_Count type_size = 0, send_size = 0;
  if (!valid(call) || !gc_datatype_usable(call->recvtype, &type_size) ||
      (call->sendbuf != MPI_IN_PLACE && !gc_datatype_usable(call->sendtype, &send_size)))
    return 0;
  call->block_bytes = (size_t)call->recvcount * (size_t)type_size;
  return 1;
}

/* Both entry points: a valid call goes to the dispatch, anything else to the native one. */
static int intercept(struct gc_alltoall_call *call)
{
  return gc_alltoall_call_prepare(call) ? alltoall(call) : gc_alltoall_native_run(call, NULL);
}

GC_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm};
  int rc = intercept(&call);
  gc_guard_leave();
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm,
                                  .large = 1};
  int rc = intercept(&call);
  gc_guard_leave();
  return rc;
}
#endif
