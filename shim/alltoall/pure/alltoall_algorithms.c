/* The all-to-all rows (alltoall_algorithms.h) and their formulas: each algorithm's
 * predicted time, from the models of model/ on the layout and network of the call. */
#include "alltoall_algorithms.h"

#include "model.h"
#include "relay_plan.h"

int gc_alltoall_lg_applies(const struct gc_layout *layout)
{
  if (layout->nclusters < 2)
    return 0;
  for (int c = 0; c < layout->nclusters; c++)
    if (layout->cluster_size[c] >= 2)
      return 1;
  return 0;
}

/* One cluster: the contention signature on n processes (000 Eq. 4, 5). Several: the MPI
 * library's exchange as it runs it, posted at once ("linear-grid") below
 * alltoall.native_pairwise, pairwise from it on ("pairwise-grid"): model/grid_exchange.c.
 * 000 Eq. 6 ("naive-grid") charged n wide-area latencies in a row and no shared link:
 * +2673% at 1 KiB on g5k2 (issue 13). */
double gc_alltoall_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                  const struct gc_shape *shape, const char **model)
{
  double t = gc_network_native(net, layout, -1, shape->m), m = shape->m;
  int rc;
  if (t >= 0) { /* measured on this layout: whatever the library runs, as it ran */
    *model = gc_model_name(GC_MODEL_MEASURED);
    return t;
  }
  if (layout->nclusters == 1) {
    *model = gc_model_name(GC_MODEL_SIGNATURE);
    rc = gc_model_alltoall_signature(layout->size, (size_t)m, &net->lan[0], &t);
  } else if (m >= net->pairwise) {
    *model = gc_model_name(GC_MODEL_PAIRWISE_GRID);
    rc = gc_model_pairwise_grid(&net->grid, layout->size, layout->cluster_of, (size_t)m, &t);
  } else {
    *model = gc_model_name(GC_MODEL_LINEAR_GRID);
    rc = gc_model_linear_grid(&net->grid, (size_t)m, &t);
  }
  return rc == 0 ? t : -1;
}

/* "lg-backbone" (model/grid_exchange.c): LG's staged local bytes, then its wide-area
 * phase over the shared links. 000 Eq. 7 ("lg-grid") left both out: from +643% to -74%
 * on g5k2, below the shared link's bound on uneven grids (issue 13). */
double gc_alltoall_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                              const struct gc_shape *shape, const char **model)
{
  double t = -1;
  *model = gc_model_name(GC_MODEL_LG_BACKBONE);
  if (!gc_alltoall_lg_applies(layout) ||
      gc_model_lg_backbone(&net->grid, (size_t)shape->m, &t) != 0)
    t = -1;
  return t;
}

_Static_assert(GC_ALLTOALL_RELAY_SEGMENTS <= 4,
               "gc_model_relay_row_scratch counts the parts' work for 4 parts a leg");

/* The largest part of a relayed leg on each link under plan p (k x k doubles taken from
 * sc, the work given back), or NULL when sc is short. */
static double *part_sizes(struct gc_scratch *sc, const struct gc_layout *layout,
                          const struct gc_alltoall_relay_plan *p, double m)
{
  size_t kk = (size_t)p->k * (size_t)p->k, n = (size_t)layout->size;
  double *part = gc_scratch_take(sc, kk, sizeof(double));
  size_t work = gc_scratch_mark(sc);
  double *acc = gc_scratch_take(sc, n * GC_ALLTOALL_RELAY_SEGMENTS, sizeof(double));
  int *seen = gc_scratch_take(sc, 2 * n, sizeof(int));
  if (part && acc && seen)
    gc_alltoall_relay_part_bytes(layout, p, m, part, acc, seen);
  gc_scratch_release(sc, work);
  return acc && seen ? part : NULL;
}

/* "relay-backbone" (model/grid_exchange.c) on the plan of relay_plan.h: LG with the
 * shares the planner routes through a third cluster, each leg's latency at the size of
 * the largest part its routes make (gc_alltoall_relay_part_bytes). Where the routes relay
 * nothing (no share, or shares smaller than one of their pair's messages) the run is LG's
 * exactly and this row predicts nothing, so `auto` (and learning) never spend a call on
 * it there (issue 27: no pick at a loss where no relay helps). */
double gc_alltoall_relay_predict(const struct gc_network *net, const struct gc_layout *layout,
                                 const struct gc_shape *shape, const char **model)
{
  double t = -1;
  *model = gc_model_name(GC_MODEL_RELAY_BACKBONE);
  if (layout->nclusters < 3 || !gc_alltoall_lg_applies(layout))
    return -1;
  struct gc_scratch *sc = net->grid.scratch;
  size_t mark = gc_scratch_mark(sc);
  struct gc_alltoall_relay_plan p;
  if (gc_alltoall_relay_plan_take(&net->grid, shape->m, &p) == 0 &&
      gc_alltoall_relay_routes_relay(layout, &p)) {
    const double *part = part_sizes(sc, layout, &p, shape->m);
    if (!part || gc_model_relay_backbone(&net->grid, (size_t)shape->m, p.share, p.via,
                                         p.nseg, part, &t) != 0)
      t = -1;
  }
  gc_scratch_release(sc, mark);
  return t;
}

const struct gc_model_row gc_alltoall_models[GC_ALLTOALL_LAST] = {
    [GC_ALLTOALL_NATIVE] = {.about = {.name = "native",
                                      .desc = "the MPI library's own MPI_Alltoall"},
                            .predict = gc_alltoall_native_predict},
    [GC_ALLTOALL_LG] = {.about = {.name = "lg",
                                  .desc = "LG two-phase exchange: every block crosses the "
                                          "wide area once, packed"},
                        .predict = gc_alltoall_lg_predict},
    [GC_ALLTOALL_RELAY] = {.about = {.name = "relay",
                                     .desc = "LG with part of a slow pair's bytes relayed "
                                             "through a third cluster (route planner)"},
                           .predict = gc_alltoall_relay_predict},
};
