/* All-to-all on one cluster: the linear model / lower bound and the contention signature. */
#include "model.h"
#include "model_util.h"

/* 000 Eq. 1: each process sends n-1 messages of m bytes one after the other.  000 Prop. 1
 * shows the same expression is the 1-port lower bound of a total exchange without
 * forwarding, so this one function serves as both. */
int gc_model_alltoall_linear(int n, size_t m, double alpha, double beta, double *t)
{
  if (!t || n < 1 || !gc_model_param_ok(alpha) || !gc_model_param_ok(beta))
    return GC_MODEL_EINVAL;
  *t = (double)(n - 1) * (alpha + (double)m * beta);
  return GC_MODEL_OK;
}

/* 000 Eq. 4 (contention ratio gamma on the bandwidth term) extended by Eq. 5 (start-up
 * overload delta per message for m >= M).  n == 1 exchanges nothing: 0. */
int gc_model_alltoall_signature(int n, size_t m, const struct gc_lan *lan, double *t)
{
  if (!t || n < 1 || !gc_model_lan_ok(lan))
    return GC_MODEL_EINVAL;
  *t = (double)(n - 1) * gc_model_sig_msg(lan, (double)m);
  return GC_MODEL_OK;
}
