/* Greedy tree built by the cost model itself: earliest-completing edge first (ECEF),
 * kept only when the model rates it no later than the other trees.
 *
 * Each cluster c in the tree has a ready time: when it has the data and has finished
 * the sends it already took on. Repeatedly add the edge (c in tree, n outside) that
 * delivers first, ready(c) + lat(c,n) + o_r, then ready(c) grows by gap(c,n) = o_s + g
 * (+ m/bw). Unlike HLOT and SPT, a parent pays for every extra child, so a busy hub
 * hands clusters to a slightly farther but idle leader (reference.md section 4: "a tree that
 * also charges each extra child its send gap can beat all of them"). With zero gaps it
 * is Dijkstra, the SPT. Construction order is the order its model charged; children are
 * then re-ordered by Jackson's rule (tree.c: gc_tree_order_children), which can only make it earlier.
 * O(k^2) typically: best[m] is recomputed in full only when its best parent got busier.
 *
 * ECEF alone is myopic: it spends a parent's early slots on whichever cluster it can
 * reach soonest, not on the one that matters. On random triangle-violating matrices
 * (check_trees.c, greedy_with_gaps) it came out later than HLOT in about 4% of cases
 * (up to 1.4x), and on korea8 from A with 5 ms gaps at 44 ms against the SPT's 39 ms.
 * So gc_bcast_greedy_tree also builds flat, binomial, HLOT and SPT (microseconds
 * each) and returns whichever the position-aware model finishes first, ECEF on ties:
 * by construction it is never later than any of them under that model.
 *
 * Scratch (model/scratch.h): ECEF takes 2k doubles and 4k ints, then orders its tree;
 * the comparison holds one other tree's storage (gc_tree_ints(k) ints) while that tree is
 * built and costed (model/tree_cost.c: greedy_need). */
#include "tree.h"

#include <math.h>

static void best_parent(const struct gc_tree_input *in, const int *in_tree,
                        const double *ready, int m, double *best, int *best_c)
{
  best[m] = -1.0;
  for (int x = 0; x < in->k; x++) {
    if (!in_tree[x])
      continue;
    double v = ready[x] + gc_tree_edge_lat(in, x, m) + in->recv_overhead;
    if (best[m] < 0.0 || v < best[m]) {
      best[m] = v;
      best_c[m] = x;
    }
  }
}

int gc_bcast_greedy_ecef_tree(const struct gc_tree_input *in, struct gc_tree *out)
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
  int *parent = ibuf, *order = ibuf + k, *in_tree = ibuf + 2 * k, *best_c = ibuf + 3 * k;
  double *ready = dbuf, *best = dbuf + k; /* best[m]: earliest delivery to m so far */
  for (int n = 0; n < k; n++) {
    in_tree[n] = n == r;
    parent[n] = -1;
    ready[n] = 0.0;
  }
  for (int m = 0; m < k; m++)
    if (m != r)
      best_parent(in, in_tree, ready, m, best, best_c);
  order[0] = r;
  for (int added = 1; added < k; added++) {
    int n = -1;
    for (int m = 0; m < k; m++)
      if (!in_tree[m] && (n < 0 || best[m] < best[n]))
        n = m;
    int c = best_c[n];
    in_tree[n] = 1;
    parent[n] = c;
    order[added] = n;
    ready[n] = best[n];
    ready[c] += gc_tree_edge_gap(in, c, n);
    for (int m = 0; m < k; m++) {
      if (in_tree[m])
        continue;
      if (best_c[m] == c) { /* its best parent is busier now: look again */
        best_parent(in, in_tree, ready, m, best, best_c);
        continue;
      }
      double v = ready[n] + gc_tree_edge_lat(in, n, m) + in->recv_overhead;
      /* Earlier, or a tie (neither earlier) won by the lower cluster index. */
      if (v < best[m] || (!(best[m] < v) && n < best_c[m])) {
        best[m] = v;
        best_c[m] = n;
      }
    }
  }
  rc = gc_tree_build(in, parent, order, out);
  gc_scratch_release(in->scratch, mark);
  return rc;
}

int gc_bcast_greedy_tree(const struct gc_tree_input *in, struct gc_tree *out)
{
  static int (*const others[])(const struct gc_tree_input *, struct gc_tree *) = {
    gc_bcast_hlot_tree, gc_bcast_spt_tree, gc_bcast_flat_tree, gc_bcast_binomial_tree,
  };
  int rc = gc_bcast_greedy_ecef_tree(in, out);
  if (rc != 0)
    return rc;
  double best = 0, time = 0;
  int cost_rc = gc_model_tree_leaders(in, out, &best);
  /* Each other tree goes into storage of its own from the scratch, and into out only
   * when it is earlier: what it took is given back before the next. */
  size_t mark = gc_scratch_mark(in->scratch);
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
    struct gc_tree t;
    if (cost_rc != 0 || (rc = gc_tree_take(&t, in->scratch, in->k)) != 0 ||
        (rc = others[i](in, &t)) != 0 || (cost_rc = gc_model_tree_leaders(in, &t, &time)) != 0) {
      gc_scratch_release(in->scratch, mark);
      out->n = 0;
      return GC_TREE_ENOMEM; /* the input was checked: only memory can fail here */
    }
    if (time < best) {
      gc_tree_copy(out, &t);
      best = time;
    }
    gc_scratch_release(in->scratch, mark);
  }
  return 0;
}
