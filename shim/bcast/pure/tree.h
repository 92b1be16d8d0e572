/* Broadcast trees over cluster leaders: pure C, no MPI.
 *
 * A tree spans the k clusters of one communicator (numbered as in struct gc_layout); the
 * root cluster holds the broadcast's root. Every builder (flat, binomial, HLOT, SPT,
 * greedy: one *_tree.c file each) reads the same input and fills the same struct, and
 * tree_exec.c runs any of them with PMPI. Children are stored in sending order (CSR):
 * the j-th child of c is children[child_start[c] + j] and is served j-th.
 *
 * Their cost (what the builders minimise and what the prediction charges) is the model's,
 * model/tree_cost.h: an edge c->n delivers after gc_tree_edge_lat(c,n) plus the receive
 * overhead o_r, and keeps c busy for gc_tree_edge_gap(c,n) before its next send. */
#ifndef GC_TREE_H
#define GC_TREE_H

#include <stddef.h>
#include "tree_cost.h"

enum {
  GC_TREE_ENOMEM = -1, /* out of working memory: no scratch, or one below the bound
                          (model/scratch.h), which never happens to a network view's */
  GC_TREE_EINVAL = -2  /* bad input (k < 1, root out of range, negative or NaN entries), or
                          an output without room for k nodes */
};

/* The tree (struct gc_tree), its input (struct gc_tree_input), the edge costs every
 * builder minimises and the cost of a whole tree are model/tree_cost.h's: one formula,
 * "tree-nic-fanout", for building, ordering and predicting. */

/* Builders: 0, GC_TREE_ENOMEM or GC_TREE_EINVAL. `out` holds storage for in->k nodes at
 * least (gc_tree_place, gc_tree_take): the builder fills it and allocates nothing, its
 * working arrays taken from in->scratch and given back before it returns (each builder
 * says what it takes; model/tree_cost.c: gc_tree_row_scratch adds them up). On error
 * out->n is 0. All are deterministic (ties broken by cluster index), so every rank given
 * the same input builds the same tree. Children come out ordered by
 * gc_tree_order_children. */
int gc_bcast_flat_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_binomial_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_hlot_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_spt_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_greedy_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_multilevel_tree(const struct gc_tree_input *in, struct gc_tree *out);
/* The greedy tree's raw construction (earliest-completing edge first), before it is
 * compared with the others: see greedy_tree.c. */
int gc_bcast_greedy_ecef_tree(const struct gc_tree_input *in, struct gc_tree *out);

/* Storage for a tree of k nodes from the scratch (gc_tree_ints(k) ints, given back with
 * the caller's gc_scratch_release): 0 or GC_TREE_ENOMEM. */
int gc_tree_take(struct gc_tree *t, struct gc_scratch *s, int k);
/* src into dst's storage (room for src->n nodes at least). */
void gc_tree_copy(struct gc_tree *dst, const struct gc_tree *src);

/* Shared by the builders (tree.c). gc_tree_start: out->n = 0, then 0, or GC_TREE_EINVAL
 * for a bad input or an output without room for in->k nodes.
 * gc_tree_from_parents: CSR from parent[] (copied) into out's storage (room for k nodes,
 * else GC_TREE_EINVAL), children listed in the order of `order` (a permutation of
 * 0..k-1 beginning with the root, e.g. construction order). */
int gc_tree_start(const struct gc_tree_input *in, struct gc_tree *out);
/* A builder's working arrays from the scratch: ND doubles at *d, then NI ints at *i.
 * 0, or GC_TREE_ENOMEM (nothing taken). */
int gc_tree_scratch(struct gc_scratch *s, size_t nd, size_t ni, double **d, int **i);
int gc_tree_from_parents(int k, int root, const int *parent, const int *order,
                         struct gc_tree *out);
/* gc_tree_from_parents, then gc_tree_order_children: how every builder ends. */
int gc_tree_build(const struct gc_tree_input *in, const int *parent, const int *order,
                  struct gc_tree *out);

/* Reorders every children list so the child whose subtree finishes last is served
 * first (Jackson's rule, see tree.c): 0 or GC_TREE_ENOMEM (tree unchanged). Takes 2k
 * doubles and k ints of in->scratch. */
int gc_tree_order_children(const struct gc_tree_input *in, struct gc_tree *t);

#endif
