/* Broadcast models over ranks: the binomial tree on one cluster (Hockney) and the MPI
 * library's binomial tree across clusters.  Trees over clusters are in tree_cost.c. */
#include "model.h"
#include "model_util.h"

#include <stdlib.h>

/* "binomial-hockney": a binomial tree on P processes has ceil(log2 P) rounds and each
 * round costs one point-to-point message (003 Sec. 3, Fig. 1); P == 1 sends nothing. */
int gc_model_bcast_binomial_hockney(int P, size_t m, double alpha, double beta, double *t)
{
  double p2p;
  if (!t || P < 1 || gc_model_p2p_hockney(m, alpha, beta, &p2p) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  *t = gc_model_ceil_log2(P) * p2p;
  return GC_MODEL_OK;
}

/* Latency and rate of one message from cluster a to cluster b: the cluster's alpha and
 * interface inside it, the wide-area latency and the rate one flow may reach across. */
static double edge_latency(const struct gc_model_grid *g, int a, int b)
{
  return a == b ? g->lan[a].alpha : g->wan_latency[a * g->k + b];
}

static double edge_rate(const struct gc_model_grid *g, int a, int b)
{
  if (a == b)
    return g->lan[a].beta > 0.0 ? 1.0 / g->lan[a].beta : INFINITY;
  return gc_model_wan_rate(g, a, b);
}

/* "binomial-grid": MPICH's (and SMPI's) binomial broadcast.  Relative rank v = (rank -
 * root) mod P receives from v - lowbit(v), then sends to v + mask for each mask below
 * lowbit(v), largest first (the root: every power of two below P), with MPI_Send.
 *  - Below `eager` bytes MPI_Send returns before the transfer (eager protocol; SMPI's
 *    detached sends): a parent's sends all start when it has the data, each flow pays
 *    its latency and then shares the parent's interface with the flows in progress, in
 *    proportion to 1/latency (gc_model_fan_out, gc_model_rtt_weight).
 *  - From `eager` bytes on each MPI_Send waits for its transfer: the j-th child gets the
 *    data after the j messages before it, each latency + m / rate.
 * rate: the cluster's interface inside; across, the flow's wide-area rate (window-capped,
 * gc_model_wan_rate) and no more than its share of the link between the two clusters
 * among the tree's edges of the same level (mask) between them, which run at about the
 * same time (network.wan.aggregate when given, else the bandwidth).  The completion is
 * the latest arrival. */
int gc_model_bcast_binomial_grid(const struct gc_model_grid *g, int P, int root,
                                 const int *cluster_of, size_t m, double eager, double *t)
{
  if (!t || P < 1 || root < 0 || root >= P || !cluster_of || isnan(eager) ||
      gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  for (int r = 0; r < P; r++)
    if (cluster_of[r] < 0 || cluster_of[r] >= g->k)
      return GC_MODEL_EINVAL;
  /* A sender has at most 31 children (ceil(log2 P) <= 31 for an int P). */
  enum { MAXKIDS = 32 };
  int levels = gc_model_ceil_log2(P), k = g->k;
  double *arrival = malloc(sizeof(double) * (size_t)P);
  /* share[l][c*k+d]: edges of level l (mask 1 << l) from cluster c to cluster d. */
  int *share = calloc((size_t)(levels > 0 ? levels : 1) * (size_t)k * (size_t)k, sizeof(int));
  if (!arrival || !share) {
    free(arrival);
    free(share);
    return GC_MODEL_ENOMEM;
  }
  for (int l = 0; l < levels; l++)
    for (int v = 0; v + (1 << l) < P; v++)
      if ((v & ((2 << l) - 1)) == 0) { /* v sends at level l: its low bit is above l */
        int c = cluster_of[(v + root) % P], d = cluster_of[(v + (1 << l) + root) % P];
        if (c != d)
          share[(size_t)l * (size_t)k * (size_t)k + (size_t)c * (size_t)k + (size_t)d]++;
      }
  double bytes = (double)m, worst = 0;
  int posted = bytes < eager;
  arrival[0] = 0;
  /* Parents have smaller relative ranks than their children: one pass in order. */
  for (int v = 0; v < P; v++) {
    int low = 1;
    while (low < P && !(v & low))
      low <<= 1;
    int from = cluster_of[(v + root) % P], nk = 0, kid[MAXKIDS];
    double lat[MAXKIDS], cap[MAXKIDS], weight[MAXKIDS], left[MAXKIDS], rate[MAXKIDS],
        x[MAXKIDS];
    for (long mask = (v == 0 ? 1L << gc_model_ceil_log2(P) : low) >> 1; mask > 0; mask >>= 1) {
      if (v + mask >= P)
        continue;
      int to = cluster_of[(v + mask + root) % P];
      kid[nk] = (int)(v + mask);
      lat[nk] = edge_latency(g, from, to);
      cap[nk] = edge_rate(g, from, to);
      if (from != to) { /* the level's edges between the two clusters share their link */
        int l = 0;
        while ((1L << l) < mask)
          l++;
        size_t cd = (size_t)from * (size_t)k + (size_t)to;
        double link = g->wan_aggregate && g->wan_aggregate[cd] > 0 ? g->wan_aggregate[cd]
                                                                   : g->wan_bandwidth[cd];
        cap[nk] = fmin(cap[nk], link / share[(size_t)l * (size_t)k * (size_t)k + cd]);
      }
      weight[nk] = gc_model_rtt_weight(lat[nk]);
      nk++;
    }
    if (posted && nk > 0 && bytes > 0.0) {
      double nic = g->lan[from].beta > 0.0 ? 1.0 / g->lan[from].beta : INFINITY;
      gc_model_fan_out(nk, cap, weight, lat, nic, bytes, NULL, left, rate, x);
      for (int j = 0; j < nk; j++)
        arrival[kid[j]] = arrival[v] + x[j];
    } else {
      double ready = arrival[v];
      for (int j = 0; j < nk; j++) {
        ready += lat[j] + (bytes > 0.0 ? bytes / cap[j] : 0.0);
        arrival[kid[j]] = posted ? arrival[v] + lat[j] : ready;
      }
    }
    worst = fmax(worst, arrival[v]);
  }
  free(arrival);
  free(share);
  *t = worst;
  return GC_MODEL_OK;
}
