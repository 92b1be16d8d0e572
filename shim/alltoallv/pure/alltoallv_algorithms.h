/* The MPI_Alltoallv algorithms as pure rows: name, description and formula (pure C, no
 * MPI). The library's table (alltoallv.c) points at these rows and adds the MPI side. */
#ifndef GC_ALLTOALLV_ALGORITHMS_H
#define GC_ALLTOALLV_ALGORITHMS_H

#include "algorithm.h"
#include "layout.h"
#include "network.h"
#include "shape.h"

/* Row indexes; the first is the MPI library's own algorithm (select.h: GC_NATIVE). */
enum gc_alltoallv_id { GC_ALLTOALLV_NATIVE, GC_ALLTOALLV_LG, GC_ALLTOALLV_LAST };

extern const struct gc_model_row gc_alltoallv_models[GC_ALLTOALLV_LAST];

/* Predicted seconds for the per-cluster-pair byte totals shape->pair_bytes (NULL: none
 * known yet, no prediction); < 0: no model. */
gc_model_predict gc_alltoallv_native_predict, gc_alltoallv_lg_predict;

/* LG-v serves what LG serves: two clusters or more, one of them of two processes or more
 * (alltoall_algorithms.h: gc_alltoall_lg_applies). */
int gc_alltoallv_lg_applies(const struct gc_layout *layout);

#endif
