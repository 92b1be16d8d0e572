#include "alltoall_predict.h"

#include "model.h"

int gc_alltoall_lg_applies(const struct gc_layout *layout)
{
  if (layout->nclusters < 2)
    return 0;
  for (int c = 0; c < layout->nclusters; c++)
    if (layout->cluster_size[c] >= 2)
      return 1;
  return 0;
}

/* One cluster: the contention signature on n processes (000 Eq. 4, 5). Several: the
 * naive composition (000 Eq. 6, generalised in model/grid.c), which the paper shows
 * underestimates; the log shows by how much. */
double gc_alltoall_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                  double m, const char **model)
{
  double t = -1;
  if (layout->nclusters == 1) {
    *model = gc_model_name(GC_MODEL_SIGNATURE);
    if (gc_model_alltoall_signature(layout->size, (size_t)m, &net->lan[0], &t) != 0)
      t = -1;
  } else {
    *model = gc_model_name(GC_MODEL_NAIVE_GRID);
    if (gc_model_naive_grid(&net->grid, (size_t)m, &t) != 0)
      t = -1;
  }
  return t;
}

/* 000 Eq. 7 (with the m*n1 correction of SPEC section 2), pairs of clusters concurrent. */
double gc_alltoall_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                              double m, const char **model)
{
  double t = -1;
  *model = gc_model_name(GC_MODEL_LG_GRID);
  if (!gc_alltoall_lg_applies(layout) || gc_model_lg_grid(&net->grid, (size_t)m, &t) != 0)
    t = -1;
  return t;
}
