/* Completion times of MPI_Alltoall or MPI_Bcast at a list of sizes (and broadcast roots),
 * for scripts/bench-auto.sh.
 *
 *   auto_bench OP SIZES [ROOTS [REPS]]
 *
 * OP is alltoall or bcast; SIZES a comma-separated list of bytes (all-to-all: the block per
 * peer; broadcast: the message); ROOTS a comma-separated list of broadcast roots (default
 * 0; ignored by the all-to-all); REPS the timed calls per size and root (default 1, more to
 * watch `auto` learn). Each size and root gets one untimed call first: the algorithms'
 * set-up (sub-communicators, trees) and SMPI's own first-call costs stay off the clock.
 *
 * A call's time is its completion time, in the one clock SMPI's ranks share: every rank
 * enters at the same simulated instant t0 (bench.h's start_together) and the time runs to
 * the latest exit of any rank. For a broadcast the root enters at t0 too, so this is the
 * root's entry to the last rank holding the message. Under a real MPI the clocks differ
 * and the time is only the slowest rank's own elapsed time after a barrier.
 *
 * Rank 0 prints one line per timed call: "call,<op>,<ranks>,<m>,<root>,<rep>,<seconds>".
 * Under SMPI the buffers come from SMPI_SHARED_MALLOC: this program times, the tests
 * check contents. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

enum { MAX_LIST = 64 };

/* "a,b,c" into v (at most MAX_LIST values); the count, or -1 on a bad list. */
static int parse_list(const char *s, long *v)
{
  int n = 0;
  while (s && *s && n < MAX_LIST) {
    char *end;
    v[n++] = strtol(s, &end, 10);
    if (end == s || (*end && *end != ','))
      return -1;
    s = *end ? end + 1 : end;
  }
  return n;
}

static void one_call(int bcast, char *send, char *recv, long m, int root)
{
  if (bcast)
    MPI_Bcast(send, (int)m, MPI_BYTE, root, MPI_COMM_WORLD);
  else
    MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long sizes[MAX_LIST], roots[MAX_LIST] = {0};
  int bcast = argc > 1 && strcmp(argv[1], "bcast") == 0;
  int nsizes = argc > 2 ? parse_list(argv[2], sizes) : -1;
  int nroots = argc > 3 ? parse_list(argv[3], roots) : 1;
  long reps = arg(argc, argv, 4, 1);
  int ok = argc > 2 && (bcast || strcmp(argv[1], "alltoall") == 0) && nsizes > 0 &&
           nroots > 0 && reps >= 1;
  for (int i = 0; ok && i < nsizes; i++)
    ok = sizes[i] >= 1 && sizes[i] <= (1L << 30);
  for (int i = 0; ok && bcast && i < nroots; i++)
    ok = roots[i] >= 0 && roots[i] < size;
  if (!ok) {
    if (rank == 0)
      fprintf(stderr, "usage: auto_bench alltoall|bcast SIZES [ROOTS [REPS]]\n");
    MPI_Finalize();
    return 2;
  }
  if (!bcast)
    nroots = 1, roots[0] = -1;
  for (int s = 0; s < nsizes; s++) {
    long m = sizes[s];
    size_t bytes = bcast ? (size_t)m : (size_t)m * (size_t)size;
    char *send = BENCH_ALLOC(bytes), *recv = bcast ? NULL : BENCH_ALLOC(bytes);
    int have = send && (bcast || recv), all = 0;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
      if (rank == 0)
        fprintf(stderr, "auto_bench: out of memory at %ld bytes\n", m);
      break;
    }
    for (int r = 0; r < nroots; r++) {
      int root = (int)roots[r];
      one_call(bcast, send, recv, m, root < 0 ? 0 : root);
      for (long rep = 0; rep < reps; rep++) {
        double t0 = start_together();
        one_call(bcast, send, recv, m, root < 0 ? 0 : root);
        double t = MPI_Wtime() - t0, last = 0;
        MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
          printf("call,%s,%d,%ld,%d,%ld,%.9g\n", bcast ? "bcast" : "alltoall", size, m, root,
                 rep, last);
          fflush(stdout);
        }
      }
    }
    BENCH_FREE(send);
    if (recv)
      BENCH_FREE(recv);
  }
  MPI_Finalize();
  return 0;
}
