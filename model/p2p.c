/* Point-to-point model: Hockney. */
#include "model.h"
#include "model_util.h"

int gc_model_p2p_hockney(size_t m, double alpha, double beta, double *t)
{
  if (!t || !gc_model_param_ok(alpha) || !gc_model_param_ok(beta))
    return GC_MODEL_EINVAL;
  *t = alpha + (double)m * beta;
  return GC_MODEL_OK;
}
