/* The broadcast rows (bcast_algorithms.h) and their formulas: the tree input every tree
 * is built from, each algorithm's predicted time from the models of model/. */
#include "bcast_algorithms.h"

#include "model.h"
#include "segment_schedule.h"

void gc_bcast_tree_input(const struct gc_network *net, const struct gc_layout *layout, int root,
                         double m, struct gc_tree_input *in)
{
  int rc = layout->cluster_of[root];
  *in = (struct gc_tree_input){
      .k = layout->nclusters,
      .root = rc,
      .W = net->latency,
      .send_gap = net->lan[rc].alpha,
      .recv_overhead = 0,
      .bw = net->bandwidth,
      .bytes = m,
      .nic = net->nic,
      .segment = net->segment,
      .seg_ahead = GC_BCAST_RECV_AHEAD,
      .seg_requests = GC_BCAST_SEND_REQS,
      .window = net->grid.window,
      .local_sends = net->local_sends,
      .local_latency = net->local_alpha,
      .site = net->site,
      .curve = net->grid.wan_curve,
      .scratch = net->grid.scratch,
  };
}

/* Each leader's own cluster broadcast: a binomial tree over its members, 004 Eq. 8 when
 * the configuration gives the cluster's processors, else the Hockney form (or the cluster's
 * curve, model/link.c). Eq. 8 is rooted
 * at member 0; the cluster's processors share one C, t and rate, so the binomial tree costs
 * the same from whichever member the library roots it at. */
static double cluster_bcast(const struct gc_network *net, const struct gc_layout *layout, int c,
                            double m)
{
  double t = 0;
  struct gc_model_hetero h;
  if (gc_network_hetero(net, layout, c, &h) == 0)
    return gc_model_hetero_bcast_binomial(&h, 0, (size_t)m, net->hetero[c].Gamma,
                                          net->hetero[c].tau, &t) == 0 ? t : 0;
  const struct gc_lan *lan = &net->lan[c];
  if (gc_model_bcast_binomial_lan(layout->cluster_size[c], (size_t)m, lan, &t) != 0)
    return 0;
  return t;
}

/* "tree-nic-fanout" (model/tree_cost.c): the leaders' tree, then each cluster's own
 * broadcast from the moment its leader has the message. */
double gc_bcast_tree_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_tree_input *in, const struct gc_tree *tree)
{
  size_t mark = gc_scratch_mark(in->scratch);
  double *local = gc_scratch_take(in->scratch, (size_t)layout->nclusters, sizeof(double));
  if (!local)
    return -1;
  for (int c = 0; c < layout->nclusters; c++)
    local[c] = cluster_bcast(net, layout, c, in->bytes);
  double t = -1;
  if (gc_model_bcast_tree(in, tree, local, &t) != 0)
    t = -1;
  gc_scratch_release(in->scratch, mark);
  return t;
}

static double tree_predict(gc_tree_builder build, const struct gc_network *net,
                           const struct gc_layout *layout, const struct gc_shape *shape,
                           const char **model)
{
  *model = gc_model_name(GC_MODEL_TREE_NIC_FANOUT);
  if (layout->nclusters < 2)
    return -1;
  struct gc_tree_input in;
  struct gc_tree tree;
  gc_bcast_tree_input(net, layout, shape->root, shape->m, &in);
  /* The tree's storage from the scratch too (a cached tree has its entry's). */
  size_t mark = gc_scratch_mark(in.scratch);
  double t = -1;
  if (gc_tree_take(&tree, in.scratch, in.k) == 0 && build(&in, &tree) == 0)
    t = gc_bcast_tree_predict(net, layout, &in, &tree);
  gc_scratch_release(in.scratch, mark);
  return t;
}

/* The MPI library's binomial tree over ranks. One cluster: ceil(log2 P)(alpha + m beta),
 * or rounds of the cluster's curve where the configuration measured one
 * ("binomial-hockney"), or 004 Eq. 8 when the configuration gives the cluster's processors
 * ("hetero-004-bcast"). Several: "binomial-grid", Hockney per edge. */
double gc_bcast_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                               const struct gc_shape *shape, const char **model)
{
  double t = gc_network_native(net, layout, shape->root, shape->m), m = shape->m;
  int root = shape->root;
  struct gc_model_hetero h;
  if (t >= 0) { /* measured on this layout, from the root's cluster */
    *model = gc_model_name(GC_MODEL_MEASURED);
  } else if (layout->nclusters == 1 && gc_network_hetero(net, layout, 0, &h) == 0) {
    /* node x is communicator rank x (one cluster: members in rank order), and
     * gc_model_hetero_bcast_binomial walks the same relative-rank tree as MPICH. */
    *model = gc_model_name(GC_MODEL_HETERO_BCAST);
    if (gc_model_hetero_bcast_binomial(&h, root, (size_t)m, net->hetero[0].Gamma,
                                       net->hetero[0].tau, &t) != 0)
      t = -1;
  } else if (layout->nclusters == 1) {
    *model = gc_model_name(GC_MODEL_BINOMIAL_HOCKNEY);
    if (gc_model_bcast_binomial_lan(layout->size, (size_t)m, &net->lan[0], &t) != 0)
      t = -1;
  } else {
    *model = gc_model_name(GC_MODEL_BINOMIAL_GRID);
    if (gc_model_bcast_binomial_grid(&net->grid, layout->size, root, layout->cluster_of,
                                     (size_t)m, net->eager, &t) != 0)
      t = -1;
  }
  return t;
}

double gc_bcast_flat_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_flat_tree, net, layout, shape, model);
}

double gc_bcast_binomial_predict(const struct gc_network *net, const struct gc_layout *layout,
                                 const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_binomial_tree, net, layout, shape, model);
}

double gc_bcast_hlot_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_hlot_tree, net, layout, shape, model);
}

double gc_bcast_spt_predict(const struct gc_network *net, const struct gc_layout *layout,
                            const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_spt_tree, net, layout, shape, model);
}

double gc_bcast_greedy_predict(const struct gc_network *net, const struct gc_layout *layout,
                               const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_greedy_tree, net, layout, shape, model);
}

double gc_bcast_multilevel_predict(const struct gc_network *net, const struct gc_layout *layout,
                                   const struct gc_shape *shape, const char **model)
{
  return tree_predict(gc_bcast_multilevel_tree, net, layout, shape, model);
}

const struct gc_model_row gc_bcast_models[GC_BCAST_LAST] = {
    [GC_BCAST_NATIVE] = {.about = {.name = "native", .desc = "the MPI library's own MPI_Bcast"},
                         .predict = gc_bcast_native_predict},
    [GC_BCAST_FLAT] = {.about = {.name = "flat",
                                 .desc = "flat tree: the root sends to every cluster leader "
                                         "(MagPIe)"},
                       .predict = gc_bcast_flat_predict,
                       .build = gc_bcast_flat_tree},
    [GC_BCAST_BINOMIAL] = {.about = {.name = "binomial",
                                     .desc = "binomial tree over cluster leaders"},
                           .predict = gc_bcast_binomial_predict,
                           .build = gc_bcast_binomial_tree},
    [GC_BCAST_HLOT] = {.about = {.name = "hlot",
                                 .desc = "HLOT: relays only where no cluster is reached later "
                                         "than by flat (001)"},
                       .predict = gc_bcast_hlot_predict,
                       .build = gc_bcast_hlot_tree},
    [GC_BCAST_SPT] = {.about = {.name = "spt",
                                .desc = "shortest-path tree from the root (Dijkstra): the "
                                        "latency lower bound"},
                      .predict = gc_bcast_spt_predict,
                      .build = gc_bcast_spt_tree},
    [GC_BCAST_GREEDY] = {.about = {.name = "greedy",
                                   .desc = "model-built tree: earliest completion, each extra "
                                           "child pays its gap"},
                         .predict = gc_bcast_greedy_predict,
                         .build = gc_bcast_greedy_tree},
    [GC_BCAST_MULTILEVEL] = {.about = {.name = "multilevel",
                                       .desc = "two levels (001 Fig. 4): HLOT between sites, "
                                               "flat inside each site"},
                             .predict = gc_bcast_multilevel_predict,
                             .build = gc_bcast_multilevel_tree},
};
