/* What the first call on a new communicator costs (issue 11 item 6): an unmodified
 * program (linked WITHOUT gridcoll; scripts/bench-first-call.sh preloads it or not)
 * that, ROUNDS times, duplicates MPI_COMM_WORLD, makes one call of OP on it, a second
 * one, and frees it, timing each step between barriers (on MPI_COMM_WORLD, which
 * gridcoll has long since set up). The first call is where gridcoll builds what the
 * chosen algorithm needs on that communicator; the second shows the call alone.
 *
 *   first_call OP BYTES [ROUNDS]   OP: bcast or alltoall; BYTES per rank (all-to-all:
 *                                  per block); ROUNDS = 200
 *
 * Output (rank 0, one line), medians over the rounds of the slowest rank's time, in
 * microseconds: "first_call OP BYTES ROUNDS dup first second free". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int call(const char *op, char *send, char *recv, int bytes, MPI_Comm comm)
{
  if (strcmp(op, "bcast") == 0)
    return MPI_Bcast(recv, bytes, MPI_BYTE, 0, comm);
  if (strcmp(op, "alltoall") == 0)
    return MPI_Alltoall(send, bytes, MPI_BYTE, recv, bytes, MPI_BYTE, comm);
  return -1;
}

static int by_value(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Seconds since t0 on the slowest rank. */
static double slowest(double t0)
{
  double mine = MPI_Wtime() - t0, worst;
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: first_call bcast|alltoall BYTES [ROUNDS]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *op = argv[1];
  int bytes = atoi(argv[2]), rounds = argc > 3 ? atoi(argv[3]) : 200;
  char *send = calloc((size_t)bytes * (size_t)size + 1, 1);
  char *recv = calloc((size_t)bytes * (size_t)size + 1, 1);
  double *t[4];
  for (int i = 0; i < 4; i++)
    t[i] = malloc(sizeof(double) * (size_t)(rounds > 0 ? rounds : 1));
  if (!send || !recv || !t[0] || !t[1] || !t[2] || !t[3] || rounds < 1 || bytes < 0 ||
      call(op, send, recv, bytes, MPI_COMM_WORLD) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int r = 0; r < rounds; r++) {
    MPI_Comm comm;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    t[0][r] = slowest(t0);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    call(op, send, recv, bytes, comm);
    t[1][r] = slowest(t0);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    call(op, send, recv, bytes, comm);
    t[2][r] = slowest(t0);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Comm_free(&comm);
    t[3][r] = slowest(t0);
  }
  if (rank == 0)
    printf("first_call %s %d %d %.1f %.1f %.1f %.1f\n", op, bytes, rounds, median(t[0], rounds) * 1e6,
           median(t[1], rounds) * 1e6, median(t[2], rounds) * 1e6, median(t[3], rounds) * 1e6);
  for (int i = 0; i < 4; i++)
    free(t[i]);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
