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

/* MPI_Bcast and MPI_Bcast_c both arrive here: the count is an MPI_Count. */
struct gc_bcast_call {
  void *buffer;
  MPI_Count count;
  MPI_Datatype datatype;
  int root;
  MPI_Comm comm;
  size_t bytes; /* m: count * size of datatype */
  int large;    /* the application called MPI_Bcast_c: so does the native run */
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

/* 1 when gridcoll may act on the call: nothing MPI would reject that gridcoll can see
 * (no communicator, a negative count, no datatype, a NULL buffer to fill, a root below 0),
 * and predefined or committed datatypes whose size the library gives (datatype.h);
 * bytes is then set. 0: pass the call through untouched, so any error is exactly the
 * MPI library's. */
int gc_bcast_call_prepare(struct gc_bcast_call *call);

#endif
