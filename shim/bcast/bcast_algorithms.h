/* The broadcast algorithms as pure rows: name, description, formula and, for the trees,
 * the builder (pure C, no MPI). The library's table (bcast.c) points at these rows and
 * adds the MPI side (supports, run); gridcoll-predict reads them directly. */
#ifndef GC_BCAST_ALGORITHMS_H
#define GC_BCAST_ALGORITHMS_H

#include "algorithm.h"
#include "bcast_predict.h"
#include "tree_cache.h"

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_bcast_id {
  GC_BCAST_NATIVE,
  GC_BCAST_FLAT,
  GC_BCAST_BINOMIAL,
  GC_BCAST_HLOT,
  GC_BCAST_SPT,
  GC_BCAST_GREEDY,
  GC_BCAST_MULTILEVEL,
  GC_BCAST_LAST
};

struct gc_bcast_model {
  struct gc_algorithm_about about;
  /* Predicted seconds for a broadcast of m bytes from root (bcast_predict.h); < 0: none. */
  double (*predict)(const struct gc_network *net, const struct gc_layout *layout, double m,
                    int root, const char **model);
  /* Tree algorithms: the builder (tree.h); NULL for the others. */
  gc_tree_builder build;
};

extern const struct gc_bcast_model gc_bcast_models[GC_BCAST_LAST];

#endif
