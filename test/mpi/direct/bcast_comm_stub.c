/* gc_comm_private and gc_comm_cluster as the shim will provide them (comm_state.h),
 * minus the keyval cache: enough to run the bcast algorithms without the shim core. */
#include "bcast_comm_stub.h"

#include <string.h>

int gc_stub_state_init(struct gc_comm_state *st, MPI_Comm comm, const int *cluster_of_rank)
{
  memset(st, 0, sizeof *st);
  st->comm = comm;
  st->private_comm = st->cluster_comm = st->leader_comm = MPI_COMM_NULL;
  PMPI_Comm_rank(comm, &st->rank);
  PMPI_Comm_size(comm, &st->size);
  return gc_layout_build(&st->layout, st->size, cluster_of_rank) == 0 ? MPI_SUCCESS
                                                                       : MPI_ERR_NO_MEM;
}

void gc_stub_state_free(struct gc_comm_state *st)
{
  if (st->private_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&st->private_comm);
  if (st->cluster_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&st->cluster_comm);
  gc_network_free(&st->network);
  gc_layout_free(&st->layout);
}

int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out)
{
  int rc = MPI_SUCCESS;
  if (st->private_comm == MPI_COMM_NULL)
    rc = PMPI_Comm_dup(st->comm, &st->private_comm);
  *out = st->private_comm;
  return rc;
}

/* Members keep their order in comm (key = rank), so the cluster rank of a member is its
 * layout index_in_cluster. */
int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out)
{
  int rc = MPI_SUCCESS;
  if (st->cluster_comm == MPI_COMM_NULL)
    rc = PMPI_Comm_split(st->comm, st->layout.cluster_of[st->rank], st->rank,
                         &st->cluster_comm);
  *out = st->cluster_comm;
  return rc;
}
