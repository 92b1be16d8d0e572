/* MPI_Bcast and MPI_Bcast_c: the wrappers, the algorithm table and the dispatch.
 * Same rules as MPI_Alltoall: anything gridcoll cannot judge goes to PMPI_Bcast untouched. */
#include "bcast.h"
#include "bcast_algorithms.h"
#include "bcast_predict.h"
#include "count.h"
#include "datatype.h"
#include "tree_exec.h"
#include "gridcoll.h"
#include "dispatch.h"
#include "log.h"
#include "model.h"
#include "probe.h"
#include "select.h"

/* Index 0 is the MPI library's own algorithm (select.h). */
#define GC_BCAST_BUILDER_native(name) NULL
#define GC_BCAST_BUILDER_tree(name) gc_bcast_##name##_tree
static const struct gc_bcast_algorithm algorithms[] = {
#define GC_BCAST_ENTRY(name, kind, description)                                             \
  {#name, description, gc_bcast_##kind##_supports, gc_bcast_##name##_run,                    \
   gc_bcast_##name##_predict, GC_BCAST_BUILDER_##kind(name)},
    GC_BCAST_ALGORITHMS(GC_BCAST_ENTRY)
#undef GC_BCAST_ENTRY
};
#define NALGORITHMS ((int)(sizeof algorithms / sizeof algorithms[0]))

const char *const *gc_bcast_names(void)
{
  static const char *names[NALGORITHMS + 2] = {"auto"};
  for (int i = 0; i < NALGORITHMS; i++)
    names[i + 1] = algorithms[i].name;
  return names;
}

const char *gc_bcast_algorithm_name(int i)
{
  return i >= 0 && i < NALGORITHMS ? algorithms[i].name : "?";
}

/* Prediction of algorithm i for this call. A tree algorithm's comes from the tree
 * cache, which holds the tree its run will take: built once per (root cluster, m),
 * not once per call and algorithm (tree_cache.h). Same numbers as its _predict. */
static double predict(int i, const struct gc_bcast_call *call, struct gc_comm_state *st,
                      const char **model)
{
  const struct gc_bcast_algorithm *alg = &algorithms[i];
  if (alg->build && st->layout.nclusters >= 2) {
    const struct gc_tree_cache_entry *e;
    *model = gc_model_name(GC_MODEL_TREE_NIC_FANOUT);
    return gc_tree_cache_get(&st->trees, alg->build, &st->network, &st->layout, call->root,
                             (double)call->bytes, &e) == 0
               ? e->predicted
               : -1;
  }
  return alg->predict ? alg->predict(&st->network, &st->layout, (double)call->bytes,
                                     call->root, model)
                      : -1;
}

static int choose(const struct gc_bcast_call *call, struct gc_comm_state *st,
                  struct gc_record *rec)
{
  const char *names[NALGORITHMS], *models[NALGORITHMS];
  int supported[NALGORITHMS];
  double predicted[NALGORITHMS];
  int need = gc_dispatch_needs_predictions(gc_g.cfg.bcast_algorithm);
  for (int i = 0; i < NALGORITHMS; i++) {
    names[i] = algorithms[i].name;
    supported[i] = algorithms[i].supports(call, st);
    models[i] = NULL;
    predicted[i] = need ? predict(i, call, st, &models[i]) : -1;
  }
  return gc_dispatch_choose(gc_g.cfg.bcast_algorithm, NALGORITHMS, names, supported, predicted,
                            models, rec);
}

static int bcast(const struct gc_bcast_call *call)
{
  struct gc_comm_state *st = gc_comm_state_get(call->comm);
  if (!st || call->root < 0 || call->root >= st->size)
    return gc_bcast_native_run(call, NULL);
  /* Before the choice (it changes the network view) and outside the timed region. */
  gc_probe_latency(st);
  struct gc_record rec = {.op = GC_OP_BCAST, .root = call->root, .bytes = call->bytes};
  int a = choose(call, st, &rec);
  struct gc_timing timing;
  gc_call_start(st, &timing);
  int rc = algorithms[a].run(call, st);
  if (rc == GC_FALLBACK) {
    gc_dispatch_fell_back(&rec);
    rc = gc_bcast_native_run(call, st);
  }
  return gc_dispatch_finish(st, &timing, &rec, rc);
}

/* What MPI itself would reject goes through untouched (see alltoall.c's valid()); a root
 * out of range too, before any tree code sees it. */
static int valid(const struct gc_bcast_call *c)
{
  return c->comm != MPI_COMM_NULL && c->count >= 0 && c->datatype != MPI_DATATYPE_NULL &&
         (c->count == 0 || c->buffer != NULL) && c->root >= 0;
}

int gc_bcast_call_prepare(struct gc_bcast_call *call)
{
  MPI_Count type_size = 0;
  if (!valid(call) || !gc_datatype_usable(call->datatype, &type_size))
    return 0;
  call->bytes = (size_t)call->count * (size_t)type_size;
  return 1;
}

/* Both entry points: a valid call goes to the dispatch, anything else to the native one. */
static int intercept(struct gc_bcast_call *call)
{
  return gc_bcast_call_prepare(call) ? bcast(call) : gc_bcast_native_run(call, NULL);
}

GC_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm};
  int rc = intercept(&call);
  gc_guard_leave();
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                          MPI_Comm comm)
{
  if (!gc_is_active() || !gc_guard_enter())
    return PMPI_Bcast_c(buffer, count, datatype, root, comm);
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm, .large = 1};
  int rc = intercept(&call);
  gc_guard_leave();
  return rc;
}
#endif
