/* MPI_Alltoallv timing for three count patterns, for scripts/bench-alltoallv.sh.
 *
 *   alltoallv_bench [MIN_BYTES [MAX_BYTES [FACTOR [REPS]]]]
 *
 * For every mean block size m = MIN, MIN*FACTOR, ... MAX, three patterns of block sizes
 * (bytes from rank s to rank d), each with a mean of about m:
 *   uniform  every block m; MPI_Alltoall is timed at m too, to compare with LG and the
 *            library's all-to-all;
 *   skewed   rank 0 sends 8m to every rank and receives 8m from every rank, the others
 *            exchange m/4 (a heavy peer: a particle code's crowded cell);
 *   fft      m * w_s * w_d with w_r = 2(r+1)/(n+1): the slab transpose of an FFT whose
 *            slabs grow with the rank (uneven decomposition), mean weight 1.
 * Warm-up and timing as alltoall_bench.c (bench.h); rank 0 prints one line per timed
 * point: "bench,<op>,<pattern>,<ranks>,<m>,<seconds>". Buffers from SMPI's shared malloc
 * under SMPI: their contents are meaningless, the tests check. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

enum { UNIFORM, SKEWED, FFT, NPATTERNS };
static const char *names[NPATTERNS] = {"uniform", "skewed", "fft"};

static int block(int pattern, long m, int s, int d, int n)
{
  switch (pattern) {
  case SKEWED: return (int)(s == 0 || d == 0 ? 8 * m : (m / 4 > 0 ? m / 4 : 1));
  case FFT: return (int)((double)m * 4.0 * (s + 1) * (d + 1) / ((double)(n + 1) * (n + 1)));
  default: return (int)m;
  }
}

static double timed(int op, const char *send, const int *sc, const int *sd, char *recv,
                    const int *rc, const int *rd, long m, long reps)
{
  double best = -1;
  for (long r = -1; r < reps; r++) { /* r = -1: the untimed warm-up */
    double t0 = start_together();
    if (op)
      MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
    else
      MPI_Alltoallv(send, sc, sd, MPI_BYTE, recv, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0, slowest = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (r >= 0 && (best < 0 || slowest < best))
      best = slowest;
  }
  return best;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long min = arg(argc, argv, 1, 1024), max = arg(argc, argv, 2, 65536);
  long factor = arg(argc, argv, 3, 8), reps = arg(argc, argv, 4, 1);
  const char *only = getenv("ALLTOALLV_BENCH_ALLTOALL"); /* "0": skip MPI_Alltoall */
  if (min < 1 || max < min || factor < 2 || reps < 1 || max > (1L << 26)) {
    if (rank == 0)
      fprintf(stderr, "usage: alltoallv_bench [MIN [MAX [FACTOR [REPS]]]]\n");
    MPI_Finalize();
    return 2;
  }
  int *sc = malloc(sizeof(int) * 4 * (size_t)n), *sd = sc + n, *rc = sd + n, *rd = rc + n;
  for (long m = min; m <= max; m *= factor)
    for (int p = 0; p < NPATTERNS; p++) {
      long stot = 0, rtot = 0;
      for (int q = 0; q < n; q++) {
        sc[q] = block(p, m, rank, q, n), sd[q] = (int)stot, stot += sc[q];
        rc[q] = block(p, m, q, rank, n), rd[q] = (int)rtot, rtot += rc[q];
      }
      size_t bytes = (size_t)(stot > rtot ? stot : rtot) + (size_t)m * (size_t)n + 1;
      char *send = BENCH_ALLOC(bytes), *recv = BENCH_ALLOC(bytes);
      for (int op = 0; op < (p == UNIFORM && !(only && !strcmp(only, "0")) ? 2 : 1); op++) {
        double t = timed(op, send, sc, sd, recv, rc, rd, m, reps);
        if (rank == 0) {
          printf("bench,%s,%s,%d,%ld,%.9g\n", op ? "alltoall" : "alltoallv", names[p], n, m, t);
          fflush(stdout);
        }
      }
      BENCH_FREE(send);
      BENCH_FREE(recv);
    }
  free(sc);
  MPI_Finalize();
  return 0;
}
