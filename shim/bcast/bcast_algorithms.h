/* The broadcast algorithms, in one list (X-macro) shared by the MPI dispatch table
 * (bcast.c) and the MPI-free prediction tool. X(name, kind, description): algorithm
 * `name` provides gc_bcast_<name>_run (MPI side) and gc_bcast_<name>_predict
 * (bcast_predict.h, pure); gc_bcast_<kind>_supports says when it can serve a call.
 * The first entry is the MPI library's own algorithm (select.h: GC_NATIVE). */
#ifndef GC_BCAST_ALGORITHMS_LIST_H
#define GC_BCAST_ALGORITHMS_LIST_H

#define GC_BCAST_ALGORITHMS(X)                                                              \
  X(native, native, "the MPI library's own MPI_Bcast")                                      \
  X(flat, tree, "flat tree: the root sends to every cluster leader (MagPIe)")               \
  X(binomial, tree, "binomial tree over cluster leaders")                                   \
  X(hlot, tree, "HLOT: relays only where no cluster is reached later than by flat (001)")  \
  X(spt, tree, "shortest-path tree from the root (Dijkstra): the latency lower bound")     \
  X(greedy, tree, "model-built tree: earliest completion, each extra child pays its gap")  \
  X(multilevel, tree, "two levels (001 Fig. 4): HLOT between sites, flat inside each site")

#endif
