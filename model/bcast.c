/* Broadcast models over ranks: the binomial tree on one cluster (Hockney) and the MPI
 * library's binomial tree across clusters.  Trees over clusters are in tree_cost.c. */
#include "model.h"
#include "model_util.h"

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

/* The same rounds on a cluster network, each one message as the network measured it
 * (link.c: its curve, or alpha + m*beta exactly as above). */
int gc_model_bcast_binomial_lan(int P, size_t m, const struct gc_lan *l, double *t)
{
  double p2p;
  if (!t || P < 1 || gc_model_p2p_lan(l, m, &p2p) != GC_MODEL_OK)
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

/* From `eager` bytes on each MPI_Send waits for its transfer (SMPI above
 * smpi/send-is-detached-thresh), so a level's edges start at different times: the
 * tree is walked edge by edge in time order.  A sender v starts its next send when it
 * has the data and its previous send is done; the flow pays its latency, then carries
 * m bytes at its rate, which across the wide area is no more than the link between the
 * two clusters divided among the flows crossing it at that moment (all of one pair have
 * the same latency, hence the same window cap, so the share is even).  bytes == 0:
 * each send is its latency.  Events: a flow's latency ends or its bytes are through;
 * at most 2(P - 1) of them, each O(P + k*k). */
enum { GC_BINOMIAL_WALK_MAX = 128 };

static int binomial_walk(const struct gc_model_grid *g, int P, int root, const int *cluster_of,
                         double bytes, double *t)
{
  int k = g->k;
  size_t kk = (size_t)k * (size_t)k;
  size_t n = (size_t)P;
  size_t mark = gc_scratch_mark(g->scratch);
  double *real = gc_scratch_take(g->scratch, 6 * n, sizeof(double));
  long *mask = gc_scratch_take(g->scratch, n, sizeof(long));
  int *whole = gc_scratch_take(g->scratch, 2 * n + kk, sizeof(int));
  if (!real || !mask || !whole) {
    gc_scratch_release(g->scratch, mark);
    return GC_MODEL_ENOMEM;
  }
  /* Per sender: when it has the data; its flow in flight: the end of its latency, the
   * bytes left, its own rate cap, its rate now, what its link carries at least (its
   * curve's rate, link.c; 0 without), the child, the link (-1: inside). */
  double *have = real, *lat_end = real + n, *left = real + 2 * n, *cap = real + 3 * n,
         *rate = real + 4 * n, *least = real + 5 * n;
  int *kid = whole, *link = whole + n, *on_link = whole + 2 * n;
  for (int v = 0; v < P; v++) {
    int low = 1;
    while (low < P && !(v & low))
      low <<= 1;
    have[v] = v == 0 ? 0.0 : INFINITY;
    mask[v] = (v == 0 ? 1L << gc_model_ceil_log2(P) : low) >> 1; /* next child: v + mask */
    kid[v] = -1;                                                   /* no send in flight */
  }
  double now = 0.0, worst = 0.0;
  for (;;) {
    /* Senders that have the data and no send in flight start their next one. */
    int busy = 0;
    for (int v = 0; v < P; v++) {
      while (kid[v] < 0 && have[v] <= now && mask[v] > 0) {
        long c = v + mask[v];
        mask[v] >>= 1;
        if (c >= P)
          continue;
        int from = cluster_of[(v + root) % P], to = cluster_of[(c + root) % P];
        kid[v] = (int)c;
        cap[v] = edge_rate(g, from, to);
        /* Alone on its link the message takes its curve's time (link.c). */
        double lat = edge_latency(g, from, to);
        least[v] = gc_model_curve_message(gc_model_link_curve(g, from, to), bytes, &lat, &cap[v])
                       ? cap[v] : 0.0;
        lat_end[v] = now + lat;
        left[v] = bytes;
        link[v] = from == to ? -1 : from * k + to;
      }
      busy += kid[v] >= 0;
    }
    if (!busy)
      break;
    /* Rates: flows past their latency on one link share it evenly. */
    for (size_t cd = 0; cd < kk; cd++)
      on_link[cd] = 0;
    for (int v = 0; v < P; v++)
      if (kid[v] >= 0 && lat_end[v] <= now && link[v] >= 0)
        on_link[link[v]]++;
    double next = INFINITY;
    for (int v = 0; v < P; v++) {
      if (kid[v] < 0)
        continue;
      if (lat_end[v] > now) {
        next = fmin(next, lat_end[v]);
        continue;
      }
      rate[v] = cap[v];
      if (link[v] >= 0) {
        double whole = g->wan_aggregate && g->wan_aggregate[link[v]] > 0
                           ? g->wan_aggregate[link[v]]
                           : g->wan_bandwidth[link[v]];
        rate[v] = fmin(rate[v], fmax(whole, least[v]) / on_link[link[v]]);
      }
      next = fmin(next, left[v] > 0.0 ? now + left[v] / rate[v] : now);
    }
    /* Advance to the next event; a flow whose bytes end there delivers its child. */
    for (int v = 0; v < P; v++) {
      if (kid[v] < 0 || lat_end[v] > now)
        continue;
      double done = left[v] > 0.0 ? now + left[v] / rate[v] : now;
      if (done <= next) {
        have[kid[v]] = next;
        worst = fmax(worst, next);
        kid[v] = -1;
      } else {
        left[v] -= rate[v] * (next - now);
      }
    }
    now = next;
  }
  gc_scratch_release(g->scratch, mark);
  *t = worst;
  return GC_MODEL_OK;
}

/* What gc_model_bcast_binomial_grid takes of g->scratch, released before it returns: up to
 * GC_BINOMIAL_WALK_MAX ranks (the walk, from `eager` bytes on) 6P doubles and P longs (a
 * sender's flow in flight), 2P ints and a k x k matrix of ints (a flow's child and link,
 * the flows on each link); else (below `eager`, or more ranks) 2P doubles (arrivals and
 * each edge's share of its link) and a k x k matrix of ints (a level's edges per cluster
 * pair).  The walk's is the larger where it may run. */
size_t gc_model_binomial_grid_scratch(int P, int k)
{
  size_t n = (size_t)(P > 0 ? P : 0), kk = (size_t)k * (size_t)k;
  size_t walk = gc_scratch_add(gc_scratch_add(gc_scratch_cost(6 * n, sizeof(double)),
                                              gc_scratch_cost(n, sizeof(long))),
                               gc_scratch_cost(2 * n + kk, sizeof(int)));
  size_t levels = gc_scratch_add(2 * gc_scratch_cost(n, sizeof(double)),
                                 gc_scratch_cost(kk, sizeof(int)));
  return P <= GC_BINOMIAL_WALK_MAX && walk > levels ? walk : levels;
}

/* "binomial-grid": MPICH's (and SMPI's) binomial broadcast.  Relative rank v = (rank -
 * root) mod P receives from v - lowbit(v), then sends to v + mask for each mask below
 * lowbit(v), largest first (the root: every power of two below P), with MPI_Send.
 *  - Below `eager` bytes MPI_Send returns before the transfer (eager protocol; SMPI's
 *    detached sends): a parent's sends all start when it has the data, each flow pays
 *    its latency and then shares the parent's interface with the flows in progress, in
 *    proportion to 1/latency (gc_model_fan_out, gc_model_rtt_weight); a flow across is
 *    also held to its share of the link between the two clusters among the tree's edges
 *    of the same level between them, which start at about the same time.
 *  - From `eager` bytes on each MPI_Send waits for its transfer: binomial_walk, the
 *    tree in time order, the link shared only by the flows crossing it at once; above
 *    GC_BINOMIAL_WALK_MAX ranks, the j-th child gets the data after the j messages
 *    before it, each latency + m / rate with the level's share of the link.
 * rate: the cluster's interface inside; across, the flow's wide-area rate (window-capped,
 * gc_model_wan_rate) and the link's share (network.wan.aggregate when given, else the
 * bandwidth).  The completion is the latest arrival. */
int gc_model_bcast_binomial_grid(const struct gc_model_grid *g, int P, int root,
                                 const int *cluster_of, size_t m, double eager, double *t)
{
  if (!t || P < 1 || root < 0 || root >= P || !cluster_of || isnan(eager) ||
      gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  for (int r = 0; r < P; r++)
    if (cluster_of[r] < 0 || cluster_of[r] >= g->k)
      return GC_MODEL_EINVAL;
  /* The walk costs O(P^2): beyond GC_BINOMIAL_WALK_MAX ranks (a logged call predicts
   * what runs on every call), the sends one after the other, each its level's share. */
  if (!((double)m < eager) && P <= GC_BINOMIAL_WALK_MAX)
    return binomial_walk(g, P, root, cluster_of, (double)m, t);
  /* A sender has at most 31 children (ceil(log2 P) <= 31 for an int P). */
  enum { MAXKIDS = 32 };
  int levels = gc_model_ceil_log2(P), k = g->k;
  size_t mark = gc_scratch_mark(g->scratch);
  double *arrival = gc_scratch_take(g->scratch, (size_t)P, sizeof(double));
  /* share[v]: how many of the level's edges cross the link between the clusters of v and
   * its parent (v's edge is of the level of v - parent), which share it; per level,
   * flows[c*k+d] counts its edges from c to d. */
  double *share = gc_scratch_take(g->scratch, (size_t)P, sizeof(double));
  int *flows = gc_scratch_take(g->scratch, (size_t)k * (size_t)k, sizeof(int));
  if (!arrival || !share || !flows) {
    gc_scratch_release(g->scratch, mark);
    return GC_MODEL_ENOMEM;
  }
  for (int v = 0; v < P; v++)
    share[v] = 1.0;
  for (int l = 0; l < levels; l++) {
    for (size_t cd = 0; cd < (size_t)k * (size_t)k; cd++)
      flows[cd] = 0;
    for (int pass = 0; pass < 2; pass++) /* count the level's edges, then share */
      for (int v = 0; v + (1 << l) < P; v++)
        if ((v & ((2 << l) - 1)) == 0) { /* v sends at level l: its low bit is above l */
          int c = cluster_of[(v + root) % P], d = cluster_of[(v + (1 << l) + root) % P];
          if (c == d)
            continue;
          size_t cd = (size_t)c * (size_t)k + (size_t)d;
          if (pass == 0) {
            flows[cd]++;
          } else {
            share[v + (1 << l)] = flows[cd];
          }
        }
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
    double nic = g->lan[from].beta > 0.0 ? 1.0 / g->lan[from].beta : INFINITY, fast = 0.0;
    double lat[MAXKIDS], cap[MAXKIDS], weight[MAXKIDS], left[MAXKIDS], rate[MAXKIDS],
        x[MAXKIDS];
    for (long mask = (v == 0 ? 1L << gc_model_ceil_log2(P) : low) >> 1; mask > 0; mask >>= 1) {
      if (v + mask >= P)
        continue;
      int to = cluster_of[(v + mask + root) % P];
      kid[nk] = (int)(v + mask);
      lat[nk] = edge_latency(g, from, to);
      cap[nk] = edge_rate(g, from, to);
      weight[nk] = gc_model_rtt_weight(lat[nk]);
      /* Alone, the message takes its curve's time (link.c): posted, it also shares the
       * parent's interface, which then carries at least what the curve measured; sent one
       * after the other, only its link's share. */
      if (posted)
        cap[nk] = fmin(cap[nk], nic);
      int curved = gc_model_curve_message(gc_model_link_curve(g, from, to), bytes, &lat[nk],
                                          &cap[nk]);
      if (curved)
        fast = fmax(fast, cap[nk]);
      if (from != to) { /* the level's edges between the two clusters share their link, which
                           carries at least what one message measured alone */
        size_t cd = (size_t)from * (size_t)k + (size_t)to;
        double link = g->wan_aggregate && g->wan_aggregate[cd] > 0 ? g->wan_aggregate[cd]
                                                                   : g->wan_bandwidth[cd];
        cap[nk] = fmin(cap[nk], (curved ? fmax(link, cap[nk]) : link) / share[v + mask]);
      }
      nk++;
    }
    if (posted && nk > 0 && bytes > 0.0) {
      gc_model_fan_out(nk, cap, weight, lat, fmax(nic, fast), bytes, NULL, left, rate, x);
      for (int j = 0; j < nk; j++)
        arrival[kid[j]] = arrival[v] + x[j];
    } else { /* one after the other (or nothing to carry: each flow is its latency) */
      double ready = arrival[v];
      for (int j = 0; j < nk; j++) {
        ready += lat[j] + (bytes > 0.0 ? bytes / cap[j] : 0.0);
        arrival[kid[j]] = posted ? arrival[v] + lat[j] : ready;
      }
    }
    worst = fmax(worst, arrival[v]);
  }
  gc_scratch_release(g->scratch, mark);
  *t = worst;
  return GC_MODEL_OK;
}
