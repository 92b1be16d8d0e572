/* A stand-in for the shim's communicator state, for the direct harness only: the
 * state is built by hand from a cluster id per rank instead of the world table. */
#ifndef GC_TEST_BCAST_COMM_STUB_H
#define GC_TEST_BCAST_COMM_STUB_H

#include "comm_state.h"

/* MPI_SUCCESS, or an error (out of memory, PMPI error). Collective over comm. */
int gc_stub_state_init(struct gc_comm_state *st, MPI_Comm comm, const int *cluster_of_rank);
void gc_stub_state_free(struct gc_comm_state *st);

#endif
