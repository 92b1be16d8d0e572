/* What every grid model shares: which cluster of a pair plays A in LG, and the check of
 * a grid description (the formulas themselves: grid_exchange.c, alltoallv.c). */
#include "model.h"
#include "model_util.h"

/* reference.md section 3: the smaller cluster of a pair plays A; on a tie the lower index does
 * (with equal sizes both roles stage the same counts, but every rank must agree on one).
 * The LG schedule (shim/alltoall/pure/lg_schedule.c) and both LG models read this one rule. */
int gc_model_lg_plays_a(const int *size, int x, int y)
{
  int sx = size[x], sy = size[y];
  return sx < sy || (sx == sy && x < y);
}

int gc_model_grid_check(const struct gc_model_grid *g)
{
  if (!g || g->k < 1 || !g->size || !g->lan)
    return GC_MODEL_EINVAL;
  for (int c = 0; c < g->k; c++)
    if (g->size[c] < 1 || !gc_model_lan_ok(&g->lan[c]))
      return GC_MODEL_EINVAL;
  if (g->k == 1)
    return GC_MODEL_OK;
  if (!g->wan_latency || !g->wan_bandwidth)
    return GC_MODEL_EINVAL;
  for (int c = 0; c < g->k; c++)
    for (int d = 0; d < g->k; d++)
      if (c != d && (!gc_model_param_ok(g->wan_latency[c * g->k + d]) ||
                     !gc_model_bw_ok(g->wan_bandwidth[c * g->k + d]) ||
                     (g->wan_aggregate && !gc_model_param_ok(g->wan_aggregate[c * g->k + d]))))
        return GC_MODEL_EINVAL;
  return GC_MODEL_OK;
}
