/* Many small calls: memory stays bounded and every result is right.
 *
 *   longrun [CALLS [MAX_GROWTH_KIB]]   (defaults 100000 and 2048)
 * Alternates MPI_Alltoall (one int per rank) and MPI_Bcast (two ints, rotating root) on
 * the world, checking each result. At CALLS/10 calls and at the end it reads VmRSS and
 * VmHWM from /proc/self/status and the heap in use (mallinfo2: small blocks and mmap-ed ones): from the first reading
 * to the last, none may grow by more than MAX_GROWTH_KIB (0: only print). By CALLS/10
 * every buffer gridcoll keeps (its 64 KiB chunk of log text, stdio's, MPI's
 * pools) has been touched, so growth after that is a per-call leak: with the defaults,
 * anything above ~20 bytes per call fails.
 * Prints "longrun: N calls per rank, rss +K KiB, hwm +K KiB, heap +K KiB, F failed". */
#include "memusage.h"
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long calls = argc > 1 ? atol(argv[1]) : 100000;
  long bound = argc > 2 ? atol(argv[2]) : 2048;
  int *send = malloc(sizeof(int) * (size_t)size), *recv = malloc(sizeof(int) * (size_t)size);
  int failed = 0;
  struct usage first = {0}, last;
  for (long c = 0; c < calls; c++) {
    if (c == calls / 10)
      first = usage_now();
    int salt = (int)(c % 1000003);
    if (c % 2 == 0) {
      for (int d = 0; d < size; d++)
        send[d] = rank * 7919 + d + salt, recv[d] = -1;
      MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD);
      for (int s = 0; s < size; s++)
        failed += recv[s] != s * 7919 + rank + salt;
    } else {
      int root = (int)((c / 2) % size), buf[2] = {-1, -1};
      if (rank == root)
        buf[0] = salt, buf[1] = -salt;
      MPI_Bcast(buf, 2, MPI_INT, root, MPI_COMM_WORLD);
      failed += buf[0] != salt || buf[1] != -salt;
    }
  }
  last = usage_now();
  long rss = last.rss - first.rss, hwm = last.hwm - first.hwm, heap = last.heap - first.heap;
  if (bound > 0 && (rss > bound || hwm > bound || heap > bound)) {
    printf("FAIL memory grew from call %ld to %ld (rank %d): rss %ld -> %ld KiB, hwm %ld -> %ld "
           "KiB, heap %ld -> %ld KiB; bound %ld KiB\n",
           calls / 10, calls, rank, first.rss, last.rss, first.hwm, last.hwm, first.heap,
           last.heap, bound);
    failed++;
  }
  /* Every rank's growth, rank 0's line: the worst of them. */
  long mine[3] = {rss, hwm, heap}, worst[3];
  MPI_Reduce(mine, worst, 3, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  failed = total_failures(failed != 0);
  if (rank == 0)
    printf("longrun: %ld calls per rank, rss %+ld KiB, hwm %+ld KiB, heap %+ld KiB, %d failed\n",
           calls, worst[0], worst[1], worst[2], failed);
  free(send);
  free(recv);
  MPI_Finalize();
  return failed != 0;
}
