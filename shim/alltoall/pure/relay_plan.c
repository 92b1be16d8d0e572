/* The relayed all-to-all's planner and routes (relay_plan.h). */
#include "relay_plan.h"

#include <math.h>
#include <stdlib.h>

/* Bisection steps: the interval shrinks 2^-40, far below any latency. */
#define BISECT 40

/* Counted in the relay row's scratch need, gc_model_relay_row_scratch (model/): keep the
 * two alike. */
size_t gc_alltoall_relay_plan_work(int k)
{
  size_t kk = (size_t)k * (size_t)k;
  /* per link: load, reach, relayed, 2 for the order, the rate and the direct latency;
   * per cluster: what it forwards and its own wide bytes */
  return 8 * kk + 2 * (size_t)k;
}

struct plan_in {
  const struct gc_model_grid *g;
  int k;
  double m;
  double *load;  /* [kk] bytes placed on each link */
  double *reach; /* [kk] the latest latency of the routes ending on it */
  double *relayed; /* [kk] the relayed bytes it carries as a second leg */
  double *order; /* [2 kk] (bytes left, pair) */
  double *fwd;   /* [k] bytes each relay cluster forwards */
  /* What no T changes, computed once before the bisection (each step asks for them
   * O(k^3) times): */
  double *cap;    /* [kk] the rate LG's model gives each link (cap_of) */
  double *direct_lat; /* [kk] the latency of each pair's own messages on its own link */
  double *own;    /* [k] each cluster's own wide bytes, each way (own_wide) */
  int nseg;      /* the parts of a leg (cut-through: forward_room) */
};

static double bytes_of(const struct plan_in *in, int c, int d)
{
  return (double)in->g->size[c] * (double)in->g->size[d] * in->m;
}

static double rate_of(const struct gc_model_grid *g, int c, int d)
{
  int flows = g->size[c] > g->size[d] ? g->size[c] : g->size[d];
  return gc_model_link_rate(g, c, d, flows);
}

static double cap_of(const struct plan_in *in, int c, int d)
{
  return in->cap[(size_t)c * (size_t)in->k + (size_t)d];
}

/* The latency of pair (c,d)'s wide messages on link (x,y): (c,d) itself or a leg of
 * its route through a relay, at the messages' size (gc_model_lg_leg: the curve's where
 * the configuration measured one, so a protocol switch costs each leg). */
static double lat_of(const struct plan_in *in, int x, int y, int c, int d)
{
  return gc_model_lg_leg(in->g, x, y, c, d, (size_t)in->m, NULL);
}

/* What link (x,y) can still take by T of bytes whose route reaches its far end at `lat`. */
static double room(const struct plan_in *in, int x, int y, double lat, double T)
{
  size_t e = (size_t)x * (size_t)in->k + (size_t)y;
  double reach = in->reach[e] > lat ? in->reach[e] : lat;
  double cap = cap_of(in, x, y);
  if (T <= reach)
    return 0.0;
  return isinf(cap) ? INFINITY : (T - reach) * cap - in->load[e];
}

/* The bytes cluster r's own pairs send over the wide area, each way (the all-to-all is
 * symmetric): they leave and enter through r's interfaces whatever their route. */
static double own_wide(const struct plan_in *in, int r)
{
  double sum = 0.0;
  for (int d = 0; d < in->k; d++)
    if (d != r)
      sum += bytes_of(in, r, d);
  return sum;
}

/* The interfaces of relay cluster r: n_r of them, 1/beta_r each, in and out at once. What
 * it forwards crosses them from `lat` on, beside its own wide bytes from the start. */
static double fwd_room(const struct plan_in *in, int r, double lat, double T)
{
  double beta = in->g->lan[r].beta;
  if (T <= lat)
    return 0.0;
  if (!(beta > 0.0))
    return INFINITY;
  double nic = in->g->size[r] / beta;
  return fmin((T - lat) * nic, T * nic - in->own[r]) - in->fwd[r];
}

/* When the relayed bytes placed so far are through route (c,r,d), forwarded in nseg
 * parts: W_cr + load_cr / cap_cr + W_rd + relayed_rd / (nseg cap_rd) (forward_room's
 * left side with x = 0). l2: the two legs' latencies, W_cr + W_rd. */
static double route_end(const struct plan_in *in, int c, int r, int d, double l2, int nseg)
{
  double in_cap = cap_of(in, c, r), out_cap = cap_of(in, r, d) * nseg;
  return l2 + (isinf(in_cap) ? 0.0 : in->load[c * in->k + r] / in_cap) +
         (isinf(out_cap) ? 0.0 : in->relayed[r * in->k + d] / out_cap);
}

/* A relay forwards each part of what it receives once the part is in (relay.c:
 * cut-through in nseg parts), so of relayed bytes x, what is left to cross (r,d) once link
 * (c,r) has carried its load with them is the last part of x and of the relayed bytes
 * already there (its own pair's go from the start, alongside):
 *   W_cr + (load_cr + x) / cap_cr + W_rd + (relayed_rd + x) / (nseg cap_rd) <= T;
 * nseg 1 is store and forward, the relay receiving what it forwards whole. l2: the two
 * legs' latencies, W_cr + W_rd (the caller's, already computed). */
static double forward_room(const struct plan_in *in, int c, int r, int d, double l2, double T)
{
  double in_cap = cap_of(in, c, r), out_cap = cap_of(in, r, d) * in->nseg;
  double per = (isinf(in_cap) ? 0.0 : 1.0 / in_cap) + (isinf(out_cap) ? 0.0 : 1.0 / out_cap);
  double used = route_end(in, c, r, d, l2, in->nseg);
  if (T <= used)
    return 0.0;
  return per > 0.0 ? (T - used) / per : INFINITY;
}

static void place(struct plan_in *in, int x, int y, double lat, double bytes)
{
  size_t e = (size_t)x * (size_t)in->k + (size_t)y;
  in->load[e] += bytes;
  if (lat > in->reach[e])
    in->reach[e] = lat;
}

/* How many wide messages LG sends from cluster c to cluster d (sizes: the clusters'):
 * their numbers q (message()) are 0 .. that - 1, every one of them. */
static long long pair_messages(const int *size, int c, int d)
{
  long long nc = size[c], nd = size[d];
  if (gc_model_lg_plays_a(size, c, d)) /* one per member of d */
    return nd;
  return (nc + nd - 1) / nd * nd; /* a group of nd per nd members of c (message()) */
}

/* How many of a pair's Q messages share f relays: floor(Q f), and exactly n for a share
 * of whole messages n / Q (whole_messages), whichever way the division rounded. */
static long long relayed_of(long long Q, double f)
{
  return (long long)floor((double)Q * f + 1e-9);
}

static int by_bytes_left(const void *a, const void *b)
{
  const double *x = a, *y = b;
  return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Can every link end by T? Fills share and via when it can. */
static int feasible(struct plan_in *in, double T, double *share, int *via)
{
  int k = in->k, npairs = 0;
  for (int e = 0; e < k * k; e++)
    in->load[e] = in->reach[e] = in->relayed[e] = share[e] = 0.0, via[e] = -1;
  for (int r = 0; r < k; r++)
    in->fwd[r] = 0.0;
  /* Each pair's own link first: all it can carry by T. */
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      double B = bytes_of(in, c, d);
      if (c == d || B <= 0.0)
        continue;
      double lat = in->direct_lat[c * k + d], direct = fmin(B, fmax(0.0, room(in, c, d, lat, T)));
      if (direct > 0.0)
        place(in, c, d, lat, direct);
      if (B - direct > B * 1e-12) {
        in->order[2 * npairs] = B - direct;
        in->order[2 * npairs + 1] = c * k + d;
        npairs++;
      }
    }
  qsort(in->order, (size_t)npairs, 2 * sizeof(double), by_bytes_left);
  for (int i = 0; i < npairs; i++) {
    double left = in->order[2 * i];
    int e = (int)in->order[2 * i + 1], c = e / k, d = e % k, best = -1;
    double best_room = 0.0;
    for (int r = 0; r < k; r++) {
      if (r == c || r == d)
        continue;
      double l1 = lat_of(in, c, r, c, d), l2 = l1 + lat_of(in, r, d, c, d);
      double x = fmin(room(in, c, r, l1, T), fmin(room(in, r, d, l2, T), fwd_room(in, r, l2, T)));
      x = fmin(x, forward_room(in, c, r, d, l2, T));
      if (x > best_room)
        best = r, best_room = x;
    }
    if (best < 0 || best_room < left * (1.0 - 1e-9))
      return 0;
    double l1 = lat_of(in, c, best, c, d);
    place(in, c, best, l1, left);
    place(in, best, d, l1 + lat_of(in, best, d, c, d), left);
    in->relayed[best * k + d] += left;
    in->fwd[best] += left;
    share[e] = fmin(1.0, left / bytes_of(in, c, d));
    via[e] = best;
  }
  return 1;
}

/* When the wide-area links end with the plan's shares as they are (share, via), its
 * relayed bytes stored and forwarded: a relay sends on what crossed (c,r) once (c,r) has
 * carried its whole load (route_end with nseg 1); each link as room() counts it, each
 * relay's interfaces as fwd_room() does. *pair_end: when the bytes of pair `pair` are in,
 * by either route. Leaves in->load, reach, relayed and fwd as feasible would for these
 * shares. */
static double stored_end(struct plan_in *in, const double *share, const int *via, int pair,
                         double *pair_end)
{
  int k = in->k;
  for (int e = 0; e < k * k; e++)
    in->load[e] = in->reach[e] = in->relayed[e] = 0.0;
  for (int r = 0; r < k; r++)
    in->fwd[r] = 0.0, in->order[r] = 0.0; /* order[r]: the latest route through r */
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      int e = c * k + d, r = via[e];
      double B = bytes_of(in, c, d), f = r >= 0 ? share[e] : 0.0;
      if (c == d || B <= 0.0)
        continue;
      if (f < 1.0)
        place(in, c, d, in->direct_lat[e], (1.0 - f) * B);
      if (f > 0.0) {
        double l1 = lat_of(in, c, r, c, d), l2 = l1 + lat_of(in, r, d, c, d);
        place(in, c, r, l1, f * B);
        place(in, r, d, l2, f * B);
        in->relayed[r * k + d] += f * B, in->fwd[r] += f * B;
        in->order[r] = fmax(in->order[r], l2);
      }
    }
  double end = 0.0;
  *pair_end = 0.0;
  for (int e = 0; e < k * k; e++)
    if (in->load[e] > 0.0) {
      double t = in->reach[e] + (isinf(in->cap[e]) ? 0.0 : in->load[e] / in->cap[e]);
      end = fmax(end, t);
      if (e == pair && share[e] < 1.0)
        *pair_end = t;
    }
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      int e = c * k + d, r = via[e];
      if (c == d || r < 0 || !(share[e] > 0.0) || bytes_of(in, c, d) <= 0.0)
        continue;
      double t = route_end(in, c, r, d, lat_of(in, c, r, c, d) + lat_of(in, r, d, c, d), 1);
      end = fmax(end, t);
      if (e == pair)
        *pair_end = fmax(*pair_end, t);
    }
  for (int r = 0; r < k; r++) { /* fwd_room: its interfaces, with its own bytes */
    double beta = in->g->lan[r].beta, nic = in->g->size[r] / beta;
    if (in->fwd[r] > 0.0 && beta > 0.0)
      end = fmax(end, fmax(in->order[r] + in->fwd[r] / nic, (in->own[r] + in->fwd[r]) / nic));
  }
  return end;
}

/* Whole messages. The routes relay n of a pair's Q wide messages, not a fraction: n is
 * floor(Q f) or the one above, and which of them matters where Q is small (the rig's
 * grid3 at 1 MiB: Q = 2 and f under a half, so floor relays nothing, LG's routes, and one
 * message relayed runs 1.42x-1.46x faster than LG, doc/benchmarks.md) and where a link is
 * the call's end (broken4's c0 -> c2, 6 or 7 of 14: floor is 5% faster under SimGrid).
 * Each relayed pair, in turn, takes the count above floor where the links then end
 * earlier, priced as stored and forwarded (stored_end): a leg's parts, posted together,
 * reach the relay together (doc/benchmarks.md, "Where the relay path loses"), so the
 * cut-through the planner counts is an optimistic price to choose counts by; it would
 * choose the count above on broken4 and grid3, where SimGrid runs the one below faster.
 * share becomes n / Q; a pair with n = 0 goes direct. */
static void whole_messages(struct plan_in *in, double *share, int *via)
{
  int k = in->k;
  const int *size = in->g->size;
  for (int e = 0; e < k * k; e++)
    if (via[e] >= 0 && share[e] > 0.0) {
      long long Q = pair_messages(size, e / k, e % k);
      share[e] = (double)relayed_of(Q, share[e]) / (double)Q;
    }
  for (int e = 0; e < k * k; e++) {
    if (via[e] < 0)
      continue;
    long long Q = pair_messages(size, e / k, e % k), n = relayed_of(Q, share[e]);
    double was = share[e], pair_was, pair_then;
    if (n >= Q)
      continue;
    double end = stored_end(in, share, via, e, &pair_was);
    share[e] = (double)(n + 1) / (double)Q;
    double t = stored_end(in, share, via, e, &pair_then);
    /* Earlier, or as early with this pair's own bytes in earlier: the pairs of a link
     * each way (the rig's a -> b and b -> a) end the call together, and neither alone
     * moves its end. */
    int earlier = t < end * (1.0 - 1e-9),
        as_early = t <= end * (1.0 + 1e-9) && pair_then < pair_was * (1.0 - 1e-9);
    if (!earlier && !as_early)
      share[e] = was;
  }
  for (int e = 0; e < k * k; e++)
    if (!(share[e] > 0.0))
      share[e] = 0.0, via[e] = -1;
}

int gc_alltoall_relay_plan_make(const struct gc_model_grid *g, double m, double *work,
                                struct gc_alltoall_relay_plan *p)
{
  if (!p || !work || !p->share || !p->via || !(m >= 0.0) || !isfinite(m) || !g ||
      p->nseg < 1 || p->nseg > GC_ALLTOALL_RELAY_SEGMENTS ||
      g->k < 1 || p->k != g->k || !g->size || !g->lan ||
      (g->k > 1 && (!g->wan_latency || !g->wan_bandwidth)))
    return GC_MODEL_EINVAL;
  int k = g->k;
  size_t kk = (size_t)k * (size_t)k;
  struct plan_in in = {.g = g, .k = k, .m = m, .load = work, .reach = work + kk,
                       .relayed = work + 2 * kk, .order = work + 3 * kk, .cap = work + 5 * kk,
                       .direct_lat = work + 6 * kk, .fwd = work + 7 * kk,
                       .own = work + 7 * kk + (size_t)k, .nseg = p->nseg};
  double direct = 0.0;
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      size_t e = (size_t)c * (size_t)k + (size_t)d;
      in.cap[e] = c != d ? rate_of(g, c, d) : 0.0;
      in.direct_lat[e] = c != d ? lat_of(&in, c, d, c, d) : 0.0;
      double B = bytes_of(&in, c, d);
      if (c != d && B > 0.0)
        direct = fmax(direct, in.direct_lat[e] + B / in.cap[e]);
    }
  for (int c = 0; c < k; c++)
    in.own[c] = own_wide(&in, c);
  p->direct = p->bound = direct;
  for (size_t e = 0; e < kk; e++)
    p->share[e] = 0.0, p->via[e] = -1;
  if (k < 3 || m <= 0.0 || !isfinite(direct))
    return GC_MODEL_OK;
  double lo = 0.0, hi = direct;
  for (int i = 0; i < BISECT; i++) {
    double mid = 0.5 * (lo + hi);
    if (feasible(&in, mid, p->share, p->via))
      hi = mid;
    else
      lo = mid;
  }
  if (hi < direct * (1.0 - 1e-9) && feasible(&in, hi, p->share, p->via)) {
    p->bound = hi;
    if (p->whole)
      whole_messages(&in, p->share, p->via);
  } else { /* no relay helps: LG's routes */
    for (size_t e = 0; e < kk; e++)
      p->share[e] = 0.0, p->via[e] = -1;
  }
  return GC_MODEL_OK;
}

int gc_alltoall_relay_plan_take(const struct gc_model_grid *g, double m,
                                struct gc_alltoall_relay_plan *p)
{
  if (!g || g->k < 1)
    return GC_MODEL_EINVAL;
  size_t kk = (size_t)g->k * (size_t)g->k;
  *p = (struct gc_alltoall_relay_plan){.k = g->k, .nseg = GC_ALLTOALL_RELAY_SEGMENTS, .whole = 1};
  p->share = gc_scratch_take(g->scratch, kk, sizeof(double));
  p->via = gc_scratch_take(g->scratch, kk, sizeof(int));
  double *work = gc_scratch_take(g->scratch, gc_alltoall_relay_plan_work(g->k), sizeof(double));
  if (!p->share || !p->via || !work)
    return GC_MODEL_ENOMEM;
  int rc = gc_alltoall_relay_plan_make(g, m, work, p);
  /* The work is on top: give it back, keep the plan (the caller's mark covers both). */
  gc_scratch_release(g->scratch, (size_t)((unsigned char *)work - g->scratch->base));
  return rc;
}

int gc_alltoall_relay_plan_relays(const struct gc_alltoall_relay_plan *p)
{
  for (int e = 0; e < p->k * p->k; e++)
    if (p->via[e] >= 0 && p->share[e] > 0.0)
      return 1;
  return 0;
}

/* LG's wide message src -> dst: its number q in its pair and its blocks (0: none). */
static int message(const struct gc_layout *l, int src, int dst, int *q)
{
  int c = l->cluster_of[src], d = l->cluster_of[dst];
  if (c == d)
    return 0;
  int i = l->index_in_cluster[src], j = l->index_in_cluster[dst];
  int nc = l->cluster_size[c], nd = l->cluster_size[d];
  if (gc_model_lg_plays_a(l->cluster_size, c, d)) { /* A[i] -> B[j], j mod a == i */
    *q = j;
    return j % nc == i ? nc : 0;
  }
  int a = nd, s = i / a, r = nc - s * a < a ? nc - s * a : a; /* B[s a + k mod r] -> A[k] */
  *q = s * a + j;
  return j % r == i - s * a ? r : 0;
}

int gc_alltoall_relay_routes_relay(const struct gc_layout *l,
                                   const struct gc_alltoall_relay_plan *p)
{
  if (p->k != l->nclusters)
    return 0;
  for (int c = 0; c < p->k; c++)
    for (int d = 0; d < p->k; d++) {
      size_t e = (size_t)c * (size_t)p->k + (size_t)d;
      /* The last message's test in gc_alltoall_relay_of, n (Q) > n (Q - 1) ... > n (0):
       * some message is relayed exactly when n = relayed_of(Q, f) is not 0. */
      if (c != d && p->via[e] >= 0 && p->share[e] > 0.0 &&
          relayed_of(pair_messages(l->cluster_size, c, d), p->share[e]) >= 1)
        return 1;
    }
  return 0;
}

int gc_alltoall_relay_msg_blocks(const struct gc_layout *l, int src, int dst)
{
  int q;
  return message(l, src, dst, &q);
}

int gc_alltoall_relay_of(const struct gc_layout *l, const struct gc_alltoall_relay_plan *p,
                         int src, int dst)
{
  int q, c = l->cluster_of[src], d = l->cluster_of[dst];
  if (message(l, src, dst, &q) == 0)
    return -1;
  size_t e = (size_t)c * (size_t)p->k + (size_t)d;
  int r = p->via[e];
  double f = p->share[e];
  if (r < 0 || f <= 0.0)
    return -1;
  /* Message q is relayed when floor((q + 1) n / Q) > floor(q n / Q): n of the Q, spread
   * evenly (n = floor(Q f), relayed_of). */
  long long Q = pair_messages(l->cluster_size, c, d), n = relayed_of(Q, f);
  long long before = q * n / Q, upto = (q + 1) * n / Q;
  if (upto <= before)
    return -1;
  int nr = l->cluster_size[r];
  return gc_layout_member(l, r, (int)((before + c + d) % nr));
}

static int pair_relayed(const struct gc_alltoall_relay_plan *p, int c, int d)
{
  size_t e = (size_t)c * (size_t)p->k + (size_t)d;
  return c != d && p->via[e] >= 0 && p->share[e] > 0.0;
}

/* The legs of one end rank (a stager's legs out, or a destination's legs in), each
 * keyed by its relay rank: their parts' bytes accumulate in acc[R nseg + j]; list holds
 * the relay ranks seen, seen[R] == end marks them. */
struct legs_of {
  int nseg, end, count;
  double *acc;
  int *seen, *list;
};

static void legs_add(struct legs_of *x, int R, int blocks, double m)
{
  if (x->seen[R] != x->end) {
    x->seen[R] = x->end, x->list[x->count++] = R;
    for (int j = 0; j < x->nseg; j++)
      x->acc[(size_t)R * (size_t)x->nseg + (size_t)j] = 0.0;
  }
  for (int j = 0; j < x->nseg; j++) {
    int first;
    x->acc[(size_t)R * (size_t)x->nseg + (size_t)j] +=
        m * gc_alltoall_relay_part(blocks, j, x->nseg, &first);
  }
}

/* Each leg's largest part, with its flag (lg.c: an int after the blocks), into part[] of
 * the link it crosses: from cluster me to R's (out) or from R's to me. */
static void legs_end(const struct legs_of *x, const struct gc_layout *l, int k, int me,
                     int out, double *part)
{
  for (int i = 0; i < x->count; i++) {
    int R = x->list[i], r = l->cluster_of[R];
    size_t e = out ? (size_t)me * (size_t)k + (size_t)r : (size_t)r * (size_t)k + (size_t)me;
    for (int j = 0; j < x->nseg; j++) {
      double b = x->acc[(size_t)R * (size_t)x->nseg + (size_t)j] + sizeof(int);
      part[e] = b > part[e] ? b : part[e];
    }
  }
}

/* The legs of rank `end`: a stager's to its relay ranks (out 1: one per (S, R), whatever
 * the destinations) or a destination's from them (out 0: one per (R, D), whatever the
 * stagers). */
static void legs_at(struct legs_of *x, const struct gc_layout *l,
                    const struct gc_alltoall_relay_plan *p, double m, int end, int out,
                    double *part)
{
  int k = p->k, me = l->cluster_of[end];
  x->end = end, x->count = 0;
  for (int o = 0; o < k; o++) {
    int c = out ? me : o, d = out ? o : me;
    for (int t = l->cluster_start[o]; pair_relayed(p, c, d) && t < l->cluster_start[o + 1]; t++) {
      int src = out ? end : l->members[t], dst = out ? l->members[t] : end;
      int R = gc_alltoall_relay_of(l, p, src, dst);
      if (R >= 0)
        legs_add(x, R, gc_alltoall_relay_msg_blocks(l, src, dst), m);
    }
  }
  legs_end(x, l, k, me, out, part);
}

void gc_alltoall_relay_part_bytes(const struct gc_layout *l,
                                  const struct gc_alltoall_relay_plan *p, double m,
                                  double *part, double *acc, int *seen)
{
  int n = l->size;
  struct legs_of x = {.nseg = p->nseg, .acc = acc, .seen = seen, .list = seen + n};
  for (int e = 0; e < p->k * p->k; e++)
    part[e] = 0.0;
  for (int out = 1; out >= 0; out--) { /* first legs, then second legs */
    for (int i = 0; i < n; i++)
      seen[i] = -1;
    for (int end = 0; end < n; end++)
      legs_at(&x, l, p, m, end, out, part);
  }
}

int gc_alltoall_relay_part(int blocks, int j, int nseg, int *first)
{
  long long lo = (long long)blocks * j / nseg, hi = (long long)blocks * (j + 1) / nseg;
  *first = (int)lo;
  return (int)(hi - lo);
}
