/* Shortest-path tree: Dijkstra from the root over lat(c,n) + o_r. It ignores the send
 * gaps, so under 001 Eq. 2 with o_s + g = 0 no tree reaches any cluster earlier: it is
 * the latency lower bound HLOT is compared with (reference.md section 4). On korea8 from A it
 * reaches G in 22 ms through H where the direct link takes 400 ms. O(k^2), no heap:
 * k is a few dozen clusters. Ties: the lower cluster index is settled first, and a
 * parent is only replaced by a strictly shorter path, so direct links win ties. */
#include "tree.h"


int gc_bcast_spt_tree(const struct gc_tree_input *in, struct gc_tree *out)
{
  int rc = gc_tree_start(in, out);
  if (rc != 0)
    return rc;
  int k = in->k, r = in->root;
  int *ibuf;
  double *dist;
  size_t mark = gc_scratch_mark(in->scratch);
  if (gc_tree_scratch(in->scratch, (size_t)k, 3 * (size_t)k, &dist, &ibuf) != 0)
    return GC_TREE_ENOMEM;
  int *parent = ibuf, *order = ibuf + k, *done = ibuf + 2 * k;
  for (int n = 0; n < k; n++) {
    done[n] = 0;
    parent[n] = n == r ? -1 : r;
    dist[n] = n == r ? 0.0 : gc_tree_edge_lat(in, r, n) + in->recv_overhead;
  }
  done[r] = 1;
  order[0] = r;
  for (int settled = 1; settled < k; settled++) {
    int c = -1;
    for (int m = 0; m < k; m++)
      if (!done[m] && (c < 0 || dist[m] < dist[c]))
        c = m;
    done[c] = 1;
    order[settled] = c;
    for (int m = 0; m < k; m++) {
      double d = dist[c] + gc_tree_edge_lat(in, c, m) + in->recv_overhead;
      if (!done[m] && d < dist[m]) {
        dist[m] = d;
        parent[m] = c;
      }
    }
  }
  rc = gc_tree_build(in, parent, order, out);
  gc_scratch_release(in->scratch, mark);
  return rc;
}
