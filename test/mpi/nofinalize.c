/* A program that ends without MPI_Finalize (a crash, a forgotten call, exit() in a
 * library): gridcoll must still write the records it buffered.
 *
 *   nofinalize [CALLS]   (default 100)
 * CALLS all-to-alls on the world, each result checked, a barrier so every rank has made
 * all its calls, then exit(0) with MPI never finalized.
 * Prints "nofinalize: N calls per rank, F failed" from rank 0 before exiting. */
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long calls = argc > 1 ? atol(argv[1]) : 100;
  int *send = malloc(sizeof(int) * (size_t)size), *recv = malloc(sizeof(int) * (size_t)size);
  for (long c = 0; c < calls; c++) {
    for (int d = 0; d < size; d++)
      send[d] = rank * 1000 + d + (int)c, recv[d] = -1;
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
    for (int s = 0; s < size; s++)
      failed += recv[s] != s * 1000 + rank + (int)c;
  }
  MPI_Barrier(MPI_COMM_WORLD); /* gridcoll leaves barriers alone */
  if (rank == 0)
    printf("nofinalize: %ld calls per rank, %d failed\n", calls, failed);
  fflush(stdout);
  free(send);
  free(recv);
  exit(0);
}
