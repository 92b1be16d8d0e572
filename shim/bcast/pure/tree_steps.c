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
    out[n++] = (struct gc_nbc_step){0, GC_NBC_RECV, member_at(l, c, lead, v - low), 0};
  } else if (c != t->root) {
    out[n++] = (struct gc_nbc_step){0, GC_NBC_RECV, leader_of(l, t, root, t->parent[c]), 0};
  }
  if (v == 0)
    for (int j = t->child_start[c]; j < t->child_start[c + 1]; j++)
      out[n++] = (struct gc_nbc_step){1, GC_NBC_SEND, leader_of(l, t, root, t->children[j]), 0};
  int top = 1;
  while (top * 2 < low && top * 2 < cs)
    top *= 2;
  for (int b = top; b >= 1; b /= 2)
    if (b < low && v + b < cs)
      out[n++] = (struct gc_nbc_step){1, GC_NBC_SEND, member_at(l, c, lead, v + b), 0};
  return n;
}
