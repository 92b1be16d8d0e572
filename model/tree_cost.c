/* Cost of any broadcast tree over clusters: "tree-001-position" (see tree_cost.h).
 *
 * 001 Eq. 2: T(i) = T(j) + (c-1)(o_s + g) + L(j,i) + o_r, T(root) = 0, j = parent of i,
 * c = number of children of j.  A parent sends to its children one after the other, so
 * its k-th child waits only for the k-1 sends before it; with a bandwidth matrix each of
 * those sends also keeps the parent busy for its own m/bw (gc_tree_edge_gap).  001 Eq. 1
 * prints the broadcast time as a sum over processes of a max; the text ("selecting
 * maximum value of completion times") and Eq. 3-4 make it max_i T(i).
 *
 * The arrivals are computed in one breadth-first pass: O(n) after the O(n * depth) check
 * that the tree is one; n is a number of clusters. */
#include "model.h"
#include "model_util.h"

#include <stdlib.h>

int gc_model_tree_check(const struct gc_tree *t)
{
  if (!t || t->n < 1 || t->root < 0 || t->root >= t->n || !t->parent || !t->child_start ||
      (t->n > 1 && !t->children))
    return GC_MODEL_EINVAL;
  int n = t->n;
  if (t->parent[t->root] != -1 || t->child_start[0] != 0 || t->child_start[n] != n - 1)
    return GC_MODEL_EINVAL;
  /* Ranges first, so that the walks below never index outside the arrays. */
  for (int v = 0; v < n; v++)
    if ((v != t->root && (t->parent[v] < 0 || t->parent[v] >= n)) ||
        t->child_start[v + 1] < t->child_start[v])
      return GC_MODEL_EINVAL;
  for (int v = 0; v < n; v++) {
    for (int x = t->child_start[v]; x < t->child_start[v + 1]; x++) {
      int c = t->children[x];
      if (c < 0 || c >= n || c == t->root || t->parent[c] != v)
        return GC_MODEL_EINVAL;
    }
  }
  for (int v = 0; v < n; v++) {
    if (v == t->root)
      continue;
    int u = t->parent[v], seen = 0;
    for (int x = t->child_start[u]; x < t->child_start[u + 1]; x++)
      seen += t->children[x] == v;
    if (seen != 1)
      return GC_MODEL_EINVAL;
    /* The root must be reached within n - 1 steps, else there is a cycle. */
    int steps = 0;
    while (u != -1 && steps < n)
      u = t->parent[u], steps++;
    if (u != -1)
      return GC_MODEL_EINVAL;
  }
  return GC_MODEL_OK;
}

int gc_tree_bfs_order(const struct gc_tree *t, int *order)
{
  int head = 0, tail = 0;
  order[tail++] = t->root;
  while (head < tail && tail <= t->n) {
    int c = order[head++];
    for (int j = t->child_start[c]; j < t->child_start[c + 1] && tail < t->n; j++)
      order[tail++] = t->children[j];
  }
  return tail;
}

int gc_model_tree_arrivals(const struct gc_tree_input *in, const struct gc_tree *t,
                           double *times)
{
  if (!in || !times || gc_model_tree_check(t) != GC_MODEL_OK || in->k != t->n ||
      in->root != t->root)
    return GC_MODEL_EINVAL;
  int *bfs = malloc(sizeof(int) * (size_t)t->n);
  if (!bfs)
    return GC_MODEL_ENOMEM;
  gc_tree_bfs_order(t, bfs);
  times[t->root] = 0.0;
  for (int h = 0; h < t->n; h++) {
    int c = bfs[h], first = t->child_start[c], end = t->child_start[c + 1];
    double before = 0.0; /* the gaps of the siblings served earlier */
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      times[n] = times[c] + before + gc_tree_edge_lat(in, c, n) + in->recv_overhead;
      before += gc_tree_edge_gap(in, c, n);
    }
  }
  free(bfs);
  return GC_MODEL_OK;
}

int gc_model_tree_leaders(const struct gc_tree_input *in, const struct gc_tree *t, double *out)
{
  if (!out || !t || t->n < 1)
    return GC_MODEL_EINVAL;
  double *T = malloc(sizeof(double) * (size_t)t->n);
  if (!T)
    return GC_MODEL_ENOMEM;
  int rc = gc_model_tree_arrivals(in, t, T);
  if (rc == GC_MODEL_OK) {
    double worst = 0.0;
    for (int i = 0; i < t->n; i++)
      worst = gc_model_max(worst, T[i]);
    *out = worst;
  }
  free(T);
  return rc;
}

int gc_model_bcast_tree(const struct gc_tree_input *in, const struct gc_tree *t,
                        const double *local, double *out)
{
  if (!out || !local || !t || t->n < 1)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < t->n; i++)
    if (!gc_model_param_ok(local[i]))
      return GC_MODEL_EINVAL;
  double *T = malloc(sizeof(double) * (size_t)t->n);
  if (!T)
    return GC_MODEL_ENOMEM;
  int rc = gc_model_tree_arrivals(in, t, T);
  if (rc == GC_MODEL_OK) {
    double worst = -1.0;
    for (int i = 0; i < t->n; i++)
      worst = fmax(worst, T[i] + local[i]);
    *out = worst;
  }
  free(T);
  return rc;
}
