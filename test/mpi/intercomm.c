/* Intercommunicators pass through gridcoll untouched: MPI_Bcast (root group sends with
 * MPI_ROOT, the rest of its group MPI_PROC_NULL) and MPI_Alltoall between the two
 * halves of the world give what PMPI gives, and the log records none of them. */
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    printf("intercomm: needs 2 ranks or more\n");
    MPI_Finalize();
    return 1;
  }
  int low = rank < size / 2;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
  /* Leaders: world rank 0 for the low half, size/2 for the high one. */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7, &inter);
  int hrank, remote;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_remote_size(inter, &remote);

  int failed = 0;
  int got[4], want[4];
  for (int i = 0; i < 4; i++)
    got[i] = want[i] = low && hrank == 0 ? 100 + i : -1;
  int root = low ? (hrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
  MPI_Bcast(got, 4, MPI_INT, root, inter);
  PMPI_Bcast(want, 4, MPI_INT, root, inter);
  failed += verdict("intercomm bcast", memcmp(got, want, sizeof got) != 0);

  int *send = malloc(sizeof(int) * 2 * (size_t)remote);
  int *a = malloc(sizeof(int) * 2 * (size_t)remote), *b = malloc(sizeof(int) * 2 * (size_t)remote);
  for (int i = 0; i < 2 * remote; i++)
    send[i] = rank * 1000 + i;
  MPI_Alltoall(send, 2, MPI_INT, a, 2, MPI_INT, inter);
  PMPI_Alltoall(send, 2, MPI_INT, b, 2, MPI_INT, inter);
  failed += verdict("intercomm alltoall", memcmp(a, b, sizeof(int) * 2 * (size_t)remote) != 0);
  free(send), free(a), free(b);

  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  failed = total_failures(failed);
  if (rank == 0)
    printf("intercomm: 2 checks, %d failed\n", failed);
  MPI_Finalize();
  return failed != 0;
}
