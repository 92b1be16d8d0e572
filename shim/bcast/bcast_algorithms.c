/* The broadcast rows (bcast_algorithms.h). */
#include "bcast_algorithms.h"

const struct gc_bcast_model gc_bcast_models[GC_BCAST_LAST] = {
    [GC_BCAST_NATIVE] = {.about = {.name = "native", .desc = "the MPI library's own MPI_Bcast"},
                         .predict = gc_bcast_native_predict},
    [GC_BCAST_FLAT] = {.about = {.name = "flat",
                                 .desc = "flat tree: the root sends to every cluster leader "
                                         "(MagPIe)"},
                       .predict = gc_bcast_flat_predict,
                       .build = gc_bcast_flat_tree},
    [GC_BCAST_BINOMIAL] = {.about = {.name = "binomial",
                                     .desc = "binomial tree over cluster leaders"},
                           .predict = gc_bcast_binomial_predict,
                           .build = gc_bcast_binomial_tree},
    [GC_BCAST_HLOT] = {.about = {.name = "hlot",
                                 .desc = "HLOT: relays only where no cluster is reached later "
                                         "than by flat (001)"},
                       .predict = gc_bcast_hlot_predict,
                       .build = gc_bcast_hlot_tree},
    [GC_BCAST_SPT] = {.about = {.name = "spt",
                                .desc = "shortest-path tree from the root (Dijkstra): the "
                                        "latency lower bound"},
                      .predict = gc_bcast_spt_predict,
                      .build = gc_bcast_spt_tree},
    [GC_BCAST_GREEDY] = {.about = {.name = "greedy",
                                   .desc = "model-built tree: earliest completion, each extra "
                                           "child pays its gap"},
                         .predict = gc_bcast_greedy_predict,
                         .build = gc_bcast_greedy_tree},
    [GC_BCAST_MULTILEVEL] = {.about = {.name = "multilevel",
                                       .desc = "two levels (001 Fig. 4): HLOT between sites, "
                                               "flat inside each site"},
                             .predict = gc_bcast_multilevel_predict,
                             .build = gc_bcast_multilevel_tree},
};
