/* The all-to-all algorithms as pure rows: name, description and formula (pure C, no MPI).
 * The library's table (alltoall.c) points at these rows and adds the MPI side (supports,
 * run); gridcoll-predict reads them directly, so both list the same algorithms. */
#ifndef GC_ALLTOALL_ALGORITHMS_H
#define GC_ALLTOALL_ALGORITHMS_H

#include "algorithm.h"
#include "layout.h"
#include "network.h"

/* Predicted time of each algorithm for a call: seconds, or -1 when no model applies;
 * *model names the model. */
double gc_alltoall_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                  double m, const char **model);
double gc_alltoall_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                              double m, const char **model);

/* LG serves a layout of two clusters or more with a cluster of two processes or more
 * (otherwise it is the native exchange with extra steps): shared by run and predict. */
int gc_alltoall_lg_applies(const struct gc_layout *layout);

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_alltoall_id { GC_ALLTOALL_NATIVE, GC_ALLTOALL_LG, GC_ALLTOALL_LAST };

struct gc_alltoall_model {
  struct gc_algorithm_about about;
  /* Predicted seconds for blocks of m bytes (above); < 0: no model. */
  double (*predict)(const struct gc_network *net, const struct gc_layout *layout, double m,
                    const char **model);
};

extern const struct gc_alltoall_model gc_alltoall_models[GC_ALLTOALL_LAST];

#endif
