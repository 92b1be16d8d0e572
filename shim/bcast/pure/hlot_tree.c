/* HLOT: hierarchical latency-optimal tree (001 Fig. 3, corrected as in reference.md section 4).
 *
 *   Y = {root}; D[root] = 0
 *   while some cluster is not in Y:
 *     take the cheapest edge (c in Y, n not in Y) by W[c][n] still allowed
 *     if D[c] + W[c][n] > W[root][n]: disallow (c, n), continue   -- direct link wins
 *     add n to Y (the figure says c); add (c, n) to F; D[n] = D[c] + W[c][n]
 *
 * Whether (c, n) is allowed depends only on D[c], fixed once c joins Y, and on
 * W[root][n]: so the edges can be filtered when c joins instead of being tried and
 * disallowed later, which is Prim's algorithm on the allowed edges, O(k^2). The root's
 * edges are always allowed (D[root] = 0), so every cluster is reached, never later than
 * by the flat tree. Ties: the lower cluster index n, then the c that joined Y first.
 * With bandwidth in the input, W[c][n] is read as lat(c,n) = W[c][n] + m/bw[c][n]. */
#include "tree.h"


int gc_bcast_hlot_tree(const struct gc_tree_input *in, struct gc_tree *out)
{
  int rc = gc_tree_start(in, out);
  if (rc != 0)
    return rc;
  int k = in->k, r = in->root;
  int *ibuf;
  double *dbuf;
  size_t mark = gc_scratch_mark(in->scratch);
  if (gc_tree_scratch(in->scratch, 2 * (size_t)k, 4 * (size_t)k, &dbuf, &ibuf) != 0)
    return GC_TREE_ENOMEM;
  int *parent = ibuf, *order = ibuf + k, *in_y = ibuf + 2 * k, *best_c = ibuf + 3 * k;
  double *D = dbuf, *best = dbuf + k; /* best[n]: cheapest allowed W[c][n], c in Y */
  for (int n = 0; n < k; n++) {
    in_y[n] = n == r;
    parent[n] = -1;
    best[n] = gc_tree_edge_lat(in, r, n);
    best_c[n] = r;
  }
  D[r] = 0.0;
  order[0] = r;
  for (int added = 1; added < k; added++) {
    int n = -1;
    for (int m = 0; m < k; m++)
      if (!in_y[m] && (n < 0 || best[m] < best[n]))
        n = m;
    int c = best_c[n];
    in_y[n] = 1;
    parent[n] = c;
    D[n] = D[c] + best[n];
    order[added] = n;
    for (int m = 0; m < k; m++) {
      if (in_y[m])
        continue;
      double w = gc_tree_edge_lat(in, n, m);
      int allowed = !(D[n] + w > gc_tree_edge_lat(in, r, m));
      if (allowed && w < best[m]) {
        best[m] = w;
        best_c[m] = n;
      }
    }
  }
  rc = gc_tree_build(in, parent, order, out);
  gc_scratch_release(in->scratch, mark);
  return rc;
}
