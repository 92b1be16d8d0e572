/* A peer dies in the middle of a loop of collectives.
 *
 *   killpeer [ITERATION]   (default 50)
 * Every rank loops over MPI_Alltoall and MPI_Bcast on the world (blocks of 1 KiB, so LG
 * and the trees run when forced); the last rank raises SIGKILL at the given iteration.
 * The job must then end (the launcher reports the failure) rather than hang: run it
 * under `timeout` and compare with GRIDCOLL=off. A rank that gets an error code back
 * instead (an MPI built for fault tolerance) prints it and exits 3. */
#include <signal.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int die_at = argc > 1 ? atoi(argv[1]) : 50, count = 256;
  int *send = malloc(sizeof(int) * (size_t)count * (size_t)size);
  int *recv = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int i = 0; i < count * size; i++)
    send[i] = rank + i;
  for (int it = 0; it < 1000000; it++) {
    if (it == die_at && rank == size - 1)
      raise(SIGKILL);
    int rc = MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS)
      rc = MPI_Bcast(recv, count, MPI_INT, it % size, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
      printf("killpeer: rank %d got error %d at iteration %d\n", rank, rc, it);
      fflush(stdout);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  printf("FAIL killpeer: the loop ended without the peer's death being noticed\n");
  MPI_Finalize();
  return 1;
}
