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

/* One message of m bytes from cluster a to cluster b: Hockney inside a cluster, the
 * wide-area latency and bandwidth between two. */
static double edge(const struct gc_model_grid *g, int a, int b, double m)
{
  if (a == b)
    return g->lan[a].alpha + m * g->lan[a].beta;
  return gc_model_wan_msg(g, a, b, m);
}

/* "binomial-grid": MPICH's binomial broadcast, relative rank v = (rank - root) mod P
 * receives from v - lowbit(v), then sends to v + mask for each mask below lowbit(v),
 * largest first (the root: every power of two below P).  A sender sends one message
 * after the other, so its j-th child gets the data after the j messages before it. */
int gc_model_bcast_binomial_grid(const struct gc_model_grid *g, int P, int root,
                                 const int *cluster_of, size_t m, double *t)
{
  if (!t || P < 1 || root < 0 || root >= P || !cluster_of ||
      gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  for (int r = 0; r < P; r++)
    if (cluster_of[r] < 0 || cluster_of[r] >= g->k)
      return GC_MODEL_EINVAL;
  double *arrival = malloc(sizeof(double) * (size_t)P);
  if (!arrival)
    return GC_MODEL_ENOMEM;
  double bytes = (double)m, worst = 0;
  arrival[0] = 0;
  /* Parents have smaller relative ranks than their children: one pass in order. */
  for (int v = 0; v < P; v++) {
    int low = 1;
    while (low < P && !(v & low))
      low <<= 1;
    double ready = arrival[v];
    int from = cluster_of[(v + root) % P];
    for (int mask = (v == 0 ? 1 << (int)ceil(log2(P)) : low) >> 1; mask > 0; mask >>= 1) {
      if (v + mask >= P)
        continue;
      int to = cluster_of[(v + mask + root) % P];
      ready += edge(g, from, to, bytes);
      arrival[v + mask] = ready;
    }
    worst = fmax(worst, arrival[v]);
  }
  free(arrival);
  *t = worst;
  return GC_MODEL_OK;
}
