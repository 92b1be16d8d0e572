/* nbcbench: a nonblocking collective against its blocking form, and how much of it an
 * application's computation hides, across the delayed grid of scripts/grid-up (issue 28;
 * scripts/bench-nbc-multihost.sh). An ordinary MPI program: gridcoll, when preloaded,
 * picks the algorithm and (GRIDCOLL_NONBLOCKING=grid) runs its own schedule behind the
 * request.
 *
 *   nbcbench ialltoall MAX REPS SLICE_US     blocks of 1 KiB, 4 KiB, ... up to MAX bytes
 *   nbcbench ibcast MAX REPS SLICE_US ROOT   the same, from ROOT
 *   nbcbench alltoall_init ... | bcast_init ...   the persistent forms: MPI_Alltoall_init
 *                                            (MPI_Bcast_init) once per size, each
 *                                            nonblocking call an MPI_Start of it
 *   nbcbench alltoallv_init ...              MPI_Alltoallv_init with every count the
 *                                            block (blocking: MPI_Alltoallv, the same)
 *   nbcbench ialltoallv ...                  MPI_Ialltoallv, the same counts
 *
 * Per size, REPS rounds of three measurements, each after a barrier and timed on every
 * rank, the slowest rank's time kept (the barrier's exit skew, at most about one
 * wide-area latency, is in all three alike):
 *   blocking: MPI_Alltoall / MPI_Bcast;
 *   pure:     MPI_Ialltoall / MPI_Ibcast, then MPI_Wait at once;
 *   overall:  the same call, then `compute` seconds of computation in slices of SLICE_US
 *             with an MPI_Test after each (an application testing every so often), then
 *             MPI_Wait; compute is this round's pure time (the slowest rank's), as OSU's
 *             nonblocking benchmarks set it.
 * Overlap (OSU's figure): 100 (1 - (overall - compute) / pure), the share of the call
 * hidden behind the computation, clipped to 0..100.
 * Prints "op,root,bytes,rep,blocking_s,pure_s,compute_s,overall_s" per round, then
 * "nbcbench: done". One untimed call of each form at every size first. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Computation that MPI cannot see: a busy loop until `seconds` have passed, with an
 * MPI_Test every `slice` seconds (the request completes there, or in the final wait).
 * Under SimGrid's SMPI (scripts/bench-nbc-smpi.sh) each slice is simulated computation
 * instead: a loop would cost real time, not simulated. */
static void compute(double seconds, double slice, MPI_Request *req, int *done) {
  double t0 = MPI_Wtime(), next = t0 + slice;
#ifdef SMPI_H
  for (double left = seconds; left > 0; left -= slice) {
    smpi_execute(left < slice ? left : slice);
    if (!*done) MPI_Test(req, done, MPI_STATUS_IGNORE);
  }
  (void)next;
#else
  volatile double x = 1.0;
  while (MPI_Wtime() - t0 < seconds) {
    x = x * 1.0000001 + 1e-9;
    if (MPI_Wtime() >= next) {
      if (!*done) MPI_Test(req, done, MPI_STATUS_IGNORE);
      next += slice;
    }
  }
#endif
}

struct call {
  int alltoall, root, persistent, v; /* v: MPI_Alltoallv's forms */
  char *send, *recv;
  int count, *counts, *displs; /* every count the block (v) */
  MPI_Request init; /* persistent: made once per size */
};

static void blocking(const struct call *c) {
  if (c->v)
    MPI_Alltoallv(c->send, c->counts, c->displs, MPI_BYTE, c->recv, c->counts, c->displs,
                  MPI_BYTE, MPI_COMM_WORLD);
  else if (c->alltoall)
    MPI_Alltoall(c->send, c->count, MPI_BYTE, c->recv, c->count, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Bcast(c->send, c->count, MPI_BYTE, c->root, MPI_COMM_WORLD);
}

static void post(struct call *c, MPI_Request *req) {
  if (c->persistent)
    MPI_Start(&c->init), *req = c->init;
  else if (c->v)
    MPI_Ialltoallv(c->send, c->counts, c->displs, MPI_BYTE, c->recv, c->counts, c->displs,
                   MPI_BYTE, MPI_COMM_WORLD, req);
  else if (c->alltoall)
    MPI_Ialltoall(c->send, c->count, MPI_BYTE, c->recv, c->count, MPI_BYTE, MPI_COMM_WORLD, req);
  else
    MPI_Ibcast(c->send, c->count, MPI_BYTE, c->root, MPI_COMM_WORLD, req);
}

/* One measurement (0 blocking, 1 pure, 2 overall with `work` seconds of computation):
 * the slowest rank's time, on every rank. */
static double measure(struct call *c, int form, double work, double slice) {
  MPI_Request req;
  int done = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (form == 0) {
    blocking(c);
  } else {
    post(c, &req);
    MPI_Request *r = c->persistent ? &c->init : &req; /* a persistent one stays allocated */
    if (form == 2) compute(work, slice, r, &done);
    if (!done) MPI_Wait(r, MPI_STATUS_IGNORE);
  }
  double t = MPI_Wtime() - t0, slowest;
  MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *op = argc > 1 ? argv[1] : "";
  int v = strcmp(op, "alltoallv_init") == 0 || strcmp(op, "ialltoallv") == 0;
  int alltoall = strcmp(op, "ialltoall") == 0 || strcmp(op, "alltoall_init") == 0 || v;
  int persistent = strcmp(op, "alltoall_init") == 0 || strcmp(op, "bcast_init") == 0 ||
                   strcmp(op, "alltoallv_init") == 0;
  int bcast = strcmp(op, "ibcast") == 0 || strcmp(op, "bcast_init") == 0;
  if ((!alltoall && !bcast) || argc != (alltoall ? 5 : 6)) {
    if (rank == 0)
      fprintf(stderr, "usage: nbcbench ialltoall|alltoall_init|ialltoallv|alltoallv_init MAX REPS SLICE_US"
                      " | ibcast|bcast_init MAX REPS SLICE_US ROOT\n");
    MPI_Finalize();
    return 2;
  }
  long max = atol(argv[2]);
  int reps = atoi(argv[3]);
  double slice = atof(argv[4]) * 1e-6;
  struct call c = {.alltoall = alltoall, .root = alltoall ? -1 : atoi(argv[5]),
                   .persistent = persistent, .v = v};
  size_t bytes = (size_t)max * (size_t)(alltoall ? size : 1);
  c.send = malloc(bytes), c.recv = malloc(bytes);
  c.counts = malloc(sizeof(int) * (size_t)size), c.displs = malloc(sizeof(int) * (size_t)size);
  if (!c.send || !c.recv || !c.counts || !c.displs || max < 1024 || reps < 1 || slice <= 0 ||
      c.root >= size)
    MPI_Abort(MPI_COMM_WORLD, 1);
  memset(c.send, rank, bytes);
  for (long m = 1024; m <= max; m *= 4) {
    c.count = (int)m;
    for (int i = 0; i < size; i++)
      c.counts[i] = c.count, c.displs[i] = i * c.count;
#if MPI_VERSION >= 4
    if (v && persistent)
      MPI_Alltoallv_init(c.send, c.counts, c.displs, MPI_BYTE, c.recv, c.counts, c.displs,
                         MPI_BYTE, MPI_COMM_WORLD, MPI_INFO_NULL, &c.init);
    else if (persistent && alltoall)
      MPI_Alltoall_init(c.send, c.count, MPI_BYTE, c.recv, c.count, MPI_BYTE, MPI_COMM_WORLD,
                        MPI_INFO_NULL, &c.init);
    else if (persistent)
      MPI_Bcast_init(c.send, c.count, MPI_BYTE, c.root, MPI_COMM_WORLD, MPI_INFO_NULL, &c.init);
#else
    if (persistent)
      MPI_Abort(MPI_COMM_WORLD, 2); /* no persistent collectives before MPI 4 */
#endif
    measure(&c, 0, 0, slice);
    measure(&c, 1, 0, slice);
    for (int r = 0; r < reps; r++) {
      double b = measure(&c, 0, 0, slice), p = measure(&c, 1, 0, slice);
      double o = measure(&c, 2, p, slice);
      if (rank == 0)
        printf("%s,%d,%ld,%d,%.9f,%.9f,%.9f,%.9f\n", op, c.root, m, r, b, p, p, o);
    }
    if (persistent) MPI_Request_free(&c.init);
    if (rank == 0) fflush(stdout);
  }
  if (rank == 0) {
    printf("nbcbench: done\n");
    fflush(stdout);
  }
  free(c.send);
  free(c.recv);
  free(c.counts);
  free(c.displs);
  MPI_Finalize();
  return 0;
}
