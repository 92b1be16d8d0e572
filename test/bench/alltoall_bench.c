/* MPI_Alltoall timing over a range of block sizes, for scripts/bench-grid.sh.
 *
 *   alltoall_bench [MIN_BYTES [MAX_BYTES [FACTOR [REPS [WARMUP]]]]]
 *
 * Block sizes m = MIN, MIN*FACTOR, ... up to MAX (bytes sent to each peer). At every size
 * WARMUP untimed calls come first: selectors switch algorithm by size and some algorithms
 * spend seconds on their first call (SMP-aware set-up, gridcoll's sub-communicators).
 * Then REPS timed calls; the reported time is the best call's. Under SMPI, where MPI_Wtime
 * is the simulated clock every rank shares, all ranks start a call at the same simulated
 * instant (they sleep, in simulated time, until an agreed moment) and a call's time runs
 * from that instant to the last rank's end: a barrier alone lets ranks leave it a
 * wide-area latency apart, which would count in every algorithm's time. Under a real MPI
 * a call starts after a barrier and its time is the slowest rank's own start to end.
 * Rank 0 prints one line per size: "bench,<ranks>,<m>,<seconds>".
 *
 * The program is linked with gridcoll (SMPI, `make smpi`) or gets it through LD_PRELOAD
 * (MPICH); GRIDCOLL_ALLTOALL picks gridcoll's algorithm, smpirun's --cfg=smpi/alltoall the
 * library's. Under SMPI the buffers come from SMPI_SHARED_MALLOC: every rank maps the same
 * pages, so 64 ranks x 1 MiB x 64 peers fit in memory. Their contents are meaningless:
 * this program times, the tests check. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long min = arg(argc, argv, 1, 1024), max = arg(argc, argv, 2, 1 << 20);
  long factor = arg(argc, argv, 3, 4), reps = arg(argc, argv, 4, 1);
  long warmup = arg(argc, argv, 5, 1);
  if (min < 1 || max < min || factor < 2 || reps < 1 || warmup < 0) {
    if (rank == 0)
      fprintf(stderr, "usage: alltoall_bench [MIN [MAX [FACTOR [REPS [WARMUP]]]]]\n");
    MPI_Finalize();
    return 2;
  }
  for (long m = min; m <= max; m *= factor) {
    size_t bytes = (size_t)m * (size_t)size;
    char *send = BENCH_ALLOC(bytes), *recv = BENCH_ALLOC(bytes);
    int ok = send && recv, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
      if (rank == 0)
        fprintf(stderr, "alltoall_bench: out of memory at %ld bytes per block\n", m);
      break;
    }
    for (long w = 0; w < warmup; w++)
      MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
    double best = -1;
    for (long r = 0; r < reps; r++) {
      double t0 = start_together();
      MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
      double t = MPI_Wtime() - t0, slowest = 0;
      MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (best < 0 || slowest < best)
        best = slowest;
    }
    if (rank == 0) {
      printf("bench,%d,%ld,%.9g\n", size, m, best);
      fflush(stdout);
    }
    BENCH_FREE(send);
    BENCH_FREE(recv);
  }
  MPI_Finalize();
  return 0;
}
