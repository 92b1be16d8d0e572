/* Broadcast trees over cluster leaders: pure C, no MPI.
 *
 * A tree spans the k clusters of one communicator (numbered as in struct gc_layout); the
 * root cluster holds the broadcast's root. Every builder (flat, binomial, HLOT, SPT,
 * greedy: one *_tree.c file each) reads the same input and fills the same struct, and
 * tree_exec.c runs any of them with PMPI. Children are stored in sending order (CSR):
 * the j-th child of c is children[child_start[c] + j] and is served j-th.
 *
 * Cost model (001 Eq. 2, corrected as in SPEC section 2): an edge c->n delivers after
 * lat(c,n) = W[c][n] (+ m/bw[c][n] with bandwidth) plus the receive overhead o_r, and
 * keeps c busy for gap(c,n) = o_s+g (+ m/bw[c][n]) before c can start its next send. */
#ifndef GC_TREE_H
#define GC_TREE_H

#include <stddef.h>
#include "tree_cost.h"

enum {
  GC_TREE_ENOMEM = -1, /* out of memory: nothing to free in the output */
  GC_TREE_EINVAL = -2  /* bad input (k < 1, root out of range, negative or NaN entries) */
};

struct gc_tree_input {
  int k;            /* clusters */
  int root;         /* root cluster, 0 <= root < k */
  const double *W;  /* [k*k] row-major one-way latency in seconds, W[c*k+n] from c to n;
                       NULL means every off-diagonal latency equals `uniform` */
  double uniform;   /* latency used when W is NULL */
  double send_gap;  /* o_s + g: time a sender is busy per message (s) */
  double recv_overhead; /* o_r (s) */
  const double *bw; /* optional [k*k] bandwidth in bytes/s per edge; NULL: ignore m */
  double bytes;     /* m: message size in bytes, used only with bw */
  const int *site;  /* optional [k] site of each cluster (equal numbers: one site), read
                       by the multilevel tree only; NULL: every cluster a site of its own */
};

/* The tree itself is model/tree_cost.h's struct gc_tree (n nodes = clusters, parent[],
 * children in sending order as CSR), so the models can cost any tree built here. */

/* Edge latency with serialisation (delivery starts lat after the send starts). */
static inline double gc_tree_edge_lat(const struct gc_tree_input *in, int c, int n)
{
  double w = in->W ? in->W[(size_t)c * (size_t)in->k + (size_t)n] : (c == n ? 0.0 : in->uniform);
  if (in->bw)
    w += in->bytes / in->bw[(size_t)c * (size_t)in->k + (size_t)n];
  return w;
}

/* Time the sender is busy with one message before it may start the next. */
static inline double gc_tree_edge_gap(const struct gc_tree_input *in, int c, int n)
{
  double g = in->send_gap;
  if (in->bw)
    g += in->bytes / in->bw[(size_t)c * (size_t)in->k + (size_t)n];
  return g;
}

/* Builders: 0, GC_TREE_ENOMEM or GC_TREE_EINVAL; on error `out` is zeroed.
 * All are deterministic (ties broken by cluster index), so every rank given the same
 * input builds the same tree. Children come out ordered by gc_tree_order_children. */
int gc_bcast_flat_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_binomial_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_hlot_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_spt_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_greedy_tree(const struct gc_tree_input *in, struct gc_tree *out);
int gc_bcast_multilevel_tree(const struct gc_tree_input *in, struct gc_tree *out);
/* The greedy tree's raw construction (earliest-completing edge first), before it is
 * compared with the others: see greedy_tree.c. */
int gc_bcast_greedy_ecef_tree(const struct gc_tree_input *in, struct gc_tree *out);

void gc_tree_free(struct gc_tree *t);

/* Shared by the builders (base_tree.c). gc_tree_start: zeroes `out` (so gc_tree_free
 * is always safe on it), then 0 or GC_TREE_EINVAL.
 * gc_tree_from_parents: CSR from parent[] (copied), children listed in the order of
 * `order` (a permutation of 0..k-1 beginning with the root, e.g. construction order). */
int gc_tree_start(const struct gc_tree_input *in, struct gc_tree *out);
/* A builder's working arrays in one allocation: ND doubles at *d, then NI ints at *i.
 * Returns the block to free(), or NULL when out of memory (return GC_TREE_ENOMEM). */
void *gc_tree_scratch(size_t nd, size_t ni, double **d, int **i);
int gc_tree_from_parents(int k, int root, const int *parent, const int *order,
                         struct gc_tree *out);
/* gc_tree_from_parents, then gc_tree_order_children: how every builder ends. */
int gc_tree_build(const struct gc_tree_input *in, const int *parent, const int *order,
                  struct gc_tree *out);

/* Cost model (cost_tree.c), local to the trees until model/ provides its own.
 * gc_tree_time: broadcast time among leaders, max over clusters of T(i) with
 *   position_aware = 0: 001 Eq. 2, T(i) = T(p) + (c-1)*(o_s+g) + lat(p,i) + o_r
 *     (c = children of p; with bandwidth each sibling's gap counts its own m/bw);
 *   position_aware = 1: the j-th child waits for the j-1 sends before it only.
 * Returns NaN when out of memory. With zero gaps and o_r it is 001 Eq. 3 and Eq. 4. */
double gc_tree_time(const struct gc_tree_input *in, const struct gc_tree *t, int position_aware);

/* Arrival time T[i] of every cluster under the same model: 0 or GC_TREE_ENOMEM. */
int gc_tree_arrivals(const struct gc_tree_input *in, const struct gc_tree *t,
                     int position_aware, double *T);

/* Reorders every children list so the child whose subtree finishes last is served
 * first (Jackson's rule, see cost_tree.c): 0 or GC_TREE_ENOMEM (tree unchanged). */
int gc_tree_order_children(const struct gc_tree_input *in, struct gc_tree *t);

#endif
