/* Communicator churn: create, use and free many communicators; nothing may leak.
 *
 *   churn [COMMS [MAX_GROWTH_KIB]]   (defaults 10000 and 2048)
 * Each round makes a communicator (MPI_Comm_dup and MPI_Comm_split in turn), runs an
 * MPI_Alltoall and an MPI_Bcast on it, checks them, and frees it: gridcoll builds its
 * per-communicator state (layout, private duplicate, cluster and leader communicators,
 * LG's buffers, the tree cache) and its keyval delete callback must free all of it. Memory
 * is read at COMMS/4 rounds (by then the log buffer, 4096 records, has been filled once)
 * and at the end, as in longrun.c (0: only print); LeakSanitizer
 * or valgrind catch what this misses.
 * Prints "churn: N communicators, rss +K KiB, heap +K KiB, F failed". */
#include "memusage.h"
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long rounds = argc > 1 ? atol(argv[1]) : 10000;
  long bound = argc > 2 ? atol(argv[2]) : 2048;
  int *send = malloc(sizeof(int) * 4 * (size_t)size), *recv = malloc(sizeof(int) * 4 * (size_t)size);
  int failed = 0;
  struct usage start = {0};
  for (long r = 0; r < rounds; r++) {
    if (r == rounds / 4)
      start = usage_now();
    MPI_Comm comm;
    if (r % 2)
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    else
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comm); /* reversed */
    int me, salt = (int)(r % 100003);
    MPI_Comm_rank(comm, &me);
    for (int i = 0; i < 4 * size; i++)
      send[i] = me * 1000 + i + salt, recv[i] = -1;
    MPI_Alltoall(send, 4, MPI_INT, recv, 4, MPI_INT, comm);
    for (int s = 0; s < size; s++)
      for (int i = 0; i < 4; i++)
        failed += recv[s * 4 + i] != s * 1000 + me * 4 + i + salt;
    int root = (int)(r % size), buf[3] = {-1, -1, -1};
    if (me == root)
      buf[0] = buf[1] = buf[2] = salt;
    MPI_Bcast(buf, 3, MPI_INT, root, comm);
    failed += buf[0] != salt || buf[1] != salt || buf[2] != salt;
    MPI_Comm_free(&comm);
  }
  struct usage end = usage_now();
  long rss = end.rss - start.rss, heap = end.heap - start.heap;
  if (bound > 0 && (rss > bound || heap > bound)) {
    printf("FAIL memory grew over %ld communicators (rank %d): rss %+ld KiB, heap %+ld KiB; "
           "bound %ld KiB\n",
           rounds - rounds / 4, rank, rss, heap, bound);
    failed++;
  }
  long mine[2] = {rss, heap}, worst[2];
  MPI_Reduce(mine, worst, 2, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  failed = total_failures(failed != 0);
  if (rank == 0)
    printf("churn: %ld communicators, rss %+ld KiB, heap %+ld KiB, %d failed\n", rounds, worst[0],
           worst[1], failed);
  free(send);
  free(recv);
  MPI_Finalize();
  return failed != 0;
}
