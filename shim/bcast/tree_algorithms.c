/* The tree broadcasts as table entries: build the tree for this call, run it. */
#include "bcast_predict.h"
#include "tree_exec.h"

/* Set at MPI_Init from bcast.segment; identical on every rank. */
struct gc_bcast_tree_options gc_bcast_tree_options = {.segment_bytes = 0};

typedef int (*gc_tree_builder)(const struct gc_tree_input *in, struct gc_tree *out);

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
  /* The same input the prediction used (bcast_predict.c): the tree that runs is the
   * tree that was predicted. */
  struct gc_tree_input in;
  gc_bcast_tree_input(&st->network, l, call->root, (double)call->bytes, &in);
  struct gc_tree tree;
  int rc = build(&in, &tree);
  if (rc != 0) /* before any traffic; same input everywhere, so same answer everywhere
                  except when out of memory */
    return rc == GC_TREE_ENOMEM ? MPI_ERR_NO_MEM : MPI_ERR_ARG;
  rc = gc_bcast_tree_run(call, st, &tree);
  gc_tree_free(&tree);
  return rc;
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
