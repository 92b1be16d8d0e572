/* Cost of any broadcast tree over clusters: "tree-nic-fanout" (see tree_cost.h).
 *
 * 001 Eq. 2: T(i) = T(j) + (c-1)(o_s + g) + L(j,i) + o_r, T(root) = 0, j = parent of i,
 * c = number of children of j.  gridcoll's executor posts a leader's sends to all its
 * children at once, each over its own wide-area link, sharing only the leader's network
 * interface: so the k-th child waits for k-1 postings, not for k-1 transfers, and each
 * transfer runs at its share of the interface (fan_out below).  001 Eq. 1 prints the
 * broadcast time as a sum over processes of a max; the text ("selecting maximum value of
 * completion times") and Eq. 3-4 make it max_i T(i).
 *
 * The arrivals are computed in one breadth-first pass: O(sum of c^3) for the fan-outs
 * after the O(n * depth) check that the tree is one; n is a number of clusters. */
#include "model.h"
#include "model_util.h"

int gc_model_tree_check(const struct gc_tree *t)
{
  if (!t || t->n < 1 || t->root < 0 || t->root >= t->n || !t->parent || !t->child_start ||
      (t->n > 1 && !t->children))
    return GC_MODEL_EINVAL;
  int n = t->n;
  if (t->parent[t->root] != -1 || t->child_start[0] != 0 || t->child_start[n] != n - 1)
    return GC_MODEL_EINVAL;
  /* Ranges first, so that the walks below never index outside the arrays. */
  for (int v = 0; v < n; v++)
    if ((v != t->root && (t->parent[v] < 0 || t->parent[v] >= n)) ||
        t->child_start[v + 1] < t->child_start[v])
      return GC_MODEL_EINVAL;
  for (int v = 0; v < n; v++) {
    for (int x = t->child_start[v]; x < t->child_start[v + 1]; x++) {
      int c = t->children[x];
      if (c < 0 || c >= n || c == t->root || t->parent[c] != v)
        return GC_MODEL_EINVAL;
    }
  }
  for (int v = 0; v < n; v++) {
    if (v == t->root)
      continue;
    int u = t->parent[v], seen = 0;
    for (int x = t->child_start[u]; x < t->child_start[u + 1]; x++)
      seen += t->children[x] == v;
    if (seen != 1)
      return GC_MODEL_EINVAL;
    /* The root must be reached within n - 1 steps, else there is a cycle. */
    int steps = 0;
    while (u != -1 && steps < n)
      u = t->parent[u], steps++;
    if (u != -1)
      return GC_MODEL_EINVAL;
  }
  return GC_MODEL_OK;
}

int gc_tree_bfs_order(const struct gc_tree *t, int *order)
{
  int head = 0, tail = 0;
  order[tail++] = t->root;
  while (head < tail && tail <= t->n) {
    int c = order[head++];
    for (int j = t->child_start[c]; j < t->child_start[c + 1] && tail < t->n; j++)
      order[tail++] = t->children[j];
  }
  return tail;
}

/* Weighted progressive filling of nk flows of `bytes` each, flow j entering the sharing at
 * release[j] (NULL: all at 0; a flow pays its latency first, as in SimGrid's fluid model
 * and TCP's first round trip, which carries little), capped at cap[j] bytes/s, the
 * flows in progress sharing `nic` bytes/s (INFINITY: nothing shared) in proportion to
 * weight[j] (NULL: evenly, max-min fairness); flow j carries sizes[j] bytes when sizes
 * is given.  x[j] receives the time flow j ends (from
 * 0, release included).  Each round gives the flows in progress whose cap is below their
 * share their cap, splits what is left among the others by weight, and advances to the
 * next end or release: at most 2 nk rounds of O(nk^2).  left[] and rate[]: scratch of
 * nk doubles. */
void gc_model_fan_out(int nk, const double *cap, const double *weight, const double *release,
                      double nic, double bytes, const double *sizes, double *left, double *rate,
                      double *x)
{
  int running = nk;
  double now = 0.0;
  for (int j = 0; j < nk; j++)
    left[j] = sizes ? sizes[j] : bytes, x[j] = -1.0;
  while (running > 0) {
    double room = nic, next = INFINITY;
    for (int j = 0; j < nk; j++) {
      int waiting = release && x[j] < 0.0 && release[j] > now;
      if (waiting)
        next = fmin(next, release[j]);
      rate[j] = x[j] < 0.0 && !waiting ? -1.0 : 0.0; /* -1: in progress, share not fixed */
    }
    for (;;) {
      double wsum = 0.0;
      for (int j = 0; j < nk; j++)
        if (rate[j] < 0.0)
          wsum += weight ? weight[j] : 1.0;
      if (wsum <= 0.0)
        break;
      /* Shares computed once per pass: fixing a flow below its share only raises the
       * others', so every flow fixed in this pass was rightly fixed. */
      double unit = room / wsum;
      int fixed = 0;
      for (int j = 0; j < nk; j++)
        if (rate[j] < 0.0 && cap[j] <= unit * (weight ? weight[j] : 1.0)) {
          rate[j] = cap[j], fixed = 1;
          if (isfinite(room))
            room -= cap[j];
        }
      if (!fixed) {
        for (int j = 0; j < nk; j++)
          if (rate[j] < 0.0)
            rate[j] = unit * (weight ? weight[j] : 1.0);
        break;
      }
    }
    double step = next - now;
    for (int j = 0; j < nk; j++)
      if (x[j] < 0.0 && rate[j] > 0.0)
        step = fmin(step, left[j] / rate[j]);
    if (!isfinite(step)) { /* no bandwidth at all: cannot happen with nic, caps > 0 */
      for (int j = 0; j < nk; j++)
        x[j] = x[j] < 0.0 ? INFINITY : x[j];
      return;
    }
    double then = now + step;
    for (int j = 0; j < nk; j++) {
      if (x[j] >= 0.0 || rate[j] <= 0.0)
        continue;
      if (isinf(rate[j])) { /* nothing limits it: done at once (0 * INFINITY is NaN) */
        x[j] = now, running--;
        continue;
      }
      left[j] -= step * rate[j];
      if (left[j] <= (sizes ? sizes[j] : bytes) * 1e-12)
        x[j] = then, running--;
    }
    now = then;
  }
}

static double edge_latency(const struct gc_tree_input *in, int c, int n)
{
  return in->W ? in->W[(size_t)c * (size_t)in->k + (size_t)n] : in->uniform;
}

void gc_tree_edge_alone(const struct gc_tree_input *in, int c, int n, double *latency,
                        double *rate)
{
  *latency = c == n ? 0.0 : edge_latency(in, c, n);
  *rate = gc_tree_edge_rate(in, c, n);
  const struct gc_curve *cv = in->curve && c != n ? in->curve[(size_t)c * (size_t)in->k + (size_t)n] : NULL;
  if (gc_curve_set(cv)) /* the rate its largest sizes move at, as the all-to-alls take it */
    *rate = gc_model_curve_rate(cv);
  gc_model_curve_message(cv, in->bytes, latency, rate);
}

int gc_model_tree_arrivals(const struct gc_tree_input *in, const struct gc_tree *t,
                           double *times)
{
  if (!in || !times || gc_model_tree_check(t) != GC_MODEL_OK || in->k != t->n ||
      in->root != t->root || !gc_model_param_ok(in->segment))
    return GC_MODEL_EINVAL;
  for (int c = 0; in->nic && c < in->k; c++)
    if (!gc_model_bw_ok(in->nic[c]))
      return GC_MODEL_EINVAL;
  int n = t->n;
  size_t mark = gc_scratch_mark(in->scratch);
  int *bfs = gc_scratch_take(in->scratch, (size_t)n, sizeof(int));
  /* n + 1: a leader's children (at most n - 1) and its own cluster's broadcast. */
  double *scratch = gc_scratch_take(in->scratch, (size_t)(n + 1) * 8, sizeof(double));
  if (!bfs || !scratch) {
    gc_scratch_release(in->scratch, mark);
    return GC_MODEL_ENOMEM;
  }
  size_t n1 = (size_t)n + 1;
  double *first = scratch, *cap = scratch + n1, *left = scratch + 2 * n1, *x = scratch + 3 * n1,
         *rate = scratch + 4 * n1, *weight = scratch + 5 * n1, *release = scratch + 6 * n1,
         *size = scratch + 7 * n1;
  double m = in->bw ? in->bytes : 0.0;
  double seg = in->segment > 0.0 && in->segment < m ? in->segment : m;
  double nseg = seg > 0.0 ? ceil(m / seg) : 1.0;
  gc_tree_bfs_order(t, bfs);
  times[t->root] = first[t->root] = 0.0;
  for (int h = 0; h < n; h++) {
    int c = bfs[h], start = t->child_start[c], nk = t->child_start[c + 1] - start;
    const int *kids = t->children + start;
    /* The segments c keeps posted to a child at once (its group) are flows of their own:
     * they share the edge, end together (so the child receives them as one group of
     * `unit` bytes and forwards the first only when the whole group is in), and weigh
     * group times one flow where they share c's interface, each with its own window. */
    double group = in->seg_ahead > 0 ? fmin(nseg, in->seg_ahead) : 1.0;
    if (in->seg_ahead > 0 && in->seg_requests > 0 && nk > 0)
      group = fmin(group, fmax(1.0, floor((double)in->seg_requests / nk)));
    double unit = fmin(m, group * seg);
    /* A child posts the receives of the next group only as the previous one arrives
     * (GC_BCAST_RECV_AHEAD), and a transfer starts only once its receive is posted (SMPI
     * matches before it moves data, as any rendezvous does): every group after the first
     * pays the edge's latency again.  seg_ahead 0: segments stream in order (one
     * connection, eager), no groups and no waves. */
    double waves = in->seg_ahead > 0 && unit > 0.0 ? ceil(m / unit - 1e-9) : 1.0;
    for (int j = 0; j < nk; j++) {
      double w = edge_latency(in, c, kids[j]);
      /* Alone, the edge takes its curve's time where it has one (release: the curve's
       * latency, cap: its rate); shared, the interface still slows it down. */
      gc_tree_edge_alone(in, c, kids[j], &release[j], &cap[j]);
      int curved = in->curve && in->curve[(size_t)c * (size_t)in->k + (size_t)kids[j]];
      if (!curved && in->bw && in->window > 0.0 && w > 0.0) /* one window per flow of the group */
        cap[j] = fmin(in->bw[(size_t)c * (size_t)in->k + (size_t)kids[j]],
                      group * in->window / (2.0 * w));
      weight[j] = group * gc_model_rtt_weight(w);
      size[j] = m;
    }
    /* The leader's own cluster broadcast starts when it has the data too and leaves
     * through the same interface: one more flow, of its sends' bytes, at its cluster's
     * latency (so it weighs far more than the wide-area flows). */
    int nf = nk;
    if (in->local_sends && in->local_sends[c] > 0.0 && nk > 0) {
      double a = in->local_latency ? in->local_latency[c] : 0.0;
      cap[nf] = INFINITY, weight[nf] = gc_model_rtt_weight(a), release[nf] = a;
      size[nf++] = in->local_sends[c] * m;
    }
    if (m > 0.0)
      gc_model_fan_out(nf, cap, weight, release, in->nic ? in->nic[c] : INFINITY, m, size,
                       left, rate, x);
    for (int j = 0; j < nk; j++) {
      int v = kids[j];
      double w = edge_latency(in, c, v);
      double post = j * in->send_gap + release[j] + in->recv_overhead;
      double xfer = m > 0.0 ? x[j] - release[j] : 0.0, one = m > 0.0 ? xfer * unit / m : 0.0;
      first[v] = first[c] + post + one;
      times[v] = fmax(first[v] + (xfer - one) + (waves - 1.0) * w, times[c] + post + one);
    }
  }
  gc_scratch_release(in->scratch, mark);
  return GC_MODEL_OK;
}

/* The latest of the clusters' completions: arrival T(i), plus local[i] when given. */
static int latest(const struct gc_tree_input *in, const struct gc_tree *t, const double *local,
                  double *out)
{
  if (!in || in->k != t->n) /* a tree of another size than its input: never costed */
    return GC_MODEL_EINVAL;
  size_t mark = gc_scratch_mark(in->scratch);
  double *T = gc_scratch_take(in->scratch, (size_t)t->n, sizeof(double));
  if (!T)
    return GC_MODEL_ENOMEM;
  int rc = gc_model_tree_arrivals(in, t, T);
  if (rc == GC_MODEL_OK) {
    double worst = 0.0;
    for (int i = 0; i < t->n; i++)
      worst = fmax(worst, T[i] + (local ? local[i] : 0.0));
    *out = worst;
  }
  gc_scratch_release(in->scratch, mark);
  return rc;
}

int gc_model_tree_leaders(const struct gc_tree_input *in, const struct gc_tree *t, double *out)
{
  if (!out || !t || t->n < 1)
    return GC_MODEL_EINVAL;
  return latest(in, t, NULL, out);
}

int gc_model_bcast_tree(const struct gc_tree_input *in, const struct gc_tree *t,
                        const double *local, double *out)
{
  if (!out || !local || !t || t->n < 1)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < t->n; i++)
    if (!gc_model_param_ok(local[i]))
      return GC_MODEL_EINVAL;
  return latest(in, t, local, out);
}

/* ---- the scratch the trees take (scratch.h) ------------------------------------------
 * Each need below is the sum of the takes the code makes at once, in the order it makes
 * them (each take rounded as gc_scratch_cost does); check_scratch.c holds them to it by
 * running every builder and cost with a scratch of exactly gc_scratch_bound. */
static size_t dbl(size_t n)
{
  return gc_scratch_cost(n, sizeof(double));
}

static size_t ints(size_t n)
{
  return gc_scratch_cost(n, sizeof(int));
}

static size_t sum(size_t a, size_t b)
{
  return gc_scratch_add(a, b);
}

static size_t most(size_t a, size_t b)
{
  return a > b ? a : b;
}

/* latest(): the arrivals T[k], then gc_model_tree_arrivals: bfs[k], 8 (k+1) doubles. */
size_t gc_model_tree_scratch(int k)
{
  size_t n = (size_t)k;
  return sum(dbl(n), sum(ints(n), dbl(8 * (n + 1))));
}

/* shim/bcast/pure/tree.c, gc_tree_order_children (which ends every builder): the
 * subtrees' tails and delivery times, 2k doubles, and a breadth-first order, k ints. */
static size_t order_need(size_t k)
{
  return sum(dbl(2 * k), ints(k));
}

/* hlot_tree.c and greedy_tree.c's ECEF: 2k doubles and 4k ints, then the ordering. */
static size_t hlot_need(size_t k)
{
  return sum(sum(dbl(2 * k), ints(4 * k)), order_need(k));
}

/* The four trees greedy_tree.c compares ECEF with: HLOT, SPT (k doubles, 3k ints), flat
 * and binomial (2k ints each), each then ordered. */
static size_t others_need(size_t k)
{
  size_t spt = sum(sum(dbl(k), ints(3 * k)), order_need(k));
  size_t flat = sum(ints(2 * k), order_need(k));
  return most(hlot_need(k), most(spt, flat));
}

/* greedy_tree.c: ECEF into the caller's tree, costed (gc_model_tree_scratch); then each
 * other tree into storage of its own (gc_tree_ints(k) ints), built and costed while the
 * ECEF tree waits. */
static size_t greedy_need(size_t k)
{
  size_t other = sum(ints(gc_tree_ints((int)k)),
                     most(others_need(k), gc_model_tree_scratch((int)k)));
  return most(most(hlot_need(k), gc_model_tree_scratch((int)k)), other);
}

/* multilevel_tree.c with sites: the sub-roots' latency and bandwidth matrices (2 k^2
 * doubles at most, one site per cluster) and 4k ints; then either HLOT over the sites
 * into storage of its own (gc_tree_ints(sites) ints), or, that storage given back, the
 * final ordering over the k clusters. Without sites it is HLOT. */
static size_t multilevel_need(size_t k)
{
  size_t top = sum(ints(gc_tree_ints((int)k)), hlot_need(k));
  return sum(sum(dbl(2 * k * k), ints(4 * k)), most(top, order_need(k)));
}

size_t gc_tree_row_scratch(int k)
{
  size_t n = (size_t)(k > 0 ? k : 0);
  size_t build = most(greedy_need(n), multilevel_need(n));
  /* gc_bcast_tree_predict: each cluster's own broadcast, k doubles, then the cost. */
  size_t cost = sum(dbl(n), gc_model_tree_scratch(k));
  return sum(ints(gc_tree_ints(k)), most(build, cost));
}
