/* Communication model of a heterogeneous switched-Ethernet cluster (004).
 *
 * Every node i has a fixed processing delay C_i and a per-byte processing time t_i, and
 * every link i -> j a transmission rate beta_ij (bytes/s).  004 neglects the difference
 * between the message size at the source and at the destination (M_i ~ M_ij = M) and
 * uses one C and one t per node for sending and receiving (Sec. 3.1); so does this file.
 * Of the paper's models the library uses Eq. 8 on the binomial tree ("hetero-004-bcast"),
 * built from Eq. 5 per edge; Eq. 6 and 7 (flat tree, disjoint pairs) describe no
 * algorithm gridcoll runs and are not implemented. */
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
