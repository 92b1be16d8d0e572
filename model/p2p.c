/* Point-to-point models: Hockney and LogGP. */
#include "model.h"
#include "model_util.h"

int gc_model_p2p_hockney(size_t m, double alpha, double beta, double *t)
{
  if (!t || !gc_model_param_ok(alpha) || !gc_model_param_ok(beta))
    return GC_MODEL_EINVAL;
  *t = alpha + (double)m * beta;
  return GC_MODEL_OK;
}

static int loggp_ok(const struct gc_model_loggp *p)
{
  return p && gc_model_param_ok(p->L) && gc_model_param_ok(p->o) && gc_model_param_ok(p->g) &&
         gc_model_param_ok(p->G);
}

/* 003 Sec. 3: o_S + L + (m-1)G + o_R with o = (o_S + o_R)/2.  The first byte travels in L,
 * the other m-1 follow at G each; an empty message still pays L + 2o, so (m-1) is taken
 * as 0 when m == 0 rather than giving the message a negative size term. */
int gc_model_p2p_loggp(size_t m, const struct gc_model_loggp *p, double *t)
{
  if (!t || !loggp_ok(p))
    return GC_MODEL_EINVAL;
  double rest = m > 0 ? (double)(m - 1) : 0.0;
  *t = p->L + 2.0 * p->o + rest * p->G;
  return GC_MODEL_OK;
}
