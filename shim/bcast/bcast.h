/* MPI_Bcast: the call as gridcoll sees it and the table of algorithms.
 * Same contract as alltoall.h: `supports` uses only data identical on every rank. */
#ifndef GC_BCAST_H
#define GC_BCAST_H

#include <mpi.h>
#include <stddef.h>
#include "comm_state.h"
#include "config.h"
#include "network.h"
#include "tree_cache.h"

struct gc_bcast_call {
  void *buffer;
  int count;
  MPI_Datatype datatype;
  int root;
  MPI_Comm comm;
  size_t bytes; /* m: count * size of datatype */
};

struct gc_bcast_algorithm {
  const char *name;
  const char *desc;
  int (*supports)(const struct gc_bcast_call *call, const struct gc_comm_state *st);
  int (*run)(const struct gc_bcast_call *call, struct gc_comm_state *st);
  /* Predicted seconds for a broadcast of m bytes from root (bcast_predict.h); < 0: none. */
  double (*predict)(const struct gc_network *net, const struct gc_layout *layout, double m,
                    int root, const char **model);
  /* Tree algorithms: the builder (tree.h). Their prediction then comes from the
   * communicator's tree cache, the same entry their run uses. NULL for the others. */
  gc_tree_builder build;
};

int gc_bcast_native_supports(const struct gc_bcast_call *call, const struct gc_comm_state *st);
int gc_bcast_native_run(const struct gc_bcast_call *call, struct gc_comm_state *st);

#endif
