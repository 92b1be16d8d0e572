/* Binomial tree over leaders, as MPICH builds it over ranks, relative to the root:
 * relative leader v receives from v minus its lowest set bit and serves v + 2^j for
 * every 2^j below that bit. It ignores W: the comparison point of 001 Fig. 2. */
#include "tree.h"

int gc_bcast_binomial_tree(const struct gc_tree_input *in, struct gc_tree *out)
{
  int rc = gc_tree_start(in, out);
  if (rc != 0)
    return rc;
  int k = in->k;
  size_t mark = gc_scratch_mark(in->scratch);
  int *parent = gc_scratch_take(in->scratch, 2 * (size_t)k, sizeof(int)); /* and order */
  if (!parent)
    return GC_TREE_ENOMEM;
  int *order = parent + k;
  /* Relative order is breadth-first enough: a parent's relative index is smaller. */
  for (int v = 0; v < k; v++) {
    int c = (v + in->root) % k;
    parent[c] = v == 0 ? -1 : ((v & (v - 1)) + in->root) % k;
    order[v] = c;
  }
  rc = gc_tree_build(in, parent, order, out);
  gc_scratch_release(in->scratch, mark);
  return rc;
}
