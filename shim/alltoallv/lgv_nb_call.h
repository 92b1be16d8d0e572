/* What MPI_Ialltoallv by LG-v (lgv_nb.c) carves for one call, shared with its part of
 * the communicator's reservation (lgv_nb_reserve.c), which sizes the slots for it. */
#ifndef GC_ALLTOALLV_LGV_NB_CALL_H
#define GC_ALLTOALLV_LGV_NB_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "lg_schedule.h"
#include "lgv_nb_steps.h"
#include "lgv_schedule.h"
#include "nbc.h"

/* One call's own: its pure schedule, and the application's call (MPI-4.0 section 6.12:
 * none of it changes until the call completes), its types our own: the application may
 * free its. */
struct lgv_nb_call {
  struct gc_lgv_nb g;
  struct gc_lgv_nb_piece *pieces; /* [g.first[GC_LGV_NB_ROUNDS]] decided round by round */
  const void *sendbuf;
  void *recvbuf;
  const void *sendcounts, *sdispls, *recvcounts, *rdispls;
  int large, own_sendtype, own_recvtype;
  MPI_Datatype sendtype, recvtype;
  MPI_Aint send_extent, recv_extent;
  MPI_Comm pack_comm; /* what PMPI_Pack and PMPI_Unpack are given: any communicator of ours */
};

/* What one call carves (lgv_nb.c: issue), its areas of `areas` bytes included. */
static inline size_t gc_alltoallv_lg_nb_call_bytes(const struct gc_alltoall_lg_schedule *s, int n,
                                                   size_t areas)
{
  size_t ns = gc_alltoallv_lg_nb_steps_bound(s, n) + 1, c = (size_t)s->cluster_size;
  /* The size messages, then every block's bytes as I send (n) and receive it (n). */
  size_t values = gc_alltoallv_lg_nb_values(s, n) + 2 * (size_t)n;
  return gc_nbc_block_bytes((int)ns, (int)ns) + gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * ns) +
         gc_nbc_carve_bytes(sizeof(struct gc_nbc_piece) * ns) +
         gc_nbc_carve_bytes(sizeof(struct gc_lgv_nb_piece) * ns) +
         gc_nbc_carve_bytes(sizeof(struct lgv_nb_call)) +
         gc_nbc_carve_bytes(gc_alltoallv_lg_plan_bytes(s)) +
         gc_nbc_carve_bytes(sizeof(long long) * values) + gc_nbc_carve_bytes(sizeof(int) * 2 * c) +
         gc_nbc_carve_bytes(sizeof(long long) * (size_t)(s->nwide_recv + 1)) +
         gc_nbc_carve_bytes(areas);
}

#endif
