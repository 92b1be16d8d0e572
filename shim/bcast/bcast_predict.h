/* Predicted time of each broadcast algorithm for a call, and the tree input every tree
 * is built from: pure C, no MPI. The run and the prediction build their tree from the
 * same gc_bcast_tree_input, so the tree that runs is the tree that was predicted. */
#ifndef GC_BCAST_PREDICT_H
#define GC_BCAST_PREDICT_H

#include "layout.h"
#include "network.h"
#include "tree.h"

/* Tree input for a broadcast of m bytes from communicator rank `root`: the configured
 * one-way latencies and bandwidths between the communicator's clusters, and as send gap
 * (o_s + g of 001 Eq. 2) the start-up time alpha of the root's cluster network. */
void gc_bcast_tree_input(const struct gc_network *net, const struct gc_layout *layout, int root,
                         double m, struct gc_tree_input *in);

/* Predicted seconds of a broadcast along `tree`, built from `in` (gc_bcast_tree_input):
 * model/'s "tree-nic-fanout" (gc_model_bcast_tree), each cluster's own broadcast
 * costed as the native one on that cluster. -1 when out of memory. The tree algorithms'
 * _predict below are build + this. */
double gc_bcast_tree_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_tree_input *in, const struct gc_tree *tree);

/* Seconds, or -1 when no model applies; *model names the model. */
double gc_bcast_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                               double m, int root, const char **model);
double gc_bcast_flat_predict(const struct gc_network *net, const struct gc_layout *layout,
                             double m, int root, const char **model);
double gc_bcast_binomial_predict(const struct gc_network *net, const struct gc_layout *layout,
                                 double m, int root, const char **model);
double gc_bcast_hlot_predict(const struct gc_network *net, const struct gc_layout *layout,
                             double m, int root, const char **model);
double gc_bcast_spt_predict(const struct gc_network *net, const struct gc_layout *layout,
                            double m, int root, const char **model);
double gc_bcast_greedy_predict(const struct gc_network *net, const struct gc_layout *layout,
                               double m, int root, const char **model);
double gc_bcast_multilevel_predict(const struct gc_network *net, const struct gc_layout *layout,
                                   double m, int root, const char **model);

#endif
