/* What MPI_Ialltoall by LG (lg_nb.c) carves for one call, shared with its part of the
 * communicator's reservation (lg_nb_reserve.c), which sizes the slots for it. */
#ifndef GC_ALLTOALL_LG_NB_CALL_H
#define GC_ALLTOALL_LG_NB_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "lg_schedule.h"

/* One call's own: the buffers and where each block addressed to me lands. */
struct lg_nb {
  char *buf; /* area (n blocks) | stage | wide */
  size_t m;
  void *recvbuf;
  int recvcount;
  MPI_Datatype recvtype; /* our duplicate of a derived type (the application may free its) */
  int own_type;
  MPI_Aint extent;
  MPI_Comm pack_comm; /* what PMPI_Unpack is given: any communicator of ours */
  int n;              /* blocks to unpack */
  struct { size_t at; int src; } *deliver;
};

/* The blocks of a call's buffers on a communicator of n ranks under my schedule s: my n
 * packed, those I stage, those I receive over the wide area. */
static inline int gc_alltoall_lg_nb_blocks(const struct gc_alltoall_lg_schedule *s, int n)
{
  return n + s->stage_blocks + s->wide_recv_blocks;
}

#endif
