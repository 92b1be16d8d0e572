/* What every tree builder shares: input checks, the CSR layout, freeing. */
#include "tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gc_tree_free(struct gc_tree *t)
{
  free(t->parent);
  free(t->child_start);
  free(t->children);
  memset(t, 0, sizeof *t);
}

static int bad(double x)
{
  return isnan(x) || x < 0.0;
}

void *gc_tree_scratch(size_t nd, size_t ni, double **d, int **i)
{
  /* doubles first: the ints after them stay aligned */
  double *block = malloc(sizeof(double) * nd + sizeof(int) * ni);
  if (block) {
    *d = block;
    *i = (int *)(block + nd);
  }
  return block;
}

int gc_tree_start(const struct gc_tree_input *in, struct gc_tree *out)
{
  memset(out, 0, sizeof *out);
  if (!in || in->k < 1 || in->root < 0 || in->root >= in->k)
    return GC_TREE_EINVAL;
  if (bad(in->send_gap) || bad(in->recv_overhead) || bad(in->uniform) || bad(in->bytes))
    return GC_TREE_EINVAL;
  size_t kk = (size_t)in->k * (size_t)in->k;
  for (size_t i = 0; in->W && i < kk; i++)
    if (bad(in->W[i]))
      return GC_TREE_EINVAL;
  /* A zero bandwidth would make m/bw infinite; only the diagonal is never used. */
  for (size_t i = 0; in->bw && i < kk; i++)
    if (i % (size_t)(in->k + 1) != 0 && !(in->bw[i] > 0.0))
      return GC_TREE_EINVAL;
  return 0;
}

int gc_tree_from_parents(int k, int root, const int *parent, const int *order,
                         struct gc_tree *out)
{
  memset(out, 0, sizeof *out);
  out->n = k;
  out->root = root;
  out->parent = malloc(sizeof(int) * (size_t)k);
  out->child_start = calloc((size_t)k + 1, sizeof(int));
  /* k-1 children, but never a zero-byte malloc (k = 1) whose NULL would read as failure. */
  out->children = malloc(sizeof(int) * (size_t)k);
  if (!out->parent || !out->child_start || !out->children) {
    gc_tree_free(out);
    return GC_TREE_ENOMEM;
  }
  memcpy(out->parent, parent, sizeof(int) * (size_t)k);
  for (int i = 0; i < k; i++)
    if (parent[i] >= 0)
      out->child_start[parent[i] + 1]++;
  for (int c = 0; c < k; c++)
    out->child_start[c + 1] += out->child_start[c];
  /* Fill in `order`, using parent's count so far as a cursor: child_start[p] is bumped
   * once per child and restored below by shifting. */
  for (int j = 0; j < k; j++) {
    int n = order[j], p = parent[n];
    if (p >= 0)
      out->children[out->child_start[p]++] = n;
  }
  for (int c = k; c > 0; c--)
    out->child_start[c] = out->child_start[c - 1];
  out->child_start[0] = 0;
  return 0;
}

int gc_tree_build(const struct gc_tree_input *in, const int *parent, const int *order,
                  struct gc_tree *out)
{
  int rc = gc_tree_from_parents(in->k, in->root, parent, order, out);
  if (rc == 0 && (rc = gc_tree_order_children(in, out)) != 0)
    gc_tree_free(out);
  return rc;
}
