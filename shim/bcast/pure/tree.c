/* What every tree builder shares: input checks, the CSR layout, the order in which a
 * leader serves its children, freeing. */
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
    *i = (int *)((char *)block + sizeof(double) * nd);
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

/* Children order. A leader c serving children j with send gap p_j and "delivery time"
 * a_j = lat(c,j) + o_r + tail(j) (tail = how long j's subtree runs once j has the data)
 * finishes at max_j (S_j + a_j), S_j = the gaps of the children served before j. That is
 * one-machine scheduling with delivery times q_j = a_j - p_j, where serving the largest
 * q_j first (Jackson's rule) is optimal; with equal gaps it is "the child whose subtree
 * finishes last goes first". Done bottom-up, the tails are minimal too, so this order is
 * optimal for the tree's shape under the position-aware model. We prefer it to the
 * construction order: it is never worse, even for the greedy tree whose construction
 * order is exactly what its own model charged. */
int gc_tree_order_children(const struct gc_tree_input *in, struct gc_tree *t)
{
  int k = t->n;
  int *bfs = malloc(sizeof(int) * (size_t)k);
  double *tail = malloc(sizeof(double) * (size_t)k);
  double *q = malloc(sizeof(double) * (size_t)k);
  if (!bfs || !tail || !q) {
    free(bfs);
    free(tail);
    free(q);
    return GC_TREE_ENOMEM;
  }
  int reached = gc_tree_bfs_order(t, bfs);
  for (int h = reached - 1; h >= 0; h--) { /* children before their parent */
    int c = bfs[h], first = t->child_start[c], end = t->child_start[c + 1];
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      q[n] = gc_tree_edge_lat(in, c, n) + in->recv_overhead + tail[n] -
             gc_tree_edge_gap(in, c, n);
    }
    /* Insertion sort, largest q first, ties by cluster index: deterministic on every
     * rank. Lists are short (at most k-1 entries, k a few dozen clusters). */
    for (int j = first + 1; j < end; j++) {
      int n = t->children[j], i = j;
      int p;
      /* p after n: a smaller q, or a tie (neither smaller) and the higher index. */
      while (i > first && (p = t->children[i - 1], q[p] < q[n] || (!(q[n] < q[p]) && p > n))) {
        t->children[i] = t->children[i - 1];
        i--;
      }
      t->children[i] = n;
    }
    double s = 0.0, fin = 0.0;
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      double p = gc_tree_edge_gap(in, c, n);
      if (s + p + q[n] > fin)
        fin = s + p + q[n];
      s += p;
    }
    tail[c] = fin;
  }
  free(bfs);
  free(tail);
  free(q);
  return 0;
}
