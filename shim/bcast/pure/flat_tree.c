/* Flat tree (MagPIe, MPICH-G2): the root sends to every other leader itself.
 * 001 Eq. 3: with no overheads it takes max_n W[root][n]. */
#include "tree.h"

int gc_bcast_flat_tree(const struct gc_tree_input *in, struct gc_tree *out)
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
  order[0] = in->root;
  for (int n = 0, j = 1; n < k; n++) {
    parent[n] = n == in->root ? -1 : in->root;
    if (n != in->root)
      order[j++] = n;
  }
  rc = gc_tree_build(in, parent, order, out);
  gc_scratch_release(in->scratch, mark);
  return rc;
}
