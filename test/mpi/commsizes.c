/* Broadcasts on communicators of several sizes, one-process ones among them: what the
 * summary must keep apart (issue 25). Every rank runs, in this order,
 *   - N broadcasts on MPI_COMM_SELF (one process: nothing moves);
 *   - N on MPI_COMM_WORLD;
 *   - N on a split of the world: ranks 0 .. size-2 together, the last rank alone (a
 *     one-process communicator made by MPI_Comm_split, not MPI_COMM_SELF).
 * Each broadcast moves COUNT ints (16 by default) from rank 0 of its communicator, and
 * every rank checks them.
 *
 *   commsizes [N [COUNT]]   (default 5 16; 3 ranks or more)
 * Prints "commsizes: N calls per communicator, F failed". test/mpi/log.sh reads the
 * summary: size-1 communicators' calls (size * N + N) on their own line, not scored; rows
 * of procs = size and size - 1. */
#include "mpitest.h"

/* n broadcasts of count ints on comm, each with its own pattern; the failures. */
static int bcasts(MPI_Comm comm, int n, int count, int *buf)
{
  int rank, failed = 0;
  MPI_Comm_rank(comm, &rank);
  for (int k = 0; k < n; k++) {
    for (int i = 0; i < count; i++)
      buf[i] = rank == 0 ? 1000 * k + i : -1;
    MPI_Bcast(buf, count, MPI_INT, 0, comm);
    for (int i = 0; i < count; i++)
      failed += buf[i] != 1000 * k + i;
  }
  return failed;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0;
  int n = argc > 1 ? atoi(argv[1]) : 5, count = argc > 2 ? atoi(argv[2]) : 16;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *buf = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1, rank, &part);
  failed += bcasts(MPI_COMM_SELF, n, count, buf);
  failed += bcasts(MPI_COMM_WORLD, n, count, buf);
  failed += bcasts(part, n, count, buf);
  MPI_Comm_free(&part);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("commsizes: %d calls per communicator, %d failed\n", n, failed);
  free(buf);
  MPI_Finalize();
  return failed != 0;
}
