/* What MPI_Ialltoall and MPI_Alltoall_init by LG (lg_nb.c) carve for one call, shared
 * with its part of the communicator's reservation (lg_nb_reserve.c), which sizes the
 * slots for it. */
#ifndef GC_ALLTOALL_LG_NB_CALL_H
#define GC_ALLTOALL_LG_NB_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "lg_nb_steps.h"
#include "lg_schedule.h"
#include "nbc.h"

/* One call's own: the buffers, what is packed where at each start, and where each block
 * addressed to me lands. */
struct lg_nb {
  char *buf; /* area (n blocks) | stage | wide */
  size_t m;
  /* The send side, packed at each start (a persistent call's buffer changes between
   * them): sendbuf NULL in place (the receive buffer, by recvtype) */
  const void *sendbuf;
  int sendcount, own_sendtype;
  MPI_Datatype sendtype; /* our duplicate of a derived type */
  MPI_Aint send_extent;
  struct gc_alltoall_lg_nb_plan plan; /* packs, my own local message, deliveries */
  void *recvbuf;
  int recvcount;
  MPI_Datatype recvtype; /* our duplicate of a derived type (the application may free its) */
  int own_type;
  MPI_Aint extent;
  MPI_Comm pack_comm; /* what PMPI_Unpack is given: any communicator of ours */
  int n;              /* blocks to pack and to unpack: the communicator's size */
};

/* What one call carves (lg_nb.c: issue), its buffers of `buf` bytes included. */
static inline size_t gc_alltoall_lg_nb_call_bytes(const struct gc_alltoall_lg_schedule *s, int n,
                                                  size_t buf)
{
  size_t np = (size_t)gc_alltoall_lg_nb_steps_bound(s) + 1;
  struct lg_nb *x = NULL;
  return gc_nbc_block_bytes((int)np, (int)np) + gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * np) +
         gc_nbc_carve_bytes(sizeof(struct gc_nbc_piece) * np) +
         gc_nbc_carve_bytes(sizeof(struct gc_alltoall_lg_nb_piece) * np) +
         gc_nbc_carve_bytes(sizeof(MPI_Aint) * ((size_t)s->max_wide_send + 1)) +
         gc_nbc_carve_bytes(sizeof *x) + gc_nbc_carve_bytes(sizeof *x->plan.deliver * (size_t)n) +
         gc_nbc_carve_bytes(sizeof *x->plan.pack * (size_t)n) + gc_nbc_carve_bytes(buf);
}

#endif
