/* The broadcast algorithms as pure rows: name, description, formula and, for the trees,
 * the builder (pure C, no MPI). The library's table (bcast.c) points at these rows and
 * adds the MPI side (supports, run); gridcoll-predict reads them directly. */
#ifndef GC_BCAST_ALGORITHMS_H
#define GC_BCAST_ALGORITHMS_H

#include "algorithm.h"
#include "layout.h"
#include "network.h"
#include "shape.h"
#include "tree.h"
#include "tree_cache.h"

/* Tree input for a broadcast of m bytes from communicator rank `root`: the configured
 * one-way latencies and bandwidths between the communicator's clusters, and as send gap
 * (o_s + g of 001 Eq. 2) the start-up time alpha of the root's cluster network; the view's
 * scratch as the builders' and the cost's working memory. The run and the prediction
 * build their tree from it, so the tree that runs is the one predicted. */
void gc_bcast_tree_input(const struct gc_network *net, const struct gc_layout *layout, int root,
                         double m, struct gc_tree_input *in);

/* Predicted seconds of a broadcast along `tree`, built from `in` (gc_bcast_tree_input):
 * model/'s "tree-nic-fanout" (gc_model_bcast_tree), each cluster's own broadcast
 * costed as the native one on that cluster (k doubles of in->scratch). -1 when the
 * scratch is short (never, at the bound: model/tree_cost.h, gc_tree_row_scratch). The
 * tree algorithms' _predict below are build (into storage from the scratch) + this. */
double gc_bcast_tree_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_tree_input *in, const struct gc_tree *tree);

/* Seconds for a broadcast of shape->m bytes from shape->root (algorithm.h), or -1 when
 * no model applies; *model names the model. */
gc_model_predict gc_bcast_native_predict, gc_bcast_flat_predict, gc_bcast_binomial_predict,
    gc_bcast_hlot_predict, gc_bcast_spt_predict, gc_bcast_greedy_predict,
    gc_bcast_multilevel_predict;

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_bcast_id {
  GC_BCAST_NATIVE,
  GC_BCAST_FLAT,
  GC_BCAST_BINOMIAL,
  GC_BCAST_HLOT,
  GC_BCAST_SPT,
  GC_BCAST_GREEDY,
  GC_BCAST_MULTILEVEL,
  GC_BCAST_LAST
};

/* The rows; a tree algorithm's has its builder (tree.h). */
extern const struct gc_model_row gc_bcast_models[GC_BCAST_LAST];

#endif
