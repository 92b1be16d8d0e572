/* What gridcoll adds to a call it does not change: an unmodified MPI program (linked
 * WITHOUT gridcoll; scripts/bench-overhead.sh preloads it or not) that times N calls of
 * one collective and prints rank 0's mean time per call in nanoseconds.
 *
 *   overhead OP BYTES [N]   OP: bcast bcast_c alltoall alltoall_c (the _c forms need
 *                           MPI 4); BYTES per rank (all-to-all: per block); N = 20000
 *
 * Output (stdout, one line): "overhead OP BYTES N ns_per_call". A warm-up of N/10 calls
 * first (the first call on a communicator builds gridcoll's state and decisions). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int call(const char *op, char *send, char *recv, int bytes)
{
  if (strcmp(op, "bcast") == 0)
    return MPI_Bcast(recv, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (strcmp(op, "alltoall") == 0)
    return MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
  if (strcmp(op, "bcast_c") == 0)
    return MPI_Bcast_c(recv, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (strcmp(op, "alltoall_c") == 0)
    return MPI_Alltoall_c(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, MPI_COMM_WORLD);
#endif
  return -1;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: overhead bcast|bcast_c|alltoall|alltoall_c BYTES [N]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *op = argv[1];
  int bytes = atoi(argv[2]), n = argc > 3 ? atoi(argv[3]) : 20000;
  char *send = calloc((size_t)bytes * (size_t)size + 1, 1);
  char *recv = calloc((size_t)bytes * (size_t)size + 1, 1);
  if (!send || !recv || n < 1 || bytes < 0)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < n / 10 + 1; i++)
    if (call(op, send, recv, bytes) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 3);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  for (int i = 0; i < n; i++)
    call(op, send, recv, bytes);
  double t = now() - t0;
  if (rank == 0)
    printf("overhead %s %d %d %.1f\n", op, bytes, n, t / n * 1e9);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
