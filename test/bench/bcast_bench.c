/* MPI_Bcast timing over a range of message sizes, for scripts/bench-grid-bcast.sh.
 *
 *   bcast_bench [MIN_BYTES [MAX_BYTES [FACTOR [REPS [WARMUP [ROOT]]]]]]
 *
 * Message sizes m = MIN, MIN*FACTOR, ... up to MAX bytes, and MAX itself when the powers
 * miss it (2 64 2048 65536 1048576 from 2 1048576 32), broadcast from rank ROOT
 * (default 0). At every size WARMUP untimed calls come first: selectors switch algorithm by
 * size, SMP-aware algorithms spend about 10 simulated seconds setting up on their first
 * call, gridcoll builds its trees and sub-communicators. Then REPS timed calls; the
 * reported time is the best call's. As in alltoall_bench.c, under SMPI every rank starts a
 * call at the same simulated instant, and a call's time runs from that instant to the
 * moment the LAST rank has the message (the latest return of MPI_Bcast over all ranks);
 * under a real MPI a call starts after a barrier. Rank ROOT prints one line per size:
 * "bench,<ranks>,<m>,<seconds>".
 *
 * Under SMPI the buffer comes from SMPI_SHARED_MALLOC: its contents are meaningless; this
 * program times, test/mpi/bcast.c checks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long min = arg(argc, argv, 1, 2), max = arg(argc, argv, 2, 1 << 20);
  long factor = arg(argc, argv, 3, 32), reps = arg(argc, argv, 4, 1);
  long warmup = arg(argc, argv, 5, 1), root = arg(argc, argv, 6, 0);
  if (min < 1 || max < min || factor < 2 || reps < 1 || warmup < 0 || root < 0 ||
      root >= size) {
    if (rank == 0)
      fprintf(stderr, "usage: bcast_bench [MIN [MAX [FACTOR [REPS [WARMUP [ROOT]]]]]]\n");
    MPI_Finalize();
    return 2;
  }
  for (long m = min; m <= max; m = (m < max && m * factor > max) ? max : m * factor) {
    char *buf = BENCH_ALLOC((size_t)m);
    int ok = buf != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
      if (rank == root)
        fprintf(stderr, "bcast_bench: out of memory at %ld bytes\n", m);
      break;
    }
    for (long w = 0; w < warmup; w++)
      MPI_Bcast(buf, (int)m, MPI_BYTE, (int)root, MPI_COMM_WORLD);
    double best = -1;
    for (long r = 0; r < reps; r++) {
      double t0 = start_together();
      MPI_Bcast(buf, (int)m, MPI_BYTE, (int)root, MPI_COMM_WORLD);
      double t = MPI_Wtime() - t0, last = 0;
      MPI_Reduce(&t, &last, 1, MPI_DOUBLE, MPI_MAX, (int)root, MPI_COMM_WORLD);
      if (best < 0 || last < best)
        best = last;
    }
    if (rank == root) {
      printf("bench,%d,%ld,%.9g\n", size, m, best);
      fflush(stdout);
    }
    BENCH_FREE(buf);
  }
  MPI_Finalize();
  return 0;
}
