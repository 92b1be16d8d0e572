/* Test stand-in for the shim's communicator cache (shim/comm_state.c on main): a state
 * built from cluster ids given by the test, so an algorithm can run without the wrappers. */
#ifndef GC_TEST_COMM_STATE_STUB_H
#define GC_TEST_COMM_STATE_STUB_H

#include "comm_state.h"

/* Collective over comm. MPI_SUCCESS, a PMPI error code, or MPI_ERR_NO_MEM. */
int gc_test_state_init(struct gc_comm_state *st, MPI_Comm comm, const int *cluster_of_rank);
void gc_test_state_free(struct gc_comm_state *st);

#endif
