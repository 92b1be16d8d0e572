/* Cost of a broadcast tree over clusters (001 Eq. 1, 2), for any tree.
 *
 * Trees are built elsewhere (HLOT, flat, binomial, shortest path...) and handed here as a
 * parent array plus the ordered children of each node: children[child_start[v] ..
 * child_start[v+1]-1] are v's children in the order v sends to them.  Nodes are clusters
 * (their leaders); the root's parent is -1.  Status codes are those of model.h. */
#ifndef GC_TREE_COST_H
#define GC_TREE_COST_H

#include <stddef.h>

struct gc_tree {
  int n;            /* nodes 0..n-1 */
  int root;
  int *parent;      /* [n], parent[root] == -1 */
  int *child_start; /* [n+1], child_start[0] == 0, child_start[n] == n-1 */
  int *children;    /* [n-1] every node but the root exactly once */
};

/* LogP-style wide-area parameters of 001 Eq. 2, plus the optional terms gridcoll adds. */
struct gc_model_tree_params {
  double o_s, g, o_r;      /* send overhead, gap, receive overhead, s (per message) */
  const double *latency;   /* [n*n] L(i,j), one-way, s; row = sender */
  const double *bandwidth; /* [n*n] bytes/s, or NULL: no message-size term */
  const double *local;     /* [n] intra-cluster broadcast time of each cluster, or NULL */
  size_t m;                /* message bytes (used only with bandwidth) */
};

/* 0 when t is a tree (consistent parent/children, every node reached from the root),
 * else GC_MODEL_EINVAL. */
int gc_model_tree_check(const struct gc_tree *t);

/* Arrival time T(i) of every node (times[n]); position = 0: 001 Eq. 2 as published,
 * every child of a c-child parent waits (c-1)(o_s+g); position = 1: the k-th child
 * (1-based, in send order) waits (k-1)(o_s+g). */
int gc_model_tree_times(const struct gc_tree *t, const struct gc_model_tree_params *p,
                        int position, double *times);
/* Broadcast time max_i (T(i) + local[i]) with T from 001 Eq. 2 as published. */
int gc_model_tree_001(const struct gc_tree *t, const struct gc_model_tree_params *p, double *out);
/* Same with the position-aware wait (k-1)(o_s+g). */
int gc_model_tree_001_position(const struct gc_tree *t, const struct gc_model_tree_params *p,
                               double *out);

#endif
