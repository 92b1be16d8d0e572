/* The tree broadcasts as table entries: take the tree for this call from the
 * communicator's cache (built there on a miss), run it. */
#include "tree_cache.h"
#include "tree_exec.h"

/* Set at MPI_Init from bcast.segment; identical on every rank. */
struct gc_bcast_tree_options gc_bcast_tree_options = {.segment_bytes = 0};

int gc_bcast_tree_supports(const struct gc_bcast_call *call, const struct gc_comm_state *st)
{
  return st->layout.nclusters >= 2 && call->count >= 0 && call->root >= 0 &&
         call->root < st->layout.size;
}

static int run_tree(gc_tree_builder build, const struct gc_bcast_call *call,
                    struct gc_comm_state *st)
{
  const struct gc_layout *l = &st->layout;
  if (call->root < 0 || call->root >= l->size)
    return MPI_ERR_ROOT;
  /* The same cache entry, built from the same input, that the prediction read
   * (bcast.c): the tree that runs is the tree that was predicted. */
  const struct gc_tree_cache_entry *e;
  int rc = gc_tree_cache_get(&st->trees, build, &st->network, l, call->root,
                             (double)call->bytes, &e);
  if (rc != 0) /* before any traffic; same input everywhere, so same answer everywhere
                  except when out of memory */
    return rc == GC_TREE_ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_ARG;
  return gc_bcast_tree_run(call, st, &e->tree);
}

int gc_bcast_flat_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_flat_tree, call, st);
}

int gc_bcast_binomial_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_binomial_tree, call, st);
}

int gc_bcast_hlot_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_hlot_tree, call, st);
}

int gc_bcast_spt_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_spt_tree, call, st);
}

int gc_bcast_greedy_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_greedy_tree, call, st);
}

int gc_bcast_multilevel_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  return run_tree(gc_bcast_multilevel_tree, call, st);
}
