/* Communication model of a heterogeneous switched-Ethernet cluster (004).
 *
 * Every node i has a fixed processing delay C_i and a per-byte processing time t_i, and
 * every link i -> j a transmission rate beta_ij (bytes/s).  004 neglects the difference
 * between the message size at the source and at the destination (M_i ~ M_ij = M) and
 * uses one C and one t per node for sending and receiving (Sec. 3.1); so does this file. */
#include "model.h"
#include "model_util.h"

static int hetero_ok(const struct gc_model_hetero *h)
{
  if (!h || h->n < 1 || !h->C || !h->t || (h->n > 1 && !h->rate && !gc_model_bw_ok(h->link_rate)))
    return 0;
  for (int i = 0; i < h->n; i++)
    if (!gc_model_param_ok(h->C[i]) || !gc_model_param_ok(h->t[i]))
      return 0;
  return 1;
}

/* Destination delay and transmission of M bytes on i -> j (004 Eq. 3 + Eq. 4), for nodes
 * already known to be valid; checks that i != j and the link's rate. */
static int receive_time(const struct gc_model_hetero *h, int i, int j, double M, double *out)
{
  if (i == j)
    return GC_MODEL_EINVAL;
  double rate = h->rate ? h->rate[i * h->n + j] : h->link_rate;
  if (!gc_model_bw_ok(rate))
    return GC_MODEL_EINVAL;
  *out = h->C[j] + h->t[j] * M + M / rate;
  return GC_MODEL_OK;
}

/* 004 Eq. 5: source delay (Eq. 2) + destination delay and transmission. */
static int link_time(const struct gc_model_hetero *h, int i, int j, double M, double *out)
{
  int rc = receive_time(h, i, j, M, out);
  if (rc == GC_MODEL_OK)
    *out += h->C[i] + h->t[i] * M;
  return rc;
}

static int node_ok(const struct gc_model_hetero *h, int i)
{
  return i >= 0 && i < h->n;
}

/* 004 Eq. 5: C_i + t_i*M + C_j + t_j*M + M/beta_ij. */
int gc_model_hetero_p2p(const struct gc_model_hetero *h, int i, int j, size_t M, double *t)
{
  double v;
  if (!t || !hetero_ok(h) || !node_ok(h, i) || !node_ok(h, j) ||
      link_time(h, i, j, (double)M, &v) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  *t = v;
  return GC_MODEL_OK;
}

/* 004 Eq. 6, a flat tree from node 0 = src:
 *   C_0 + t_0 * sum_j M_j + { sum_j (C_j + t_j M_j + M_j/beta_0j)   if M_j > S
 *                           { max_j (C_j + t_j M_j + M_j/beta_0j)   if M_j <= S
 * The source pays its fixed delay once and its per-byte time for all the data; large
 * messages are serialized (the source waits for each), small ones overlap (it goes on as
 * soon as the first byte is out).  The paper gives one size for all destinations; with
 * mixed sizes we charge the large ones in series and the small ones by their max, which
 * is each published branch when the sizes agree. */
int gc_model_hetero_one_to_many(const struct gc_model_hetero *h, int src, const int *dst,
                                const size_t *M, int ndst, double S, double *t)
{
  if (!t || !hetero_ok(h) || !node_ok(h, src) || ndst < 0 || (ndst > 0 && (!dst || !M)) ||
      !gc_model_param_ok(S))
    return GC_MODEL_EINVAL;
  double total = 0.0, serial = 0.0, parallel = 0.0;
  for (int x = 0; x < ndst; x++) {
    int j = dst[x];
    double m = (double)M[x], v;
    if (!node_ok(h, j) || receive_time(h, src, j, m, &v) != GC_MODEL_OK)
      return GC_MODEL_EINVAL; /* the source's share is charged once, below */
    total += m;
    if (m > S)
      serial += v;
    else
      parallel = gc_model_max(parallel, v);
  }
  *t = ndst > 0 ? h->C[src] + h->t[src] * total + serial + parallel : 0.0;
  return GC_MODEL_OK;
}

/* 004 Eq. 7: disjoint pairs behind a full-duplex switch do not interfere, so the set takes
 * as long as its slowest pair.  Pairs that share a node are not what the model describes:
 * EINVAL. */
int gc_model_hetero_pairs(const struct gc_model_hetero *h, const int *src, const int *dst,
                          int npairs, size_t M, double *t)
{
  if (!t || !hetero_ok(h) || npairs < 0 || (npairs > 0 && (!src || !dst)))
    return GC_MODEL_EINVAL;
  double worst = 0.0, v;
  for (int x = 0; x < npairs; x++) {
    if (!node_ok(h, src[x]) || !node_ok(h, dst[x]) ||
        link_time(h, src[x], dst[x], (double)M, &v) != GC_MODEL_OK)
      return GC_MODEL_EINVAL;
    for (int y = 0; y < x; y++)
      if (src[y] == src[x] || src[y] == dst[x] || dst[y] == src[x] || dst[y] == dst[x])
        return GC_MODEL_EINVAL;
    worst = gc_model_max(worst, v);
  }
  *t = worst;
  return GC_MODEL_OK;
}

/* 004 Eq. 8 on the binomial tree of MPICH: virtual rank v = (rank - root) mod n, parent
 * v & (v-1) (v with its lowest set bit cleared).  v is a leaf when it is odd or v+1 == n
 * (an even v has child v+1 when it exists).  Broadcast time = max over leaves of the sum of
 * Eq. 5 along the root-to-leaf path, + Gamma + tau*M.  Like the paper, a parent's sends
 * to successive children are not serialized: each path is charged its own links only. */
int gc_model_hetero_bcast_binomial(const struct gc_model_hetero *h, int root, size_t M,
                                   double Gamma, double tau, double *t)
{
  if (!t || !hetero_ok(h) || !node_ok(h, root) || !gc_model_param_ok(Gamma) ||
      !gc_model_param_ok(tau))
    return GC_MODEL_EINVAL;
  int n = h->n;
  double worst = 0.0;
  for (int v = 1; v < n; v++) {
    if (v % 2 == 0 && v + 1 < n)
      continue;
    double path = 0.0, e;
    for (int w = v; w != 0; w &= w - 1) {
      int child = (w + root) % n, parent = ((w & (w - 1)) + root) % n;
      if (link_time(h, parent, child, (double)M, &e) != GC_MODEL_OK)
        return GC_MODEL_EINVAL;
      path += e;
    }
    worst = gc_model_max(worst, path);
  }
  *t = worst + Gamma + tau * (double)M;
  return GC_MODEL_OK;
}

/* 004 Eq. 8 for any tree over the nodes (e.g. the tree LAM/MPI or another library uses). */
int gc_model_hetero_bcast_tree(const struct gc_model_hetero *h, const struct gc_tree *tree,
                               size_t M, double Gamma, double tau, double *t)
{
  if (!t || !hetero_ok(h) || gc_model_tree_check(tree) != GC_MODEL_OK || tree->n != h->n ||
      !gc_model_param_ok(Gamma) || !gc_model_param_ok(tau))
    return GC_MODEL_EINVAL;
  double worst = 0.0;
  for (int v = 0; v < tree->n; v++) {
    if (tree->child_start[v + 1] > tree->child_start[v])
      continue; /* not a leaf */
    double path = 0.0, e;
    for (int w = v; w != tree->root; w = tree->parent[w]) {
      if (link_time(h, tree->parent[w], w, (double)M, &e) != GC_MODEL_OK)
        return GC_MODEL_EINVAL;
      path += e;
    }
    worst = gc_model_max(worst, path);
  }
  *t = worst + Gamma + tau * (double)M;
  return GC_MODEL_OK;
}
