/* The all-to-all algorithms as pure rows: name, description and formula (pure C, no MPI).
 * The library's table (alltoall.c) points at these rows and adds the MPI side (supports,
 * run); gridcoll-predict reads them directly, so both list the same algorithms. */
#ifndef GC_ALLTOALL_ALGORITHMS_H
#define GC_ALLTOALL_ALGORITHMS_H

#include "algorithm.h"
#include "alltoall_predict.h"

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_alltoall_id { GC_ALLTOALL_NATIVE, GC_ALLTOALL_LG, GC_ALLTOALL_LAST };

struct gc_alltoall_model {
  struct gc_algorithm_about about;
  /* Predicted seconds for blocks of m bytes (alltoall_predict.h); < 0: no model. */
  double (*predict)(const struct gc_network *net, const struct gc_layout *layout, double m,
                    const char **model);
};

extern const struct gc_alltoall_model gc_alltoall_models[GC_ALLTOALL_LAST];

#endif
