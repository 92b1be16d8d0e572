/* What every tree builder shares: input checks, the CSR layout, the order in which a
 * leader serves its children, storage and working arrays from the scratch. */
#include "tree.h"

#include <math.h>
#include <string.h>

int gc_tree_take(struct gc_tree *t, struct gc_scratch *s, int k)
{
  int *ints = k > 0 ? gc_scratch_take(s, gc_tree_ints(k), sizeof(int)) : NULL;
  if (!ints)
    return GC_TREE_ENOMEM;
  gc_tree_place(t, ints, k);
  return 0;
}

void gc_tree_copy(struct gc_tree *dst, const struct gc_tree *src)
{
  int n = src->n;
  dst->n = n;
  dst->root = src->root;
  memcpy(dst->parent, src->parent, sizeof(int) * (size_t)n);
  memcpy(dst->child_start, src->child_start, sizeof(int) * ((size_t)n + 1));
  if (n > 1)
    memcpy(dst->children, src->children, sizeof(int) * ((size_t)n - 1));
}

/* out has storage for k nodes. */
static int has_room(const struct gc_tree *out, int k)
{
  return out->cap >= k && out->parent && out->child_start && out->children;
}

static int bad(double x)
{
  return isnan(x) || x < 0.0;
}

int gc_tree_scratch(struct gc_scratch *s, size_t nd, size_t ni, double **d, int **i)
{
  size_t mark = gc_scratch_mark(s);
  *d = gc_scratch_take(s, nd, sizeof(double));
  *i = gc_scratch_take(s, ni, sizeof(int));
  if (!*d || !*i) {
    gc_scratch_release(s, mark);
    return GC_TREE_ENOMEM;
  }
  return 0;
}

int gc_tree_start(const struct gc_tree_input *in, struct gc_tree *out)
{
  out->n = 0;
  if (!in || in->k < 1 || in->root < 0 || in->root >= in->k || !has_room(out, in->k))
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
  out->n = 0;
  if (k < 1 || !has_room(out, k))
    return GC_TREE_EINVAL;
  out->n = k;
  out->root = root;
  memset(out->child_start, 0, sizeof(int) * ((size_t)k + 1));
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
    out->n = 0;
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
  int k = t->n, *bfs;
  double *tail;
  size_t mark = gc_scratch_mark(in->scratch);
  if (gc_tree_scratch(in->scratch, 2 * (size_t)k, (size_t)k, &tail, &bfs) != 0)
    return GC_TREE_ENOMEM;
  double *q = tail + k;
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
  gc_scratch_release(in->scratch, mark);
  return 0;
}
