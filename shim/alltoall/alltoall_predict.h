/* Predicted time of each all-to-all algorithm for a call: pure C, no MPI.
 * Each returns seconds, or -1 when no model applies, and names its model. */
#ifndef GC_ALLTOALL_PREDICT_H
#define GC_ALLTOALL_PREDICT_H

#include "layout.h"
#include "network.h"

double gc_alltoall_native_predict(const struct gc_network *net, const struct gc_layout *layout,
                                  double m, const char **model);
double gc_alltoall_lg_predict(const struct gc_network *net, const struct gc_layout *layout,
                              double m, const char **model);

/* LG serves a layout of two clusters or more with a cluster of two processes or more
 * (otherwise it is the native exchange with extra steps): shared by run and predict. */
int gc_alltoall_lg_applies(const struct gc_layout *layout);

#endif
