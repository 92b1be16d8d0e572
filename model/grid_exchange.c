/* All-to-all across clusters as the algorithms really run it (issue 13): the MPI library's
 * own exchange, posted at once ("linear-grid") or pairwise ("pairwise-grid"), and LG
 * ("lg-backbone").  000 Eq. 6 and 7 (grid.c) charge a wide-area latency per message and
 * no shared link; these charge what a fluid network sees:
 *  - a message posted with the others pays its latency once, while the other messages
 *    pay theirs: the latency of a batch is the largest one in it;
 *  - a process's network interface (1/beta of its cluster) carries all its bytes;
 *  - the wide-area link from c to d is shared by all the flows of that direction (g5k2's
 *    10 Gbit/s backbone carries 32 x 32 flows): n_c * n_d * m bytes cross it in an
 *    all-to-all, at network.wan.aggregate when the configuration gives it, else at the
 *    wide-area bandwidth, which then also bounds one flow.
 * Every prediction is at least the lower bound it knows: the latency plus the larger of
 * the interface time and the link time. */
#include "model.h"
#include "model_util.h"

#include <stdlib.h>

/* The capacity of the link from c to d shared by all its flows: network.wan.aggregate
 * when the configuration measured one, else the wide-area bandwidth itself; and what
 * one flow may take: the bandwidth when an aggregate is given, else no more than the
 * link. */
static double link_cap(const struct gc_model_grid *g, int c, int d)
{
  size_t cd = (size_t)c * (size_t)g->k + (size_t)d;
  return g->wan_aggregate && g->wan_aggregate[cd] > 0 ? g->wan_aggregate[cd] : g->wan_bandwidth[cd];
}

static double flow_cap(const struct gc_model_grid *g, int c, int d)
{
  return gc_model_wan_rate(g, c, d);
}

static double nic_time(const struct gc_model_grid *g, int c, double bytes)
{
  return bytes * g->lan[c].beta * g->lan[c].gamma;
}

/* The time an interface needs when each of its flows can start only once its latency is
 * paid (the fluid model; TCP's first round trip carries little): flow i, of `busy[i]`
 * seconds of the interface, starts at lat[i], so the interface is still busy at
 *   max over j of lat[j] + sum of busy[i] over the flows with lat[i] >= lat[j].
 * O(k^2); k is a number of clusters. */
static double staggered(int k, const double *lat, const double *busy)
{
  double worst = 0.0;
  for (int j = 0; j < k; j++) {
    if (busy[j] <= 0.0)
      continue;
    double after = 0.0;
    for (int i = 0; i < k; i++)
      if (busy[i] > 0.0 && lat[i] >= lat[j])
        after += busy[i];
    worst = gc_model_max(worst, lat[j] + after);
  }
  return worst;
}

/* "linear-grid": every process posts its n-1 sends and receives at once (MPICH below
 * alltoall.native_pairwise, Open MPI's basic linear).  Each message pays its latency and
 * then its bytes cross the sender's interface, the link between the two clusters (shared
 * by all n_c n_d flows of that direction) and the receiver's interface.  For a process
 * of cluster c:
 *   alpha_c + max(send_c, recv_c, max over d of S_cd + max(n_c n_d m / bw_cd, m / rate_cd)
 *                 and the same from d to c)
 * S_cd = max(W_cd, L_c, L_d), L_x = (n_x - 1) m beta_x gamma_x the local exchange at x:
 * the short local flows take the interfaces first (a fluid network and TCP share one in
 * proportion to the inverse of the latencies), and the link's flows get them after.
 * send_c = staggered(its flows): its own cluster's L_c from 0, n_d m beta_c from W_cd;
 * recv_c the same
 * with W_dc; rate_cd the rate one flow may reach (network.wan.window).  Latency and link
 * are paired per cluster pair: the most loaded link may be a short one.  One cluster:
 * alpha + (n-1) m beta gamma. */
int gc_model_linear_grid(const struct gc_model_grid *g, size_t m, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  int k = g->k;
  double *scratch = malloc(sizeof(double) * (size_t)k * 4);
  if (!scratch)
    return GC_MODEL_ENOMEM;
  double *lat_out = scratch, *lat_in = scratch + k, *busy_out = scratch + 2 * k,
         *busy_in = scratch + 3 * k;
  double worst = 0.0, bytes = (double)m;
  for (int c = 0; c < k; c++) {
    double pair = 0.0;
    for (int d = 0; d < k; d++) {
      size_t cd = (size_t)c * (size_t)k + (size_t)d, dc = (size_t)d * (size_t)k + (size_t)c;
      if (d == c) {
        lat_out[d] = lat_in[d] = 0.0;
        busy_out[d] = busy_in[d] = nic_time(g, c, (double)(g->size[c] - 1) * bytes);
        continue;
      }
      lat_out[d] = g->wan_latency[cd], lat_in[d] = g->wan_latency[dc];
      busy_out[d] = busy_in[d] = (double)g->size[d] * bytes * g->lan[c].beta;
      /* The wide-area flows get their interfaces once the local ones are done (they
       * weigh a latency ratio less), so a link starts at the latest of its latency and
       * the local exchanges at both ends. */
      double flows = (double)g->size[c] * (double)g->size[d] * bytes;
      double both = gc_model_max(nic_time(g, c, (double)(g->size[c] - 1) * bytes),
                                 nic_time(g, d, (double)(g->size[d] - 1) * bytes));
      pair = gc_model_max(pair, gc_model_max(lat_out[d], both) +
                                    gc_model_max(flows / link_cap(g, c, d), bytes / flow_cap(g, c, d)));
      pair = gc_model_max(pair, gc_model_max(lat_in[d], both) +
                                    gc_model_max(flows / link_cap(g, d, c), bytes / flow_cap(g, d, c)));
    }
    double nic = gc_model_max(staggered(k, lat_out, busy_out), staggered(k, lat_in, busy_in));
    worst = gc_model_max(worst, g->lan[c].alpha + gc_model_max(nic, pair));
  }
  free(scratch);
  *t = worst;
  return GC_MODEL_OK;
}

/* "pairwise-grid": n-1 steps, each a send and a receive with one partner, every step
 * waiting for the last (MPICH from alltoall.native_pairwise on, Open MPI's pairwise):
 * at step i rank r sends to r XOR i when n is a power of two, else to (r + i) mod n.  A
 * step lasts its slowest message: alpha_c + m beta_c inside a cluster, W[c][d] + m / rate
 * across, the rate being the interface or the link's share among the step's flows from
 * c to d, whichever is smaller.  O(n^2 + n k^2) per prediction. */
int gc_model_pairwise_grid(const struct gc_model_grid *g, int P, const int *cluster_of,
                           size_t m, double *t)
{
  if (!t || P < 1 || !cluster_of || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  for (int r = 0; r < P; r++)
    if (cluster_of[r] < 0 || cluster_of[r] >= g->k)
      return GC_MODEL_EINVAL;
  int k = g->k;
  int *flows = malloc(sizeof(int) * (size_t)k * (size_t)k);
  if (!flows)
    return GC_MODEL_ENOMEM;
  int pow2 = (P & (P - 1)) == 0;
  double total = 0.0, bytes = (double)m;
  for (int i = 1; i < P; i++) {
    for (int x = 0; x < k * k; x++)
      flows[x] = 0;
    for (int r = 0; r < P; r++) {
      int to = pow2 ? r ^ i : (r + i) % P;
      flows[cluster_of[r] * k + cluster_of[to]]++;
    }
    double step = 0.0;
    for (int c = 0; c < k; c++)
      for (int d = 0; d < k; d++) {
        int f = flows[c * k + d];
        if (f == 0)
          continue;
        double msg;
        if (c == d) {
          msg = g->lan[c].alpha + bytes * g->lan[c].beta;
        } else {
          double nic = g->lan[c].beta > 0 ? 1.0 / g->lan[c].beta : INFINITY;
          double rate = fmin(fmin(nic, flow_cap(g, c, d)), link_cap(g, c, d) / f);
          msg = g->wan_latency[c * k + d] + g->lan[c].alpha + bytes / rate;
        }
        step = gc_model_max(step, msg);
      }
    total += step;
  }
  free(flows);
  *t = total;
  return GC_MODEL_OK;
}

/* "lg-backbone": LG as the executor runs it (SPEC section 3), two phases one after the
 * other.  Phase 1, local: a process of c sends every block it holds to a member of its
 * own cluster except those it keeps (its staging share): (n - 1 - kept) m bytes through
 * its interface, posted at once, kept = sum over the other clusters d of floor(n_d/n_c)
 * where c plays A (it stages B's blocks) and 1 where it plays B, at least:
 *   T1 = max_c alpha_c + (n - 1 - kept_c) m beta_c gamma_c.
 * Phase 2, wide area, every pair (A, B) of a <= b members exchanging a*b*m bytes each way
 * over its links, all pairs posted at once: an A member sends ceil(b/a) messages of a*m
 * bytes, a B member about a*m bytes (ceil(a/r) messages of r*m, r its block's size).
 * Each pair's flows pay the pair's latency W_cd and then cross the link and the
 * interfaces (as in linear-grid):
 *   T2 = max_c alpha_c + max(staggered(c's bytes to d from W_cd) beta_c,
 *                            max over d of W_cd + max(a b m / bw_cd, a m / rate_cd))
 * rate_cd the rate one flow may reach (network.wan.window).  T = T1 + T2: every block
 * crosses the wide area once, so T2 alone is at least the shared-link bound. */
int gc_model_lg_backbone(const struct gc_model_grid *g, size_t m, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  int k = g->k, n = 0;
  for (int c = 0; c < k; c++)
    n += g->size[c];
  double *scratch = malloc(sizeof(double) * (size_t)k * 2);
  if (!scratch)
    return GC_MODEL_ENOMEM;
  double *lat = scratch, *busy = scratch + k;
  double bytes = (double)m, t1 = 0.0, t2 = 0.0;
  for (int c = 0; c < k; c++) {
    double kept = 0.0, pair = 0.0;
    for (int d = 0; d < k; d++) {
      lat[d] = busy[d] = 0.0;
      if (d == c)
        continue;
      double out;
      if (gc_model_lg_plays_a(g->size, c, d)) { /* a = n_c <= b = n_d */
        int a = g->size[c], b = g->size[d];
        kept += (double)(b / a);
        out = (double)((b + a - 1) / a) * a * bytes;
      } else { /* c plays B: a = n_d <= b = n_c, r the smallest block of c */
        int a = g->size[d], b = g->size[c], r = b % a ? b % a : a;
        kept += 1.0;
        out = (double)((a + r - 1) / r) * r * bytes;
      }
      size_t cd = (size_t)c * (size_t)k + (size_t)d, dc = (size_t)d * (size_t)k + (size_t)c;
      lat[d] = g->wan_latency[cd];
      busy[d] = out * g->lan[c].beta;
      double flows = (double)g->size[c] * (double)g->size[d] * bytes;
      double one = (double)gc_model_min_int(g->size[c], g->size[d]) * bytes;
      pair = gc_model_max(pair, g->wan_latency[cd] + gc_model_max(flows / link_cap(g, c, d),
                                                                  one / flow_cap(g, c, d)));
      pair = gc_model_max(pair, g->wan_latency[dc] + gc_model_max(flows / link_cap(g, d, c),
                                                                  one / flow_cap(g, d, c)));
    }
    double held = (double)(n - 1) - kept;
    if (g->size[c] > 1 && held > 0)
      t1 = gc_model_max(t1, g->lan[c].alpha + nic_time(g, c, held * bytes));
    if (k > 1)
      t2 = gc_model_max(t2, g->lan[c].alpha + gc_model_max(staggered(k, lat, busy), pair));
  }
  free(scratch);
  *t = t1 + t2;
  return GC_MODEL_OK;
}
