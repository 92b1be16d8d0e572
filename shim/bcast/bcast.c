/* MPI_Bcast and MPI_Bcast_c: the wrappers and the algorithm table; the dispatch
 * (shim/dispatch.c) does the rest. Same rules as MPI_Alltoall: anything gridcoll cannot
 * judge goes to PMPI_Bcast untouched. */
#include "bcast.h"
#include "bcast_algorithms.h"
#include "datatype.h"
#include "dispatch.h"
#include "gridcoll.h"

/* The native row's prediction: its pure formula (bcast_algorithms.c), on the call's
 * message and root. */
static double predict(const void *call, struct gc_comm_state *st, struct gc_plan *plan)
{
  const struct gc_bcast_call *c = call;
  const struct gc_shape shape = {.m = (double)c->bytes, .root = c->root};
  return gc_bcast_models[plan->algorithm].predict(&st->network, &st->layout, &shape,
                                                  &plan->model);
}

/* Index 0 is the MPI library's own algorithm (select.h). A tree row's builder is in its
 * pure row (bcast_algorithms.c); its prediction and its run share one cached tree. */
static const struct gc_algorithm algorithms[GC_BCAST_LAST] = {
    [GC_BCAST_NATIVE] = {.about = &gc_bcast_models[GC_BCAST_NATIVE].about,
                         .supports = gc_bcast_native_supports,
                         .predict = predict,
                         .run = gc_bcast_native_run},
    [GC_BCAST_FLAT] = {.about = &gc_bcast_models[GC_BCAST_FLAT].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
    [GC_BCAST_BINOMIAL] = {.about = &gc_bcast_models[GC_BCAST_BINOMIAL].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
    [GC_BCAST_HLOT] = {.about = &gc_bcast_models[GC_BCAST_HLOT].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
    [GC_BCAST_SPT] = {.about = &gc_bcast_models[GC_BCAST_SPT].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
    [GC_BCAST_GREEDY] = {.about = &gc_bcast_models[GC_BCAST_GREEDY].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
    [GC_BCAST_MULTILEVEL] = {.about = &gc_bcast_models[GC_BCAST_MULTILEVEL].about,
                       .wide = 1,
                       .supports = gc_bcast_tree_supports,
                       .predict = gc_bcast_tree_plan,
                       .run = gc_bcast_tree_run_plan},
};
_Static_assert(GC_BCAST_LAST <= GC_MAX_ALGORITHMS, "records hold GC_MAX_ALGORITHMS rows");
/* Prediction fetches every tree row's tree, then the chosen one runs from its entry:
 * the cache must hold them all at once (tree_cache.h evicts the least recently used). */
_Static_assert((int)GC_BCAST_LAST <= (int)GC_TREE_CACHE_SIZE, "one call's trees fit the tree cache");

/* The count, datatype and root (op.h: gc_call_key). */
static void key(const void *args, struct gc_call_key *out)
{
  const struct gc_bcast_call *c = args;
  *out = (struct gc_call_key){.count = {c->count, 0},
                              .type = {c->datatype, MPI_DATATYPE_NULL},
                              .root = c->root};
}

const struct gc_op gc_bcast_op = {
    .id = GC_OP_BCAST,
    .name = "bcast",
    .algorithms = algorithms,
    .nalgorithms = GC_BCAST_LAST,
    .wanted = gc_g.cfg.algorithm[GC_OP_BCAST],
    .prepare = gc_bcast_call_prepare,
    .make = gc_bcast_state_make,
    .key = key,
    .nbc_reserve = gc_bcast_tree_nb_reserve,
};

/* What MPI itself would reject goes through untouched (see alltoall.c's valid()), a root
 * out of the communicator's range too: checked here, before any tree code sees it, and
 * nowhere else on the road. */
static int valid(const struct gc_bcast_call *c, int size)
{
  return c->comm != MPI_COMM_NULL && c->count >= 0 && c->datatype != MPI_DATATYPE_NULL &&
         (c->count == 0 || c->buffer != NULL) && c->root >= 0 && c->root < size;
}

int gc_bcast_call_prepare(void *args, const struct gc_comm_state *st, struct gc_call *out)
{
  struct gc_bcast_call *call = args;
  MPI_Count type_size = 0;
  if (!valid(call, st->size) || !gc_datatype_usable(call->datatype, &type_size))
    return 0;
  call->bytes = (size_t)call->count * (size_t)type_size;
  call->segment_bytes = (size_t)gc_g.cfg.bcast_segment;
  *out = (struct gc_call){.comm = call->comm, .bytes = call->bytes, .root = call->root,
                          .logged_bytes = call->bytes};
  return 1;
}

GC_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  if (gc_dispatch_bypass(GC_OP_BCAST) || !gc_guard_enter())
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm};
  int rc = gc_dispatch(&gc_bcast_op, &call, comm);
  gc_guard_leave();
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                          MPI_Comm comm)
{
  if (gc_dispatch_bypass(GC_OP_BCAST) || !gc_guard_enter())
    return PMPI_Bcast_c(buffer, count, datatype, root, comm);
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm, .large = 1};
  int rc = gc_dispatch(&gc_bcast_op, &call, comm);
  gc_guard_leave();
  return rc;
}
#endif
