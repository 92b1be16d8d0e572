/* Two wide-area levels (001 section 4 and Fig. 4, MPICH-GX's light-WAN and heavy-WAN).
 *
 * Clusters are grouped into sites (`site = "org1";` in a cluster entry): links inside a
 * site are "relatively stable and uniform", links between sites heterogeneous. So the
 * heavy-WAN level, between sites, is HLOT over one sub-root per site, and the light-WAN
 * level, inside a site, a flat tree from the site's sub-root. The root's cluster is its
 * own site's sub-root; another site's is the cluster of that site the root reaches
 * soonest directly (lowest lat(root, c), then lowest index): the site's best entry.
 * Without sites (in->site NULL), or one cluster per site, it is HLOT. Children are then
 * ordered by Jackson's rule as in every builder. O(k^2).
 *
 * Scratch (model/scratch.h): the sub-roots' two matrices (2k^2 doubles at most) and 4k
 * ints, then the HLOT tree over the sites in storage of its own (gc_tree_ints(sites)
 * ints), given back before the final ordering (model/tree_cost.c: multilevel_need). */
#include "tree.h"

int gc_bcast_multilevel_tree(const struct gc_tree_input *in, struct gc_tree *out)
{
  int rc = gc_tree_start(in, out);
  if (rc != 0 || !in->site)
    return rc != 0 ? rc : gc_bcast_hlot_tree(in, out);
  int k = in->k, r = in->root;
  int *ibuf;
  double *dbuf;
  size_t mark = gc_scratch_mark(in->scratch);
  if (gc_tree_scratch(in->scratch, 2 * (size_t)k * (size_t)k, 4 * (size_t)k, &dbuf, &ibuf) != 0)
    return GC_TREE_ENOMEM;
  /* Sites numbered 0.. by first appearance, the root's site first (the HLOT root). */
  int *site_of = ibuf, *sub = ibuf + k, *parent = ibuf + 2 * k, *order = ibuf + 3 * k;
  int nsites = 0;
  for (int j = -1; j < k; j++) {
    int c = j < 0 ? r : j, s = 0;
    if (j == r)
      continue;
    while (s < nsites && in->site[sub[s]] != in->site[c])
      s++;
    if (s == nsites)
      sub[nsites++] = c; /* first seen: the root, then the lowest index */
    else if (s > 0 && gc_tree_edge_lat(in, r, c) < gc_tree_edge_lat(in, r, sub[s]))
      sub[s] = c;
    site_of[c] = s;
  }
  /* The heavy-WAN level: HLOT over the sub-roots, same costs restricted to them. */
  double *W = dbuf, *bw = dbuf + (size_t)nsites * (size_t)nsites;
  for (int a = 0; a < nsites; a++)
    for (int b = 0; b < nsites; b++) {
      size_t from = (size_t)sub[a] * (size_t)k + (size_t)sub[b], to = (size_t)a * nsites + b;
      W[to] = in->W ? in->W[from] : a == b ? 0.0 : in->uniform;
      if (in->bw)
        bw[to] = in->bw[from];
    }
  struct gc_tree_input sin = *in;
  sin.k = nsites, sin.root = 0, sin.W = W, sin.bw = in->bw ? bw : NULL, sin.site = NULL;
  sin.curve = NULL; /* indexed by cluster, not by site */
  sin.nic = NULL; /* indexed by cluster, and HLOT reads no gaps */
  struct gc_tree top;
  size_t arrays = gc_scratch_mark(in->scratch);
  if ((rc = gc_tree_take(&top, in->scratch, nsites)) == 0)
    rc = gc_bcast_hlot_tree(&sin, &top);
  if (rc == 0) {
    /* The light-WAN level: every other cluster of a site hangs off its sub-root. */
    for (int c = 0; c < k; c++)
      parent[c] = c == sub[site_of[c]] ? (site_of[c] == 0 ? -1 : sub[top.parent[site_of[c]]])
                                       : sub[site_of[c]];
    order[0] = r;
    for (int c = 0, n = 1; c < k; c++)
      if (c != r)
        order[n++] = c;
    gc_scratch_release(in->scratch, arrays); /* top is read no more */
    rc = gc_tree_build(in, parent, order, out);
  }
  gc_scratch_release(in->scratch, mark);
  if (rc != 0)
    out->n = 0;
  return rc;
}
