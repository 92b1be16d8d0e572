/* The alltoallv rows (alltoallv_algorithms.h) and their formulas: the models of
 * model/alltoallv.c on the byte matrix every rank learnt (alltoallv.h). */
#include "alltoallv_algorithms.h"

#include "alltoall_algorithms.h"
#include "model.h"

int gc_alltoallv_lg_applies(const struct gc_layout *layout)
{
  return gc_alltoall_lg_applies(layout);
}

double gc_alltoallv_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                   const double *bytes, const char **model)
{
  double t = -1;
  *model = gc_model_name(GC_MODEL_NAIVE_GRID_V);
  if (!bytes || layout->nclusters < 2 || gc_model_naive_grid_v(&net->grid, bytes, &t) != 0)
    t = -1;
  return t;
}

double gc_alltoallv_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                               const double *bytes, const char **model)
{
  double t = -1;
  *model = gc_model_name(GC_MODEL_LGV_GRID);
  if (!bytes || !gc_alltoallv_lg_applies(layout) || gc_model_lgv_grid(&net->grid, bytes, &t) != 0)
    t = -1;
  return t;
}

const struct gc_alltoallv_model gc_alltoallv_models[GC_ALLTOALLV_LAST] = {
    [GC_ALLTOALLV_NATIVE] = {.about = {.name = "native",
                                       .desc = "the MPI library's own MPI_Alltoallv"},
                             .predict = gc_alltoallv_native_predict},
    [GC_ALLTOALLV_LG] = {.about = {.name = "lg",
                                   .desc = "LG-v: LG's two phases with per-peer sizes, every "
                                           "byte across the wide area once, packed"},
                         .predict = gc_alltoallv_lg_predict},
};
