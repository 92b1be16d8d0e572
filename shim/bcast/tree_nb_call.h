/* What MPI_Ibcast and MPI_Bcast_init by a tree (tree_nb.c) carve for one call, shared
 * with the communicator's reservation (nbc_reserve.c), which sizes the slots for it. */
#ifndef GC_BCAST_TREE_NB_CALL_H
#define GC_BCAST_TREE_NB_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "nbc.h"

/* A segmented call whose rank's datatype is not raw (datatype.h): the message packed in
 * `stage`, by the root at each start, unpacked from it by the others at the end. */
struct tree_nb_stage {
  char *stage;
  int m; /* bytes (segments stage only messages of m <= INT_MAX) */
  void *buffer;
  int count;
  MPI_Datatype type; /* our duplicate of a derived type: the application may free its */
  int own_type;
  int packs; /* 1: the root (packs at start); 0: unpacks at the end */
  MPI_Comm pack_comm; /* what PMPI_Pack is given: any communicator of ours */
};

/* What a call carves whose rank has at most `bound` steps in the tree
 * (tree_steps.h: gc_bcast_tree_steps_bound), in nseg segments (1: whole), with a staging
 * buffer of `stage` bytes (0: none). */
static inline size_t gc_bcast_tree_nb_call_bytes(int bound, int nseg, size_t stage)
{
  size_t b = (size_t)bound, s = (size_t)(nseg > 1 ? nseg : 1);
  size_t bytes = gc_nbc_block_bytes((int)(b * s), (int)s) +
                 gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * b);
  if (nseg > 1)
    bytes += gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * b * s) +
             gc_nbc_carve_bytes(sizeof(struct tree_nb_stage)) + gc_nbc_carve_bytes(stage);
  return bytes;
}

#endif
