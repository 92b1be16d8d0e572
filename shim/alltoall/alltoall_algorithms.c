/* The all-to-all rows (alltoall_algorithms.h). */
#include "alltoall_algorithms.h"

const struct gc_alltoall_model gc_alltoall_models[GC_ALLTOALL_LAST] = {
    [GC_ALLTOALL_NATIVE] = {.about = {.name = "native",
                                      .desc = "the MPI library's own MPI_Alltoall"},
                            .predict = gc_alltoall_native_predict},
    [GC_ALLTOALL_LG] = {.about = {.name = "lg",
                                  .desc = "LG two-phase exchange: every block crosses the "
                                          "wide area once, packed"},
                        .predict = gc_alltoall_lg_predict},
};
