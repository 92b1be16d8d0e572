/* Broadcast models that need no tree structure: binomial (Hockney, LogGP) and flat tree. */
#include "model.h"
#include "model_util.h"

/* A binomial tree on P processes has ceil(log2 P) rounds and each round costs one
 * point-to-point message (003 Sec. 3, Fig. 1); P == 1 sends nothing. */
int gc_model_bcast_binomial_hockney(int P, size_t m, double alpha, double beta, double *t)
{
  double p2p;
  if (!t || P < 1 || gc_model_p2p_hockney(m, alpha, beta, &p2p) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  *t = gc_model_ceil_log2(P) * p2p;
  return GC_MODEL_OK;
}

/* 003 Sec. 3: T_Bin = ceil(log P)(L + 2o + (m-1)G). */
int gc_model_bcast_binomial_loggp(int P, size_t m, const struct gc_model_loggp *p, double *t)
{
  double p2p;
  if (!t || P < 1 || gc_model_p2p_loggp(m, p, &p2p) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  *t = gc_model_ceil_log2(P) * p2p;
  return GC_MODEL_OK;
}

/* 001 Eq. 3: the root sends to every other cluster at once (non-blocking sends, overheads
 * and gap neglected in a wide area), so the broadcast lasts its longest direct link.  For
 * a flat tree that does charge o_s, g and the message size, give gc_model_tree_001 a tree
 * whose root has every other node as child.  k == 1: nothing to send, 0. */
int gc_model_bcast_flat(int k, int root, const double *latency, double *t)
{
  if (!t || k < 1 || root < 0 || root >= k || (k > 1 && !latency))
    return GC_MODEL_EINVAL;
  double worst = 0.0;
  for (int i = 0; i < k; i++) {
    if (i == root)
      continue;
    double w = latency[root * k + i];
    if (!gc_model_param_ok(w))
      return GC_MODEL_EINVAL;
    worst = gc_model_max(worst, w);
  }
  *t = worst;
  return GC_MODEL_OK;
}
