/* The same calls again, in an order whose decision-cache behaviour is known: on
 * MPI_COMM_WORLD and on a duplicate, for each size (8 B, 4096 B and 5000 B, which share
 * a size class, 64 KiB), MPI_Bcast from each root in turn, REPS times each, then
 * MPI_Alltoall REPS times. Every result is checked against the expected bytes.
 * test/mpi/run.sh runs it on two clusters of two ranks (roots 0-1 in one, 2-3 in the
 * other) under `auto` and counts the choices gridcoll says it made (GRIDCOLL_VERBOSE=3,
 * "auto chose"): per communicator and size, one for each root cluster and one for the
 * all-to-all, the same on every rank; and, with a log, one record per call.
 *
 *   decide [REPS]   (default 3)
 * Prints "decide: N calls per rank, F failed". */
#include "mpitest.h"

static const int sizes[] = {8, 4096, 5000, 65536};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int reps = argc > 1 ? atoi(argv[1]) : 3, failed = 0, calls = 0, size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_NULL};
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  unsigned char *buf = malloc(65536), *send = malloc(65536 * (size_t)size),
                *recv = malloc(65536 * (size_t)size);
  if (!buf || !send || !recv)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int k = 0; k < 2; k++) {
    int me;
    MPI_Comm_rank(comms[k], &me);
    for (int s = 0; s < NSIZES; s++) {
      int m = sizes[s];
      for (int root = 0; root < size; root++)
        for (int r = 0; r < reps; r++) {
          fill_pattern(buf, (size_t)m, me == root ? root * 31 + r : 99);
          MPI_Bcast(buf, m, MPI_BYTE, root, comms[k]);
          unsigned char *want = malloc((size_t)m);
          fill_pattern(want, (size_t)m, root * 31 + r);
          failed += verdict("bcast", memcmp(buf, want, (size_t)m) != 0);
          free(want);
          calls++;
        }
      for (int r = 0; r < reps; r++) {
        for (int p = 0; p < size; p++)
          memset(send + (size_t)p * m, (me * 7 + p * 3 + r) & 0xff, (size_t)m);
        MPI_Alltoall(send, m, MPI_BYTE, recv, m, MPI_BYTE, comms[k]);
        int bad = 0;
        for (int p = 0; p < size; p++)
          for (int i = 0; i < m; i++)
            bad |= recv[(size_t)p * m + i] != ((p * 7 + me * 3 + r) & 0xff);
        failed += verdict("alltoall", bad);
        calls++;
      }
    }
  }
  MPI_Comm_free(&comms[1]);
  free(buf), free(send), free(recv);
  failed = total_failures(failed);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("decide: %d calls per rank, %d failed\n", calls, failed);
  MPI_Finalize();
  return failed != 0;
}
