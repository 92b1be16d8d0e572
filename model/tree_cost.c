/* Cost of any broadcast tree over clusters, 001 Eq. 1-2 (corrected) and a refinement.
 *
 * 001 Eq. 2: T(i) = T(j) + (c-1)(o_s + g) + L(j,i) + o_r, T(root) = 0, j = parent of i,
 * c = number of children of j.  001 Eq. 1 prints the broadcast time as a sum over
 * processes of a max; the text ("selecting maximum value of completion times") and Eq.
 * 3-4 make it max_i T(i), which is what is computed here.
 *
 * Refinement ("position"): a parent sends to its children one after the other, so only
 * its k-th child waits for k-1 earlier sends, (k-1)(o_s + g), instead of every child
 * waiting (c-1)(o_s + g).  The published form is kept under its own name so the logs can
 * compare the two.
 *
 * Terms gridcoll adds, both optional:
 *  - message size: with a bandwidth matrix, each edge also costs m / bw(j,i), the time
 *    for the payload to cross that wide-area path.  It is charged per edge, not to later
 *    siblings: paths to different clusters are assumed to have separate bottlenecks (the
 *    local interface being much faster than any wide-area path).  o_s and g are taken per
 *    message as given; a caller modelling LogGP long messages passes g + (m-1)G as g.
 *  - local: cluster i finishes at T(i) + local[i], its intra-cluster broadcast started by
 *    its leader on arrival (overlapping the leader's wide-area forwarding).
 *
 * Each T(i) is summed along the path to the root: O(n * depth * children), no
 * allocation; n is a number of clusters. */
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

static int params_ok(const struct gc_tree *t, const struct gc_model_tree_params *p)
{
  if (!p || !gc_model_param_ok(p->o_s) || !gc_model_param_ok(p->g) ||
      !gc_model_param_ok(p->o_r) || (t->n > 1 && !p->latency))
    return 0;
  for (int v = 0; v < t->n; v++) {
    if (p->local && !gc_model_param_ok(p->local[v]))
      return 0;
    if (v == t->root)
      continue;
    int e = t->parent[v] * t->n + v;
    if (!gc_model_param_ok(p->latency[e]) || (p->bandwidth && !gc_model_bw_ok(p->bandwidth[e])))
      return 0;
  }
  return 1;
}

/* Cost of the edge parent(v) -> v, including v's wait behind its siblings. */
static double edge(const struct gc_tree *t, const struct gc_model_tree_params *p, int position,
                   int v)
{
  int u = t->parent[v], e = u * t->n + v;
  int first = t->child_start[u], c = t->child_start[u + 1] - first;
  int k = 1;
  while (t->children[first + k - 1] != v)
    k++;
  int waits = position ? k - 1 : c - 1;
  double cost = waits * (p->o_s + p->g) + p->latency[e] + p->o_r;
  if (p->bandwidth)
    cost += (double)p->m / p->bandwidth[e];
  return cost;
}

static double arrival(const struct gc_tree *t, const struct gc_model_tree_params *p,
                      int position, int v)
{
  double sum = 0.0;
  for (; v != t->root; v = t->parent[v])
    sum += edge(t, p, position, v);
  return sum;
}

int gc_model_tree_times(const struct gc_tree *t, const struct gc_model_tree_params *p,
                        int position, double *times)
{
  if (!times || gc_model_tree_check(t) != GC_MODEL_OK || !params_ok(t, p))
    return GC_MODEL_EINVAL;
  for (int v = 0; v < t->n; v++)
    times[v] = arrival(t, p, position, v);
  return GC_MODEL_OK;
}

static int broadcast(const struct gc_tree *t, const struct gc_model_tree_params *p,
                     int position, double *out)
{
  if (!out || gc_model_tree_check(t) != GC_MODEL_OK || !params_ok(t, p))
    return GC_MODEL_EINVAL;
  double worst = 0.0;
  for (int v = 0; v < t->n; v++)
    worst = gc_model_max(worst, arrival(t, p, position, v) + (p->local ? p->local[v] : 0.0));
  *out = worst;
  return GC_MODEL_OK;
}

int gc_model_tree_001(const struct gc_tree *t, const struct gc_model_tree_params *p, double *out)
{
  return broadcast(t, p, 0, out);
}

int gc_model_tree_001_position(const struct gc_tree *t, const struct gc_model_tree_params *p,
                               double *out)
{
  return broadcast(t, p, 1, out);
}
