/* What gridcoll adds to a call it does not change: an unmodified MPI program (linked
 * WITHOUT gridcoll; scripts/bench-overhead.sh preloads it or not) that times N calls of
 * one collective and prints rank 0's mean time per call in nanoseconds.
 *
 *   overhead OP BYTES [N [TYPE]]   OP: bcast bcast_c alltoall alltoall_c (the _c forms
 *                                  need MPI 4); BYTES per rank (all-to-all: per block);
 *                                  N = 20000; TYPE: byte (MPI_BYTE, the default) or
 *                                  derived (MPI_Type_contiguous(8, MPI_BYTE), BYTES / 8
 *                                  of them: what gridcoll must check beyond a named type)
 *
 * Output (stdout, one line): "overhead OP BYTES N ns_per_call": the median of 5 blocks of
 * N/5 calls each, rank 0's time per call, so that one block the scheduler interrupted on
 * a loaded machine does not move the run's number. A warm-up of N/10 calls first, and
 * more until 50 ms have passed (the first call on a communicator builds gridcoll's state
 * and decisions; its clock calibrates). The
 * timed calls are the function gc_bench_timed_calls alone, so that valgrind's callgrind
 * can count their instructions and nothing else (--toggle-collect, scripts/bench-overhead.sh). */
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

static int call(const char *op, char *send, char *recv, int count, MPI_Datatype type)
{
  if (strcmp(op, "bcast") == 0)
    return MPI_Bcast(recv, count, type, 0, MPI_COMM_WORLD);
  if (strcmp(op, "alltoall") == 0)
    return MPI_Alltoall(send, count, type, recv, count, type, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
  if (strcmp(op, "bcast_c") == 0)
    return MPI_Bcast_c(recv, count, type, 0, MPI_COMM_WORLD);
  if (strcmp(op, "alltoall_c") == 0)
    return MPI_Alltoall_c(send, count, type, recv, count, type, MPI_COMM_WORLD);
#endif
  return -1;
}

/* The timed calls, out of line under a name callgrind can be told to count alone. */
__attribute__((noinline)) void gc_bench_timed_calls(const char *op, char *send, char *recv,
                                                    int count, MPI_Datatype type, int n);
__attribute__((noinline)) void gc_bench_timed_calls(const char *op, char *send, char *recv,
                                                    int count, MPI_Datatype type, int n)
{
  for (int i = 0; i < n; i++)
    call(op, send, recv, count, type);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0)
      fprintf(stderr, "usage: overhead bcast|bcast_c|alltoall|alltoall_c BYTES [N [byte|derived]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *op = argv[1];
  int bytes = atoi(argv[2]), n = argc > 3 ? atoi(argv[3]) : 20000, count = bytes;
  MPI_Datatype type = MPI_BYTE;
  if (argc > 4 && strcmp(argv[4], "derived") == 0) {
    MPI_Type_contiguous(8, MPI_BYTE, &type);
    MPI_Type_commit(&type);
    count = bytes / 8;
  }
  char *send = calloc((size_t)bytes * (size_t)size + 1, 1);
  char *recv = calloc((size_t)bytes * (size_t)size + 1, 1);
  if (!send || !recv || n < 1 || bytes < 0)
    MPI_Abort(MPI_COMM_WORLD, 2);
  /* Warm-up: N/10 calls, again until 50 ms have passed on every rank (MPI_Allreduce, which
   * gridcoll leaves alone, keeps the ranks' calls matched), so that gridcoll's clock is
   * calibrated before anything is counted (shim/pure/timebase.h: a millisecond natively,
   * tens of them under valgrind, whose clock_gettime is slow). */
  double start = now();
  for (int more = 1; more;) {
    for (int i = 0; i < n / 10 + 1; i++)
      if (call(op, send, recv, count, type) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 3);
    more = now() - start < 0.05;
    MPI_Allreduce(MPI_IN_PLACE, &more, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  enum { BLOCKS = 5 };
  int per = n / BLOCKS > 0 ? n / BLOCKS : 1;
  double ns[BLOCKS];
  for (int b = 0; b < BLOCKS; b++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    gc_bench_timed_calls(op, send, recv, count, type, per);
    ns[b] = (now() - t0) / per * 1e9;
  }
  for (int i = 1; i < BLOCKS; i++) /* insertion sort: the median of 5 */
    for (int j = i; j > 0 && ns[j - 1] > ns[j]; j--) {
      double x = ns[j];
      ns[j] = ns[j - 1], ns[j - 1] = x;
    }
  if (rank == 0)
    printf("overhead %s %d %d %.1f\n", op, bytes, per * BLOCKS, ns[BLOCKS / 2]);
  if (type != MPI_BYTE)
    MPI_Type_free(&type);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
