/* `auto` learning from measured calls (shim/pure/learn.h, shim/span.h), on real MPI:
 *   1. on MPI_COMM_WORLD and on a duplicate, for each size (8 B, 4096 B and 5000 B, which
 *      share a size class, 64 KiB), MPI_Bcast from each root REPS times, then
 *      MPI_Alltoall REPS times: enough calls for every candidate to be measured and a
 *      choice kept; every result checked against the expected bytes;
 *   2. ROUNDS communicators, each freed right after its first broadcast and all-to-all
 *      (both measured, their allreduces still pending at MPI_Comm_free); the heap and
 *      resident set may not grow by more than MAX_GROWTH_KIB over the last 3/4 of them;
 *   3. MPI_Finalize with measurements pending: a duplicate left unfreed after one
 *      all-to-all, and a broadcast of a size class never seen on MPI_COMM_WORLD last.
 * test/mpi/learn.sh runs it on two clusters and compares what each rank kept.
 *
 *   learn [REPS [ROUNDS [MAX_GROWTH_KIB]]]   (defaults 12, 200, 1024)
 * Prints "learn: N calls per rank, F failed". */
#include "memusage.h"
#include "mpitest.h"

static const int sizes[] = {8, 4096, 5000, 65536};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static int bcast_ok(MPI_Comm comm, unsigned char *buf, int m, int root, int salt)
{
  int me;
  MPI_Comm_rank(comm, &me);
  fill_pattern(buf, (size_t)m, me == root ? salt : 99);
  MPI_Bcast(buf, m, MPI_BYTE, root, comm);
  unsigned char *want = malloc((size_t)m);
  if (!want)
    MPI_Abort(MPI_COMM_WORLD, 2);
  fill_pattern(want, (size_t)m, salt);
  int bad = memcmp(buf, want, (size_t)m) != 0;
  free(want);
  return verdict("bcast", bad);
}

static int alltoall_ok(MPI_Comm comm, unsigned char *send, unsigned char *recv, int m, int salt)
{
  int me, size, bad = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  for (int p = 0; p < size; p++)
    memset(send + (size_t)p * m, (me * 7 + p * 3 + salt) & 0xff, (size_t)m);
  MPI_Alltoall(send, m, MPI_BYTE, recv, m, MPI_BYTE, comm);
  for (int p = 0; p < size; p++)
    for (int i = 0; i < m; i++)
      bad |= recv[(size_t)p * m + i] != ((p * 7 + me * 3 + salt) & 0xff);
  return verdict("alltoall", bad);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int reps = argc > 1 ? atoi(argv[1]) : 12;
  long rounds = argc > 2 ? atol(argv[2]) : 200, bound = argc > 3 ? atol(argv[3]) : 1024;
  int failed = 0, calls = 0, size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  unsigned char *buf = malloc(65536), *send = malloc(65536 * (size_t)size),
                *recv = malloc(65536 * (size_t)size);
  if (!buf || !send || !recv)
    MPI_Abort(MPI_COMM_WORLD, 2);

  MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_NULL};
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  for (int k = 0; k < 2; k++)
    for (int s = 0; s < NSIZES; s++) {
      for (int root = 0; root < size; root++)
        for (int r = 0; r < reps; r++, calls++)
          failed += bcast_ok(comms[k], buf, sizes[s], root, root * 31 + r);
      for (int r = 0; r < reps; r++, calls++)
        failed += alltoall_ok(comms[k], send, recv, sizes[s], r);
    }
  MPI_Comm_free(&comms[1]);

  struct usage start = {0};
  for (long r = 0; r < rounds; r++) {
    if (r == rounds / 4)
      start = usage_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    failed += bcast_ok(comm, buf, 8, (int)(r % size), (int)(r % 1000));
    failed += alltoall_ok(comm, send, recv, 64, (int)r);
    calls += 2;
    MPI_Comm_free(&comm);
  }
  struct usage end = usage_now();
  long rss = end.rss - start.rss, heap = end.heap - start.heap;
  if (bound > 0 && (rss > bound || heap > bound)) {
    printf("FAIL memory grew over %ld communicators (rank %d): rss %+ld KiB, heap %+ld KiB; "
           "bound %ld KiB\n", rounds - rounds / 4, rank, rss, heap, bound);
    failed++;
  }

  MPI_Comm alive;
  MPI_Comm_dup(MPI_COMM_WORLD, &alive);
  failed += alltoall_ok(alive, send, recv, 256, 5);
  failed += bcast_ok(MPI_COMM_WORLD, buf, 3, size - 1, 17);
  calls += 2;
  failed = total_failures(failed);
  if (rank == 0)
    printf("learn: %d calls per rank, %d failed\n", calls, failed);
  fflush(stdout);
  free(buf), free(send), free(recv);
  /* The last two calls' measurements are still pending here. */
  MPI_Finalize();
  return failed != 0;
}
