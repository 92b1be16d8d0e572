/* A broadcast tree as a nonblocking schedule (tree_steps.h). */
#include "tree_steps.h"

static int leader_of(const struct gc_layout *l, const struct gc_tree *t, int root, int c)
{
  return c == t->root ? root : gc_layout_leader(l, c);
}

/* The rank of the member at binomial position v of cluster c rooted at index lead. */
static int member_at(const struct gc_layout *l, int c, int lead, int v)
{
  return gc_layout_member(l, c, (v + lead) % l->cluster_size[c]);
}

int gc_bcast_tree_steps(const struct gc_layout *l, const struct gc_tree *t, int root, int rank,
                        struct gc_nbc_step *out)
{
  if (!t || t->n != l->nclusters || root < 0 || root >= l->size || rank < 0 ||
      rank >= l->size || t->root != l->cluster_of[root])
    return -1;
  int c = l->cluster_of[rank], cs = l->cluster_size[c], n = 0;
  int lead = l->index_in_cluster[leader_of(l, t, root, c)];
  int v = (l->index_in_cluster[rank] - lead + cs) % cs; /* binomial position */
  /* The binomial tree of MPICH's MPI_Bcast: v's parent clears its lowest set bit, its
   * children are v + 2^j for 2^j below that bit. */
  int low = cs; /* past every child at the leader */
  if (v > 0) {
    low = v & -v;
    out[n++] = (struct gc_nbc_step){0, GC_NBC_RECV, member_at(l, c, lead, v - low), 0, 0};
  } else if (c != t->root) {
    out[n++] = (struct gc_nbc_step){0, GC_NBC_RECV, leader_of(l, t, root, t->parent[c]), 0, 0};
  }
  if (v == 0)
    for (int j = t->child_start[c]; j < t->child_start[c + 1]; j++)
      out[n++] = (struct gc_nbc_step){1, GC_NBC_SEND, leader_of(l, t, root, t->children[j]), 0, 0};
  int top = 1;
  while (top * 2 < low && top * 2 < cs)
    top *= 2;
  for (int b = top; b >= 1; b /= 2)
    if (b < low && v + b < cs)
      out[n++] = (struct gc_nbc_step){1, GC_NBC_SEND, member_at(l, c, lead, v + b), 0, 0};
  return n;
}

int gc_bcast_tree_steps_bound(const struct gc_layout *l, int rank)
{
  int cs = l->cluster_size[l->cluster_of[rank]], bits = 0;
  for (int b = 1; b < cs; b *= 2) /* the binomial children of a position: one per bit */
    bits++;
  return 1 + (l->nclusters - 1) + bits;
}

int gc_bcast_tree_segment_steps(const struct gc_nbc_step *whole, int n, int nseg, int ahead,
                                struct gc_nbc_step *out)
{
  if (nseg < 1 || ahead < 1 || n < 0)
    return -1;
  if (ahead > nseg) /* every receive at round 0 already */
    ahead = nseg;
  int has_parent = n > 0 && whole[0].kind == GC_NBC_RECV, out_n = 0;
  const struct gc_nbc_step *kids = whole + has_parent;
  int nkids = n - has_parent;
  /* The root's round s sends segment s; another rank's round s + 1 forwards it, once its
   * receive, due at round s, completed. */
  int last_round = has_parent ? nseg : nseg - 1;
  for (int r = 0; r <= last_round; r++) {
    if (has_parent) { /* receives: segments [0, ahead) at round 0, then one a round */
      int from = r == 0 ? 0 : r + ahead - 1, to = r == 0 ? ahead : r + ahead;
      for (int s = from; s < to && s < nseg; s++)
        out[out_n++] = (struct gc_nbc_step){r, GC_NBC_RECV, whole[0].peer, s, s - r};
    }
    int s = has_parent ? r - 1 : r;
    if (s >= 0)
      for (int k = 0; k < nkids; k++)
        out[out_n++] = (struct gc_nbc_step){r, GC_NBC_SEND, kids[k].peer, s, ahead};
  }
  return out_n;
}
