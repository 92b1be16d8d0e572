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

#include <stdlib.h>

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

/* Progressive filling (max-min fairness) of nk flows of `bytes` each, flow j capped at
 * cap[j] bytes/s, all sharing `nic` bytes/s (INFINITY: nothing shared): x[j] receives
 * the time flow j ends.  Each round gives the running flows whose cap is below the fair
 * share their cap, splits what is left among the others, and advances to the next end;
 * at most nk rounds of O(nk^2).  left[] and rate[] are scratch of nk doubles. */
static void fan_out(int nk, const double *cap, double nic, double bytes, double *left,
                    double *rate, double *x)
{
  int running = nk;
  double now = 0.0;
  for (int j = 0; j < nk; j++)
    left[j] = bytes, x[j] = -1.0;
  while (running > 0) {
    double room = nic;
    int open = running;
    for (int j = 0; j < nk; j++)
      rate[j] = x[j] < 0.0 ? -1.0 : 0.0; /* -1: running, share not fixed yet */
    while (open > 0) {
      double share = room / open;
      int fixed = 0;
      for (int j = 0; j < nk; j++)
        if (rate[j] < 0.0 && cap[j] <= share)
          rate[j] = cap[j], room -= cap[j], open--, fixed = 1;
      if (!fixed) {
        for (int j = 0; j < nk; j++)
          if (rate[j] < 0.0)
            rate[j] = share;
        break;
      }
    }
    double step = INFINITY;
    for (int j = 0; j < nk; j++)
      if (x[j] < 0.0 && rate[j] > 0.0)
        step = fmin(step, left[j] / rate[j]);
    if (!isfinite(step)) { /* no bandwidth at all: cannot happen with nic, caps > 0 */
      for (int j = 0; j < nk; j++)
        x[j] = x[j] < 0.0 ? INFINITY : x[j];
      return;
    }
    now += step;
    for (int j = 0; j < nk; j++) {
      if (x[j] >= 0.0)
        continue;
      left[j] -= step * rate[j];
      if (left[j] <= bytes * 1e-12)
        x[j] = now, running--;
    }
  }
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
  int *bfs = malloc(sizeof(int) * (size_t)n);
  double *scratch = malloc(sizeof(double) * (size_t)n * 5);
  if (!bfs || !scratch) {
    free(bfs);
    free(scratch);
    return GC_MODEL_ENOMEM;
  }
  double *first = scratch, *cap = scratch + n, *left = scratch + 2 * n, *x = scratch + 3 * n,
         *rate = scratch + 4 * n;
  double m = in->bw ? in->bytes : 0.0;
  double seg = in->segment > 0.0 && in->segment < m ? in->segment : m;
  gc_tree_bfs_order(t, bfs);
  times[t->root] = first[t->root] = 0.0;
  for (int h = 0; h < n; h++) {
    int c = bfs[h], start = t->child_start[c], nk = t->child_start[c + 1] - start;
    const int *kids = t->children + start;
    for (int j = 0; j < nk; j++)
      cap[j] = in->bw ? in->bw[(size_t)c * (size_t)in->k + (size_t)kids[j]] : INFINITY;
    if (m > 0.0)
      fan_out(nk, cap, in->nic ? in->nic[c] : INFINITY, m, left, rate, x);
    for (int j = 0; j < nk; j++) {
      int v = kids[j];
      double w = in->W ? in->W[(size_t)c * (size_t)in->k + (size_t)v] : in->uniform;
      double post = j * in->send_gap + w + in->recv_overhead;
      double xfer = m > 0.0 ? x[j] : 0.0, one = m > 0.0 ? xfer * seg / m : 0.0;
      first[v] = first[c] + post + one;
      times[v] = fmax(first[v] + (xfer - one), times[c] + post + one);
    }
  }
  free(bfs);
  free(scratch);
  return GC_MODEL_OK;
}

/* The latest of the clusters' completions: arrival T(i), plus local[i] when given. */
static int latest(const struct gc_tree_input *in, const struct gc_tree *t, const double *local,
                  double *out)
{
  double *T = malloc(sizeof(double) * (size_t)t->n);
  if (!T)
    return GC_MODEL_ENOMEM;
  int rc = gc_model_tree_arrivals(in, t, T);
  if (rc == GC_MODEL_OK) {
    double worst = 0.0;
    for (int i = 0; i < t->n; i++)
      worst = fmax(worst, T[i] + (local ? local[i] : 0.0));
    *out = worst;
  }
  free(T);
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
