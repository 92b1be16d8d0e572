/* The tree broadcasts as table rows (bcast.h): one supports, one predict and one run
 * for every tree; the row's builder (bcast_algorithms.c) makes the difference.
 *
 * The trees live in the broadcast's state of the communicator (bcast.h: struct
 * gc_bcast_state, made by state.c), as a tree cache (tree_cache.h) stamped with the state's
 * version: when the view changes (the probe), the next call finds an old stamp and starts
 * from an empty cache. */
#include "bcast_algorithms.h"
#include "gridcoll.h"
#include "model.h"
#include "tree_exec.h"

/* The communicator's tree cache, current with its view. Made with the communicator's
 * state wherever it spans two clusters (op.h: make), the only communicators a tree
 * serves. */
static struct gc_tree_cache *trees(struct gc_comm_state *st)
{
  struct gc_bcast_state *b = gc_bcast_state(st);
  if (!b)
    return NULL;
  if (b->version != st->version) { /* trees of the old view */
    gc_tree_cache_clear(&b->cache);
    b->version = st->version;
  }
  return &b->cache;
}

/* The tree of row `algorithm` for this call, from the cache: 0, or a GC_TREE_ error. */
static int tree_for(const struct gc_bcast_call *call, struct gc_comm_state *st, int algorithm,
                    const struct gc_tree_cache_entry **e)
{
  struct gc_tree_cache *c = trees(st);
  if (!c)
    return GC_TREE_ENOMEM;
  return gc_tree_cache_get(c, gc_bcast_models[algorithm].build, &st->network, &st->layout,
                           call->root, call->bytes, e);
}

int gc_bcast_tree_supports(const void *args, const struct gc_comm_state *st)
{
  (void)args;
  return st->layout.nclusters >= 2;
}

double gc_bcast_tree_plan(const void *args, struct gc_comm_state *st, struct gc_plan *plan)
{
  const struct gc_bcast_call *call = args;
  const struct gc_model_row *row = &gc_bcast_models[plan->algorithm];
  if (st->layout.nclusters < 2) { /* no tree to cost: the row's formula says why not */
    const struct gc_shape shape = {.m = (double)call->bytes, .root = call->root};
    return row->predict(&st->network, &st->layout, &shape, &plan->model);
  }
  /* The cache holds the tree its run will take: built once per (root cluster, m), not
   * once per call and algorithm (tree_cache.h). Same numbers as the row's formula. */
  const struct gc_tree_cache_entry *e;
  plan->model = gc_model_name(GC_MODEL_TREE_NIC_FANOUT);
  if (tree_for(call, st, plan->algorithm, &e) != 0)
    return -1;
  plan->data = e;
  return e->predicted;
}

int gc_bcast_tree_run_plan(const void *args, struct gc_comm_state *st, const struct gc_plan *plan)
{
  const struct gc_bcast_call *call = args;
  /* The entry the prediction read, when there was one: the tree that runs is the tree
   * that was predicted. */
  const struct gc_tree_cache_entry *e = plan->data;
  int rc = e ? 0 : tree_for(call, st, plan->algorithm, &e);
  if (rc != 0) /* before any traffic; same input everywhere, so same answer everywhere
                  except when out of memory */
    return rc == GC_TREE_ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_ARG;
  return gc_bcast_tree_run(call, st, &e->tree);
}

const struct gc_tree *gc_bcast_tree_of(const struct gc_bcast_call *call, struct gc_comm_state *st,
                                       int algorithm)
{
  const struct gc_tree_cache_entry *e;
  return tree_for(call, st, algorithm, &e) == 0 ? &e->tree : NULL;
}
