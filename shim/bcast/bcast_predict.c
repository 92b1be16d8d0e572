#include "bcast_predict.h"

#include <math.h>
#include <stdlib.h>

#include "model.h"

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
      .site = net->site,
  };
}

/* Each leader's own cluster broadcast: a binomial tree over its members, 004 Eq. 8 when
 * the configuration gives the cluster's processors, else the Hockney form. Eq. 8 is rooted
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
  if (gc_model_bcast_binomial_hockney(layout->cluster_size[c], (size_t)m, lan->alpha, lan->beta,
                                      &t) != 0)
    return 0;
  return t;
}

/* 001 Eq. 2 with the position-aware refinement (the k-th child waits for the k-1 sends
 * before it), plus each cluster's own broadcast after its leader has the message. */
double gc_bcast_tree_predict(const struct gc_network *net, const struct gc_layout *layout,
                             const struct gc_tree_input *in, const struct gc_tree *tree)
{
  double *arrival = malloc(sizeof(double) * (size_t)layout->nclusters);
  if (!arrival)
    return -1;
  double t = -1;
  if (gc_tree_arrivals(in, tree, 1, arrival) == 0) {
    for (int c = 0; c < layout->nclusters; c++)
      t = fmax(t, arrival[c] + cluster_bcast(net, layout, c, in->bytes));
  }
  free(arrival);
  return t;
}

static double tree_predict(int (*build)(const struct gc_tree_input *, struct gc_tree *),
                           const struct gc_network *net, const struct gc_layout *layout,
                           double m, int root, const char **model)
{
  *model = gc_model_name(GC_MODEL_TREE_001_POSITION);
  if (layout->nclusters < 2)
    return -1;
  struct gc_tree_input in;
  struct gc_tree tree;
  gc_bcast_tree_input(net, layout, root, m, &in);
  if (build(&in, &tree) != 0)
    return -1;
  double t = gc_bcast_tree_predict(net, layout, &in, &tree);
  gc_tree_free(&tree);
  return t;
}

/* The MPI library's binomial tree over ranks (MPICH: relative rank v receives from
 * v - lowbit(v), then sends to v + mask for each mask below lowbit(v), largest first),
 * each edge costing its Hockney time inside a cluster or across the wide area; a sender
 * sends one message after the other. One cluster: ceil(log2 P)(alpha + m beta), or 004 Eq. 8
 * when the configuration gives the cluster's processors (hetero-004-bcast). */
double gc_bcast_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                               double m, int root, const char **model)
{
  int P = layout->size;
  struct gc_model_hetero h;
  if (layout->nclusters == 1 && gc_network_hetero(net, layout, 0, &h) == 0) {
    /* 004 Eq. 8: node x is communicator rank x (one cluster: members in rank order), and
     * gc_model_hetero_bcast_binomial walks the same relative-rank tree as MPICH. */
    double t = -1;
    *model = gc_model_name(GC_MODEL_HETERO_BCAST);
    if (gc_model_hetero_bcast_binomial(&h, root, (size_t)m, net->hetero[0].Gamma,
                                       net->hetero[0].tau, &t) != 0)
      return -1;
    return t;
  }
  if (layout->nclusters == 1) {
    double t = -1;
    *model = gc_model_name(GC_MODEL_BINOMIAL_HOCKNEY);
    if (gc_model_bcast_binomial_hockney(P, (size_t)m, net->lan[0].alpha, net->lan[0].beta,
                                        &t) != 0)
      return -1;
    return t;
  }
  *model = "binomial-grid";
  double *arrival = malloc(sizeof(double) * (size_t)P);
  if (!arrival)
    return -1;
  double t = 0;
  arrival[0] = 0;
  /* Parents have smaller relative ranks than their children: one pass in order. */
  for (int v = 0; v < P; v++) {
    int low = 1;
    while (low < P && !(v & low))
      low <<= 1;
    double ready = arrival[v];
    int from = layout->cluster_of[(v + root) % P];
    for (int mask = (v == 0 ? 1 << (int)ceil(log2(P)) : low) >> 1; mask > 0; mask >>= 1) {
      if (v + mask >= P)
        continue;
      int to = layout->cluster_of[(v + mask + root) % P];
      ready += gc_network_p2p(net, from, to, m);
      arrival[v + mask] = ready;
    }
    t = fmax(t, arrival[v]);
  }
  free(arrival);
  return t;
}

double gc_bcast_flat_predict(const struct gc_network *net, const struct gc_layout *layout,
                             double m, int root, const char **model)
{
  return tree_predict(gc_bcast_flat_tree, net, layout, m, root, model);
}

double gc_bcast_binomial_predict(const struct gc_network *net, const struct gc_layout *layout,
                                 double m, int root, const char **model)
{
  return tree_predict(gc_bcast_binomial_tree, net, layout, m, root, model);
}

double gc_bcast_hlot_predict(const struct gc_network *net, const struct gc_layout *layout,
                             double m, int root, const char **model)
{
  return tree_predict(gc_bcast_hlot_tree, net, layout, m, root, model);
}

double gc_bcast_spt_predict(const struct gc_network *net, const struct gc_layout *layout,
                            double m, int root, const char **model)
{
  return tree_predict(gc_bcast_spt_tree, net, layout, m, root, model);
}

double gc_bcast_greedy_predict(const struct gc_network *net, const struct gc_layout *layout,
                               double m, int root, const char **model)
{
  return tree_predict(gc_bcast_greedy_tree, net, layout, m, root, model);
}

double gc_bcast_multilevel_predict(const struct gc_network *net, const struct gc_layout *layout,
                                   double m, int root, const char **model)
{
  return tree_predict(gc_bcast_multilevel_tree, net, layout, m, root, model);
}
