/* What gridcoll adds to a call it passes through, measured inside one process: the
 * program (linked WITHOUT gridcoll, run with LD_PRELOAD=libgridcoll.so) times blocks of
 * N calls of MPI_<op> (gridcoll's wrapper) and of PMPI_<op> (the MPI library's, never
 * intercepted) in alternation, so both see the same machine at nearly the same moment;
 * the difference of two neighbouring blocks is what the wrapper added. Without
 * LD_PRELOAD both names reach the library and the difference is the noise floor.
 *
 *   passthrough OP BYTES [N [ROUNDS [self]]]   OP: bcast bcast_c alltoall alltoall_c;
 *                                              N = 2000 calls a block, ROUNDS = 301;
 *                                              self: on MPI_COMM_SELF, else MPI_COMM_WORLD
 *
 * Output (rank 0, one line): "passthrough OP BYTES N ROUNDS mpi_ns pmpi_ns added_ns
 * added_q1 added_q3 added_mean added_se": medians of the per-call times over the rounds,
 * the median of the paired differences and their quartiles, their mean and its standard
 * error. The median skips a cost that comes every k calls (the log's window, its writes)
 * when a block holds fewer than k; the mean counts it, and its standard error says how
 * far the noise leaves it. Run it on 1 rank (no busy-polling peer) to see the wrapper
 * alone. */
#include <math.h>
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

struct args {
  const char *op;
  char *send, *recv;
  int bytes;
  MPI_Comm comm;
};

static int call(const struct args *a, int profiled)
{
  if (strcmp(a->op, "bcast") == 0)
    return profiled ? PMPI_Bcast(a->recv, a->bytes, MPI_BYTE, 0, a->comm)
                    : MPI_Bcast(a->recv, a->bytes, MPI_BYTE, 0, a->comm);
  if (strcmp(a->op, "alltoall") == 0)
    return profiled ? PMPI_Alltoall(a->send, a->bytes, MPI_BYTE, a->recv, a->bytes, MPI_BYTE, a->comm)
                    : MPI_Alltoall(a->send, a->bytes, MPI_BYTE, a->recv, a->bytes, MPI_BYTE, a->comm);
#if MPI_VERSION >= 4
  if (strcmp(a->op, "bcast_c") == 0)
    return profiled ? PMPI_Bcast_c(a->recv, a->bytes, MPI_BYTE, 0, a->comm)
                    : MPI_Bcast_c(a->recv, a->bytes, MPI_BYTE, 0, a->comm);
  if (strcmp(a->op, "alltoall_c") == 0)
    return profiled ? PMPI_Alltoall_c(a->send, a->bytes, MPI_BYTE, a->recv, a->bytes, MPI_BYTE, a->comm)
                    : MPI_Alltoall_c(a->send, a->bytes, MPI_BYTE, a->recv, a->bytes, MPI_BYTE, a->comm);
#endif
  return -1;
}

/* ns per call of one block; every rank runs the same blocks in the same order. */
static double block(const struct args *a, int profiled, int n)
{
  PMPI_Barrier(a->comm);
  double t0 = now();
  for (int i = 0; i < n; i++)
    call(a, profiled);
  return (now() - t0) / n * 1e9;
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

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: passthrough bcast|bcast_c|alltoall|alltoall_c BYTES [N [ROUNDS [self]]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  struct args a = {.op = argv[1], .bytes = atoi(argv[2]), .comm = MPI_COMM_WORLD};
  int n = argc > 3 ? atoi(argv[3]) : 2000, rounds = argc > 4 ? atoi(argv[4]) : 301;
  if (argc > 5 && strcmp(argv[5], "self") == 0)
    a.comm = MPI_COMM_SELF;
  int size;
  MPI_Comm_size(a.comm, &size);
  a.send = calloc((size_t)a.bytes * (size_t)size + 1, 1);
  a.recv = calloc((size_t)a.bytes * (size_t)size + 1, 1);
  double *with = malloc(sizeof(double) * (size_t)rounds), *without = malloc(sizeof(double) * (size_t)rounds);
  double *diff = malloc(sizeof(double) * (size_t)rounds);
  if (!a.send || !a.recv || !with || !without || !diff || n < 1 || rounds < 1 || a.bytes < 0 ||
      call(&a, 0) != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 2);
  block(&a, 0, n / 10 + 1); /* warm-up: the first call builds gridcoll's state */
  block(&a, 1, n / 10 + 1);
  for (int r = 0; r < rounds; r++) {
    /* Alternate which goes first, so a drift in the machine's load favours neither. */
    if (r % 2) {
      without[r] = block(&a, 1, n);
      with[r] = block(&a, 0, n);
    } else {
      with[r] = block(&a, 0, n);
      without[r] = block(&a, 1, n);
    }
    diff[r] = with[r] - without[r];
  }
  double sum = 0, squares = 0;
  for (int r = 0; r < rounds; r++)
    sum += diff[r];
  double mean = sum / rounds;
  for (int r = 0; r < rounds; r++)
    squares += (diff[r] - mean) * (diff[r] - mean);
  double se = rounds > 1 ? sqrt(squares / (rounds - 1) / rounds) : 0;
  /* Quartiles, not the extremes: a block the scheduler interrupted is off by
   * milliseconds, whichever name it timed. */
  double md = median(diff, rounds), lo = diff[rounds / 4], hi = diff[rounds - 1 - rounds / 4];
  if (rank == 0)
    printf("passthrough %s %d %d %d %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", a.op, a.bytes, n,
           rounds, median(with, rounds), median(without, rounds), md, lo, hi, mean, se);
  free(with), free(without), free(diff), free(a.send), free(a.recv);
  /* What MPI_Finalize costs: with gridcoll's log, writing the lines the run kept (one per
   * MPI_ call: the first, the warm-up and the timed ones). */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  MPI_Finalize();
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (rank == 0)
    printf("finalize %d %.3f\n", 1 + n / 10 + 1 + rounds * n,
           (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6);
  return 0;
}
