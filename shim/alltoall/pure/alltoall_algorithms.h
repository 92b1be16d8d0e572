/* The all-to-all algorithms as pure rows: name, description and formula (pure C, no MPI).
 * The library's table (alltoall.c) points at these rows and adds the MPI side (supports,
 * run); gridcoll-predict reads them directly, so both list the same algorithms. */
#ifndef GC_ALLTOALL_ALGORITHMS_H
#define GC_ALLTOALL_ALGORITHMS_H

#include "algorithm.h"
#include "layout.h"
#include "network.h"
#include "shape.h"

/* Predicted time of each algorithm for blocks of shape->m bytes (algorithm.h): seconds,
 * or -1 when no model applies; *model names the model. */
gc_model_predict gc_alltoall_native_predict, gc_alltoall_lg_predict, gc_alltoall_relay_predict;

/* LG serves a layout of two clusters or more with a cluster of two processes or more
 * (otherwise it is the native exchange with extra steps): shared by run and predict. */
int gc_alltoall_lg_applies(const struct gc_layout *layout);

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_alltoall_id { GC_ALLTOALL_NATIVE, GC_ALLTOALL_LG, GC_ALLTOALL_RELAY, GC_ALLTOALL_LAST };

extern const struct gc_model_row gc_alltoall_models[GC_ALLTOALL_LAST];

#endif
