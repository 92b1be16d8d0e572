/* The tree broadcasts as table entries: build the tree for this call, run it. */
#include "tree_exec.h"

/* Placeholders until model/ supplies LogGP parameters per platform: a wide-area send
 * costs the sender tens of microseconds, small against tens of milliseconds of latency
 * (001 Section 3), but not zero, which is what lets the greedy tree differ from SPT. */
struct gc_bcast_tree_options gc_bcast_tree_options = {
  .send_gap = 50e-6,
  .recv_overhead = 0.0,
  .uniform_latency = 1e-3,
  .segment_bytes = 0,
};

const double *(*gc_bcast_latency_hook)(const struct gc_comm_state *st, int *k) = NULL;

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
  const double *W = NULL;
  int hk = 0;
  if (gc_bcast_latency_hook && (W = gc_bcast_latency_hook(st, &hk)) && hk != l->nclusters)
    W = NULL;
  struct gc_tree_input in = {
    .k = l->nclusters,
    .root = l->cluster_of[call->root],
    .W = W,
    .uniform = gc_bcast_tree_options.uniform_latency,
    .send_gap = gc_bcast_tree_options.send_gap,
    .recv_overhead = gc_bcast_tree_options.recv_overhead,
    .bytes = (double)call->bytes,
  };
  /* TODO: per-edge bandwidth (in.bw) once the configuration carries it. */
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
