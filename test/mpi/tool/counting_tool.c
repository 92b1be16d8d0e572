/* A minimal PMPI tool, for testing how gridcoll stacks with other tools: it intercepts
 * MPI_Alltoall and MPI_Bcast, counts the calls, forwards each to PMPI_, and when the
 * process exits prints on stderr
 *   counting_tool: rank R alltoall N bcast M
 * (at exit, not in MPI_Finalize: with gridcoll preloaded first, gridcoll's MPI_Finalize
 * wins and the tool's would never run). Built as a shared object and preloaded beside
 * libgridcoll.so by test/mpi/run.sh. */
#include <mpi.h>
#include <stdio.h>

static int world_rank = -1;
static long alltoalls, bcasts;

static void know_rank(void)
{
  if (world_rank < 0)
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  know_rank();
  alltoalls++;
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  know_rank();
  bcasts++;
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}

__attribute__((destructor)) static void report(void)
{
  fprintf(stderr, "counting_tool: rank %d alltoall %ld bcast %ld\n", world_rank, alltoalls,
          bcasts);
}
