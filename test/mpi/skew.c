/* Ranks that enter a collective at different times: what the log must call its time.
 *
 *   skew [SLEEP_MS]   (default 300; 3 ranks or more)
 * A broadcast and an all-to-all first (calls 0 and 1: the communicator's set-up, collective,
 * happens before the timed part of its first call), then, each after a barrier (not
 * intercepted), three logged calls on MPI_COMM_WORLD, numbered from 2 in the log:
 *   0. MPI_Bcast, root 0, rank 1 sleeps before entering: the broadcast completes when
 *      rank 1 has it, so its time (from the root's entry) is at least the sleep, though
 *      the root itself leaves at once;
 *   1. MPI_Bcast, root 1, the root sleeps before entering: the others wait for it, but the
 *      broadcast starts at the root's entry, so its time is below their own;
 *   2. MPI_Alltoall, the last rank sleeps: from the first entry to the last exit, at least
 *      the sleep.
 * test/mpi/run.sh reads the log. Prints "skew: F failed" (the data's checks). */
#include <time.h>

#include "mpitest.h"

static void sleep_ms(int ms)
{
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0, ms = argc > 1 ? atoi(argv[1]) : 300;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buf[4];
  int *send = malloc(sizeof(int) * (size_t)size), *recv = malloc(sizeof(int) * (size_t)size);
  MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);

  PMPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    sleep_ms(ms);
  buf[0] = rank == 0 ? 17 : -1;
  MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
  failed += buf[0] != 17;

  PMPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    sleep_ms(ms);
  buf[0] = rank == 1 ? 23 : -1;
  MPI_Bcast(buf, 1, MPI_INT, 1, MPI_COMM_WORLD);
  failed += buf[0] != 23;

  for (int d = 0; d < size; d++)
    send[d] = rank * 100 + d, recv[d] = -1;
  PMPI_Barrier(MPI_COMM_WORLD);
  if (rank == size - 1)
    sleep_ms(ms);
  MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
  for (int s = 0; s < size; s++)
    failed += recv[s] != s * 100 + rank;
  free(send);
  free(recv);

  if (rank == 0)
    printf("skew: %d failed\n", failed);
  MPI_Finalize();
  return 0;
}
