/* The alltoallv rows (alltoallv_algorithms.h) and their formulas: the models of
 * model/alltoallv.c on the byte matrix every rank learnt (alltoallv.h). */
#include "alltoallv_algorithms.h"

#include "alltoall_algorithms.h"
#include "model.h"

int gc_alltoallv_lg_applies(const struct gc_layout *layout)
{
  return gc_alltoall_lg_applies(layout);
}

/* "linear-grid-v": the library's exchange posted at once, latency paid once, each pair's
 * total over its shared link (model/alltoallv.c). MPICH's alltoallv (scattered, in batches
 * of MPIR_CVAR_ALLTOALL_THROTTLE) and SMPI's default run so, as Open MPI's basic linear;
 * Open MPI's tuned decision runs pairwise on some communicator sizes (by size alone), which
 * no model here describes yet for variable counts. */
double gc_alltoallv_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                   const struct gc_shape *shape, const char **model)
{
  const double *bytes = shape->pair_bytes;
  double t = -1;
  *model = gc_model_name(GC_MODEL_LINEAR_GRID_V);
  if (!bytes || layout->nclusters < 2 || gc_model_linear_grid_v(&net->grid, bytes, &t) != 0)
    t = -1;
  return t;
}

/* "lgv-backbone": LG-v's staged local bytes, then its wide-area phase over the shared
 * links (model/alltoallv.c). */
double gc_alltoallv_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                               const struct gc_shape *shape, const char **model)
{
  const double *bytes = shape->pair_bytes;
  double t = -1;
  *model = gc_model_name(GC_MODEL_LGV_BACKBONE);
  if (!bytes || !gc_alltoallv_lg_applies(layout) || gc_model_lgv_backbone(&net->grid, bytes, &t) != 0)
    t = -1;
  return t;
}

const struct gc_model_row gc_alltoallv_models[GC_ALLTOALLV_LAST] = {
    [GC_ALLTOALLV_NATIVE] = {.about = {.name = "native",
                                       .desc = "the MPI library's own MPI_Alltoallv"},
                             .predict = gc_alltoallv_native_predict},
    [GC_ALLTOALLV_LG] = {.about = {.name = "lg",
                                   .desc = "LG-v: LG's two phases with per-peer sizes, every "
                                           "byte across the wide area once, packed"},
                         .predict = gc_alltoallv_lg_predict},
};
