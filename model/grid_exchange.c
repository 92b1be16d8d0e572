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
 * the interface time and the link time.
 *
 * MPI_Alltoallv moves each cluster pair's bytes together too, so "linear-grid" and
 * "lg-backbone" are written once, over per-cluster-pair byte totals (bytes[c*k + d]: all
 * that the ranks of c send to the ranks of d), spread evenly over the pair's processes:
 * the -v forms MPI_Alltoallv's auto reads.  The fixed-size forms are the same functions
 * on n_c n_d m per pair, so each name means one formula.  A skewed pattern makes the
 * busiest process slower than the even spread says: the log's actual time shows it.
 * (000 Eq. 6 with variable counts, the former "naive-grid-v", charged n_d wide-area
 * latencies in a row: auto took LG-v where the library's posted-at-once exchange was
 * faster, doc/benchmarks.md.) */
#include "model.h"
#include "model_util.h"

/* The capacity of the link from c to d shared by all its flows: network.wan.aggregate
 * when the configuration measured one, else what one flow reaches (its curve's last
 * segment where it has one, else the wide-area bandwidth); and what
 * one flow may take: the bandwidth when an aggregate is given, else no more than the
 * link. */
static double link_cap(const struct gc_model_grid *g, int c, int d)
{
  size_t cd = (size_t)c * (size_t)g->k + (size_t)d;
  if (g->wan_aggregate && g->wan_aggregate[cd] > 0)
    return g->wan_aggregate[cd];
  const struct gc_curve *cv = gc_model_link_curve(g, c, d);
  return cv ? gc_model_curve_rate(cv) : g->wan_bandwidth[cd];
}

static double flow_cap(const struct gc_model_grid *g, int c, int d)
{
  return gc_model_wan_rate(g, c, d);
}

static double nic_time(const struct gc_model_grid *g, int c, double bytes)
{
  return bytes * g->lan[c].beta * g->lan[c].gamma;
}

/* Per-cluster-pair totals: each finite and >= 0. */
static int pairs_ok(const struct gc_model_grid *g, const double *bytes)
{
  if (!bytes)
    return 0;
  for (int i = 0; i < g->k * g->k; i++)
    if (!gc_model_param_ok(bytes[i]))
      return 0;
  return 1;
}

/* What these models take of g->scratch (scratch.h), each released before it returns:
 *  - linear-grid-v: 5k doubles (latencies, interface times and local exchanges per peer
 *    cluster); lgv-backbone: 2k doubles;
 *  - linear-grid and lg-backbone: the k x k matrix of their per-pair bytes, then the -v
 *    form on it (nested: both at once);
 *  - pairwise-grid: a k x k matrix of ints (the flows of one step per cluster pair).
 * The largest is linear-grid's: the bound every network view's scratch holds.
 * relay-backbone's (4 k x k matrices and k doubles: its totals, direct bytes, link loads
 * and reaches, relayed bytes per relay; then lgv-backbone's 2k) is counted in the relay
 * row's need, gc_model_relay_row_scratch. */
size_t gc_model_exchange_scratch(int k)
{
  size_t kk = (size_t)k * (size_t)k;
  size_t uniform = gc_scratch_add(gc_scratch_cost(kk, sizeof(double)),
                                  gc_scratch_cost(5 * (size_t)k, sizeof(double)));
  size_t pairwise = gc_scratch_cost(kk, sizeof(int));
  return uniform > pairwise ? uniform : pairwise;
}

/* A fixed-size all-to-all as its per-pair form: n_c n_d m bytes from c to d. */
static int with_uniform_pairs(const struct gc_model_grid *g, size_t m, double *t,
                              int (*pairs_model)(const struct gc_model_grid *, const double *,
                                                 double *))
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  int k = g->k;
  size_t mark = gc_scratch_mark(g->scratch);
  double *bytes = gc_scratch_take(g->scratch, (size_t)k * (size_t)k, sizeof(double));
  if (!bytes)
    return GC_MODEL_ENOMEM;
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++)
      bytes[c * k + d] = (double)g->size[c] * (double)g->size[d] * (double)m;
  int rc = pairs_model(g, bytes, t);
  gc_scratch_release(g->scratch, mark);
  return rc;
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
 * alltoall.native_pairwise, Open MPI's basic linear, MPICH's and SMPI's alltoallv).  Each
 * message pays its latency and then its bytes cross the sender's interface, the link
 * between the two clusters (shared by all the flows of that direction) and the
 * receiver's interface.  For a process of cluster c, with T_cd = bytes[c][d] and an
 * average block T_cd / (n_c n_d):
 *   alpha_c + max(send_c, recv_c, max over d of S_cd + max(T_cd / bw_cd, block / rate_cd)
 *                 and the same from d to c)
 * S_cd = max(W_cd, L_c, L_d), L_x = T_xx (n_x - 1) / n_x^2 beta_x gamma_x the local
 * exchange at x: the short local flows take the interfaces first (a fluid network and
 * TCP share one in proportion to the inverse of the latencies), and the link's flows get
 * them after.  send_c = staggered(its flows): L_c from 0, T_cd / n_c beta_c from W_cd;
 * recv_c the same with T_dc / n_c and W_dc; rate_cd the rate one flow may reach
 * (network.wan.window).  Latency and link are paired per cluster pair: the most loaded
 * link may be a short one.  Where the configuration measured the pair's curve, W_cd and
 * rate_cd are the curve's at one block (gc_model_wan_message, link.c).  One cluster:
 * alpha + (n-1) m beta gamma. */
int gc_model_linear_grid_v(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !pairs_ok(g, bytes))
    return GC_MODEL_EINVAL;
  int k = g->k;
  size_t mark = gc_scratch_mark(g->scratch);
  double *scratch = gc_scratch_take(g->scratch, (size_t)k * 5, sizeof(double));
  if (!scratch)
    return GC_MODEL_ENOMEM;
  double *lat_out = scratch, *lat_in = scratch + k, *busy_out = scratch + 2 * k,
         *busy_in = scratch + 3 * k, *local = scratch + 4 * k;
  for (int x = 0; x < k; x++) {
    double n = g->size[x];
    local[x] = nic_time(g, x, bytes[x * k + x] * (n - 1) / (n * n));
  }
  double worst = 0.0;
  for (int c = 0; c < k; c++) {
    double pair = 0.0, nc = g->size[c];
    for (int d = 0; d < k; d++) {
      size_t cd = (size_t)c * (size_t)k + (size_t)d, dc = (size_t)d * (size_t)k + (size_t)c;
      if (d == c) {
        lat_out[d] = lat_in[d] = 0.0;
        busy_out[d] = busy_in[d] = local[c];
        continue;
      }
      /* Each flow carries one block: alone, its curve's time where there is one. */
      double flows = nc * g->size[d], rate_out, rate_in;
      lat_out[d] = gc_model_wan_message(g, c, d, bytes[cd] / flows, &rate_out);
      lat_in[d] = gc_model_wan_message(g, d, c, bytes[dc] / flows, &rate_in);
      busy_out[d] = bytes[cd] / nc * g->lan[c].beta;
      busy_in[d] = bytes[dc] / nc * g->lan[c].beta;
      /* The wide-area flows get their interfaces once the local ones are done (they
       * weigh a latency ratio less), so a link starts at the latest of its latency and
       * the local exchanges at both ends. */
      double both = gc_model_max(local[c], local[d]);
      pair = gc_model_max(pair, gc_model_max(lat_out[d], both) +
                                    gc_model_max(bytes[cd] / link_cap(g, c, d),
                                                 bytes[cd] / flows / rate_out));
      pair = gc_model_max(pair, gc_model_max(lat_in[d], both) +
                                    gc_model_max(bytes[dc] / link_cap(g, d, c),
                                                 bytes[dc] / flows / rate_in));
    }
    double nic = gc_model_max(staggered(k, lat_out, busy_out), staggered(k, lat_in, busy_in));
    worst = gc_model_max(worst, g->lan[c].alpha + gc_model_max(nic, pair));
  }
  gc_scratch_release(g->scratch, mark);
  *t = worst;
  return GC_MODEL_OK;
}

int gc_model_linear_grid(const struct gc_model_grid *g, size_t m, double *t)
{
  return with_uniform_pairs(g, m, t, gc_model_linear_grid_v);
}

/* "pairwise-grid": n-1 steps, each a send and a receive with one partner, every step
 * waiting for the last (MPICH from alltoall.native_pairwise on, Open MPI's pairwise):
 * at step i rank r sends to r XOR i when n is a power of two, else to (r + i) mod n.  A
 * step lasts its slowest message: alpha_c + m beta_c inside a cluster, W[c][d] + m / rate
 * across, the rate being the interface or the link's share among the step's flows from
 * c to d, whichever is smaller; where the configuration measured a curve, a message alone
 * takes the curve's time and a shared one pays the share on top (link.c).  O(n^2 + n k^2) per prediction. */
int gc_model_pairwise_grid(const struct gc_model_grid *g, int P, const int *cluster_of,
                           size_t m, double *t)
{
  if (!t || P < 1 || !cluster_of || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  for (int r = 0; r < P; r++)
    if (cluster_of[r] < 0 || cluster_of[r] >= g->k)
      return GC_MODEL_EINVAL;
  int k = g->k;
  size_t mark = gc_scratch_mark(g->scratch);
  int *flows = gc_scratch_take(g->scratch, (size_t)k * (size_t)k, sizeof(int));
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
        if (c == d) { /* alone on its link: its curve, or alpha + m beta (link.c) */
          gc_model_p2p_lan(&g->lan[c], m, &msg);
        } else { /* alone: its curve; shared with the step's flows: slower (link.c) */
          double nic = g->lan[c].beta > 0 ? 1.0 / g->lan[c].beta : INFINITY;
          double alone = fmin(nic, flow_cap(g, c, d));
          double lat = g->wan_latency[c * k + d] + g->lan[c].alpha;
          /* the link carries at least what one message measured alone (link.c) */
          double link = link_cap(g, c, d);
          if (gc_model_curve_message(gc_model_link_curve(g, c, d), bytes, &lat, &alone))
            link = fmax(link, alone);
          double rate = fmin(alone, link / f);
          msg = lat + bytes / rate;
        }
        step = gc_model_max(step, msg);
      }
    total += step;
  }
  gc_scratch_release(g->scratch, mark);
  *t = total;
  return GC_MODEL_OK;
}

/* "lg-backbone": LG as the executor runs it (reference.md section 3), and LG-v
 * (shim/alltoallv/lgv.c) on each pair's average block b_cd = T_cd / (n_c n_d), two
 * phases one after the other.  Phase 1, local: a process of c sends every block it holds
 * to a member of its own cluster except its own and those it stages itself: of each
 * other cluster d, floor(n_d/n_c) blocks where c plays A (it stages B's blocks), 1 where
 * it plays B.  Its row is sum over d of T_cd / n_c:
 *   T1 = max_c alpha_c + (row_c - kept_c) beta_c gamma_c
 * paid wherever a process has a block to hand over (LG-v's stagers learn their sizes in
 * this phase, so it is paid on empty blocks too).
 * Phase 2, wide area, every pair (A, B) of a <= b members exchanging T_cd each way over
 * its links, all pairs posted at once: an A member sends ceil(b/a) messages of a blocks,
 * a B member ceil(a/r) messages of r blocks (r its block's size), and receives its own
 * blocks (T_dc / n_c).  Each pair's flows pay the pair's latency W_cd and then cross the
 * link and the interfaces (as in linear-grid):
 *   T2 = max_c alpha_c + max(staggered(c's bytes to or from d from W_cd) beta_c,
 *                            max over d of W_cd + max(T_cd / bw_cd, a b_cd / rate_cd))
 * rate_cd the rate one flow may reach (network.wan.window).  T = T1 + T2: every block
 * crosses the wide area once, so T2 alone is at least the shared-link bound.  Where the
 * configuration measured the pair's curve, W_cd and rate_cd are the curve's at a flow's
 * a b_cd bytes (gc_model_wan_message, link.c). */
/* LG's two phases on per-pair totals: *t1 the local one, *t2 the wide-area one (both
 * s). The arguments are checked by the callers. sparse: a direction that carries no
 * bytes sends nothing (the relayed run's pairs gone all through a relay); LG-v sends
 * its empty blocks' sizes, so it pays their latency. */
static int lgv_phases(const struct gc_model_grid *g, const double *bytes, int sparse,
                      double *t1_out, double *t2_out)
{
  int k = g->k, n = 0;
  for (int c = 0; c < k; c++)
    n += g->size[c];
  size_t mark = gc_scratch_mark(g->scratch);
  double *scratch = gc_scratch_take(g->scratch, (size_t)k * 2, sizeof(double));
  if (!scratch)
    return GC_MODEL_ENOMEM;
  double *lat = scratch, *busy = scratch + k;
  double t1 = 0.0, t2 = 0.0;
  for (int c = 0; c < k; c++) {
    double nc = g->size[c], row = 0.0, kept = bytes[c * k + c] / (nc * nc), pair = 0.0;
    int kept_blocks = 1; /* its own */
    for (int d = 0; d < k; d++) {
      size_t cd = (size_t)c * (size_t)k + (size_t)d, dc = (size_t)d * (size_t)k + (size_t)c;
      row += bytes[cd] / nc;
      lat[d] = busy[d] = 0.0;
      if (d == c)
        continue;
      double block = bytes[cd] / (nc * g->size[d]), out;
      if (gc_model_lg_plays_a(g->size, c, d)) { /* a = n_c <= b = n_d */
        int a = g->size[c], b = g->size[d];
        kept_blocks += b / a;
        kept += (double)(b / a) * block;
        out = (double)((b + a - 1) / a) * a * block;
      } else { /* c plays B: a = n_d <= b = n_c, r the smallest block of c */
        int a = g->size[d], b = g->size[c], r = b % a ? b % a : a;
        kept_blocks += 1;
        kept += block;
        out = (double)((a + r - 1) / r) * r * block;
      }
      int out_any = !sparse || bytes[cd] > 0.0, in_any = !sparse || bytes[dc] > 0.0;
      if (!out_any && !in_any)
        continue;
      busy[d] = gc_model_max(out, bytes[dc] / nc) * g->lan[c].beta;
      double a = gc_model_min_int(g->size[c], g->size[d]);
      double back = bytes[dc] / (nc * g->size[d]);
      /* A flow carries a blocks: alone, its curve's time where there is one. */
      double rate_out, rate_in;
      double lat_out = gc_model_wan_message(g, c, d, a * block, &rate_out);
      double lat_in = gc_model_wan_message(g, d, c, a * back, &rate_in);
      lat[d] = lat_out;
      if (out_any)
        pair = gc_model_max(pair, lat_out + gc_model_max(bytes[cd] / link_cap(g, c, d),
                                                         a * block / rate_out));
      if (in_any)
        pair = gc_model_max(pair, lat_in + gc_model_max(bytes[dc] / link_cap(g, d, c),
                                                        a * back / rate_in));
    }
    if (g->size[c] > 1 && n > kept_blocks)
      t1 = gc_model_max(t1, g->lan[c].alpha + nic_time(g, c, gc_model_max(row - kept, 0.0)));
    if (k > 1)
      t2 = gc_model_max(t2, g->lan[c].alpha + gc_model_max(staggered(k, lat, busy), pair));
  }
  gc_scratch_release(g->scratch, mark);
  *t1_out = t1, *t2_out = t2;
  return GC_MODEL_OK;
}

int gc_model_lgv_backbone(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !pairs_ok(g, bytes))
    return GC_MODEL_EINVAL;
  double t1, t2;
  int rc = lgv_phases(g, bytes, 0, &t1, &t2);
  if (rc == GC_MODEL_OK)
    *t = t1 + t2;
  return rc;
}

int gc_model_lg_backbone(const struct gc_model_grid *g, size_t m, double *t)
{
  return with_uniform_pairs(g, m, t, gc_model_lgv_backbone);
}

size_t gc_model_relay_row_scratch(int n, int k)
{
  size_t kk = (size_t)k * (size_t)k;
  size_t plan = gc_scratch_add(gc_scratch_cost(kk, sizeof(double)), gc_scratch_cost(kk, sizeof(int)));
  size_t work = gc_scratch_cost(8 * kk + 2 * (size_t)k, sizeof(double)); /* the planner's */
  /* Where the routes relay: the parts' sizes, held while first their work (n times
   * relay_plan.h's 4 parts, and 2n ints), then the model's need, are taken. */
  size_t parts = gc_scratch_add(gc_scratch_cost(4 * (size_t)n, sizeof(double)),
                                gc_scratch_cost(2 * (size_t)n, sizeof(int)));
  size_t model = gc_scratch_add(gc_scratch_cost(4 * kk + (size_t)k, sizeof(double)),
                                gc_scratch_cost(2 * (size_t)k, sizeof(double)));
  size_t relayed = gc_scratch_add(gc_scratch_cost(kk, sizeof(double)),
                                  parts > model ? parts : model);
  return gc_scratch_add(plan, work > relayed ? work : relayed);
}

double gc_model_link_rate(const struct gc_model_grid *g, int c, int d, int flows)
{
  /* One flow's rate as lg-backbone's messages move: the curve's where the configuration
   * measured one (the line's fitted bandwidth is far below it where the MPI library
   * switches protocol). */
  return fmin(link_cap(g, c, d), (double)flows * gc_model_flow_rate(g, c, d));
}

double gc_model_lg_leg(const struct gc_model_grid *g, int x, int y, int c, int d, size_t m,
                       double *rate)
{
  double r, msg = (double)gc_model_min_int(g->size[c], g->size[d]) * (double)m;
  return gc_model_wan_message(g, x, y, msg, rate ? rate : &r);
}

/* A relayed leg's latency on link (x,y) for pair (c,d)'s messages, and its rate: at the
 * size of the largest part crossing that link where the caller knows it (part[x*k + y]:
 * relay_plan.h, gc_alltoall_relay_part_bytes; a leg's parts leave at once, so the largest
 * sets its latency), else at the pair's wide message's (gc_model_lg_leg). */
static double relay_leg(const struct gc_model_grid *g, int x, int y, int c, int d, size_t m,
                        const double *part, double *rate)
{
  double r;
  size_t e = (size_t)x * (size_t)g->k + (size_t)y;
  if (part && part[e] > 0.0)
    return gc_model_wan_message(g, x, y, part[e], rate ? rate : &r);
  return gc_model_lg_leg(g, x, y, c, d, m, rate);
}

/* "relay-backbone": LG with part of some pairs' bytes relayed through a third cluster
 * (shim/alltoall/pure/relay_plan.h, issue 27), built from lg-backbone's terms.  The local
 * phase is LG's on every byte (the relayed blocks are staged as LG stages them).  The
 * wide-area phase is the larger of
 *  - lg-backbone's phase 2 on the bytes that stay direct (the interfaces fed as the
 *    latencies release their flows, each pair's link), and
 *  - every link's end when it also carries the relayed bytes crossing it: alpha + the
 *    latest latency of the routes ending on it (W_cr + W_rd for a second leg, each leg's
 *    W its largest part's where part gives it, else its message's: relay_leg) + its
 *    load / gc_model_link_rate (the pair's link, max(n_x, n_y) flows of one flow's
 *    rate); a relay cluster's n_r interfaces
 *    forwarding their bytes after W_cr + W_rd, and carrying them beside the cluster's
 *    own wide bytes, n_r (n - n_r) m each way, from the start;
 * plus, for a relayed pair, cut-through in nseg parts (relay_plan.h): a relay forwards a
 * part once it is in, so the relayed bytes' last parts cross (r,d) once (c,r) has carried
 * its load: W_cr + load_cr / rate + W_rd + (relayed bytes on (r,d)) / (nseg rate) (nseg
 * 1: store and forward, the relay receiving what it forwards whole); and one relayed
 * message's own hop at its legs' rate (gc_model_wan_message).  No agreement: the run
 * makes none once its buffers and routes are agreed (relay.c), as LG.  With every share 0
 * it is lg-backbone. */
int gc_model_relay_backbone(const struct gc_model_grid *g, size_t m, const double *share,
                            const int *via, int nseg, const double *part, double *t)
{
  if (!t || !share || !via || nseg < 1 || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  int k = g->k;
  size_t kk = (size_t)k * (size_t)k, mark = gc_scratch_mark(g->scratch);
  for (size_t e = 0; e < kk; e++)
    if (!(share[e] >= 0.0 && share[e] <= 1.0) || via[e] >= k || (via[e] >= 0 && (
        (int)(e / (size_t)k) == via[e] || (int)(e % (size_t)k) == via[e])))
      return GC_MODEL_EINVAL;
  double *bytes = gc_scratch_take(g->scratch, 4 * kk + (size_t)k, sizeof(double));
  if (!bytes)
    return GC_MODEL_ENOMEM;
  double *direct = bytes + kk, *load = direct + kk, *reach = load + kk, *fwd = reach + kk;
  for (int c = 0; c < k; c++) {
    fwd[c] = 0.0;
    for (int d = 0; d < k; d++) {
      size_t e = (size_t)c * (size_t)k + (size_t)d;
      bytes[e] = (double)g->size[c] * (double)g->size[d] * (double)m;
      double relayed = c != d && via[e] >= 0 ? share[e] * bytes[e] : 0.0;
      direct[e] = bytes[e] - relayed;
      load[e] = c == d ? 0.0 : direct[e];
      reach[e] = c == d ? 0.0 : gc_model_lg_leg(g, c, d, c, d, m, NULL);
    }
  }
  double t1, t2, t1_direct, links = 0.0;
  int n_all = 0;
  for (int c = 0; c < k; c++)
    n_all += g->size[c];
  int rc = lgv_phases(g, bytes, 0, &t1, &t2);
  if (rc == GC_MODEL_OK)
    rc = lgv_phases(g, direct, 1, &t1_direct, &t2);
  for (int c = 0; rc == GC_MODEL_OK && c < k; c++)
    for (int d = 0; d < k; d++) {
      size_t e = (size_t)c * (size_t)k + (size_t)d;
      int r = via[e];
      double x = bytes[e] - direct[e];
      if (c == d || r < 0 || x <= 0.0)
        continue;
      size_t cr = (size_t)c * (size_t)k + (size_t)r, rd = (size_t)r * (size_t)k + (size_t)d;
      double rate_cr, rate_rd;
      double l2 = relay_leg(g, c, r, c, d, m, part, &rate_cr) +
                  relay_leg(g, r, d, c, d, m, part, &rate_rd);
      load[cr] += x, load[rd] += x, fwd[r] += x;
      reach[rd] = gc_model_max(reach[rd], l2);
      double msg = (double)gc_model_min_int(g->size[c], g->size[d]) * (double)m;
      links = gc_model_max(links, l2 + msg / fmin(rate_cr, rate_rd));
      double nic = g->lan[r].beta > 0.0 ? g->size[r] / g->lan[r].beta : INFINITY;
      /* r's interfaces: what it forwards from l2 on, and beside it its own wide bytes
       * (each way, whatever their route) from the start. */
      double own = (double)g->size[r] * (double)(n_all - g->size[r]) * (double)m;
      links = gc_model_max(links, gc_model_max(l2 + fwd[r] / nic, (own + fwd[r]) / nic));
    }
  /* Cut-through: the relayed bytes cross (r,d) as their parts arrive at r, so what is
   * left once (c,r) carried its whole load is the last part of each (fwd_on: the second
   * legs' bytes, in nseg parts). */
  for (int c = 0; rc == GC_MODEL_OK && c < k; c++)
    for (int d = 0; d < k; d++) {
      size_t e = (size_t)c * (size_t)k + (size_t)d;
      int r = via[e];
      if (c == d || r < 0 || bytes[e] - direct[e] <= 0.0)
        continue;
      size_t cr = (size_t)c * (size_t)k + (size_t)r;
      double fwd_on = 0.0;
      for (int x = 0; x < k; x++) {
        size_t xd = (size_t)x * (size_t)k + (size_t)d;
        if (x != d && via[xd] == r)
          fwd_on += bytes[xd] - direct[xd];
      }
      int f1 = g->size[c] > g->size[r] ? g->size[c] : g->size[r];
      int f2 = g->size[r] > g->size[d] ? g->size[r] : g->size[d];
      links = gc_model_max(links, g->lan[c].alpha + relay_leg(g, c, r, c, d, m, part, NULL) +
                                      load[cr] / gc_model_link_rate(g, c, r, f1) +
                                      relay_leg(g, r, d, c, d, m, part, NULL) +
                                      fwd_on / nseg / gc_model_link_rate(g, r, d, f2));
    }
  for (int c = 0; rc == GC_MODEL_OK && c < k; c++)
    for (int d = 0; d < k; d++) {
      size_t e = (size_t)c * (size_t)k + (size_t)d;
      if (c == d || load[e] <= 0.0)
        continue;
      int flows = g->size[c] > g->size[d] ? g->size[c] : g->size[d];
      links = gc_model_max(links, g->lan[c].alpha + reach[e] +
                                      load[e] / gc_model_link_rate(g, c, d, flows));
    }
  gc_scratch_release(g->scratch, mark);
  if (rc == GC_MODEL_OK)
    *t = t1 + gc_model_max(t2, links);
  return rc;
}
