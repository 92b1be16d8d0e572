/* The timed exchanges. A ping-pong keeps the smallest of its repetitions (descheduling,
 * frequent on a shared or oversubscribed machine, only ever adds time to an uncontended
 * exchange); an all-to-all keeps the median (contention is what is measured there). The
 * number of repetitions under a time budget is decided by one rank and sent to the
 * others. Each sweep also leaves, after its ns times, the largest relative spread of the
 * repetitions, (median - min) / min over the sizes: what tells a noisy machine from a
 * model that does not fit (a deterministic simulator repeats itself exactly). */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "calibrate.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double calibrate_median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int calibrate_reps(const struct options *o, int most, double one, double share)
{
  if (o->budget <= 0 || one <= 0)
    return most;
  /* An int only once below most: a NaN or an infinite quotient (a clock gone wrong)
   * would be undefined behaviour as an int, and the count sizes the times' array. */
  double fit = floor(share / one);
  return !(fit < most) ? most : fit < MIN_REPS ? MIN_REPS : (int)fit;
}

/* Repetitions for one size, given one repetition's time and the size's share of the
 * budget: decided by one rank, sent to the others. */
static int reps_for(const struct options *o, double one, double share)
{
  return calibrate_reps(o, o->reps, one, share);
}

/* (median - min) / min of v[0..n), which it sorts. */
static double spread(double *v, int n)
{
  double med = calibrate_median(v, n);
  return v[0] > 0 ? (med - v[0]) / v[0] : 0;
}

/* a's side of one size: a warm-up round trip that also sets the repetitions (sent to b),
 * then the smallest one-way time; *noise: the repetitions' spread. */
static double pingpong_lead(int b, int m, const struct options *o, double share, char *buf,
                            double *v, double *noise)
{
  double t0 = MPI_Wtime(); /* one warm-up round trip, also the cost estimate */
  MPI_Send(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD);
  MPI_Recv(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int reps = reps_for(o, MPI_Wtime() - t0, share);
  MPI_Send(&reps, 1, MPI_INT, b, 1, MPI_COMM_WORLD);
  for (int r = 0; r < reps; r++) {
    t0 = MPI_Wtime();
    MPI_Send(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    v[r] = (MPI_Wtime() - t0) / 2;
  }
  *noise = spread(v, reps);
  return v[0]; /* sorted by spread() */
}

/* b's side of one size: echo the warm-up, learn the repetitions, echo them. */
static void pingpong_echo(int a, int m, char *buf)
{
  int reps = 0;
  MPI_Recv(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD);
  MPI_Recv(&reps, 1, MPI_INT, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int r = 0; r < reps; r++) {
    MPI_Recv(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD);
  }
}

/* Ping-pong between world ranks a and b: t[i] = smallest one-way time at sizes[i], t[ns]
 * the spread; on a (only) on return. */
void calibrate_pingpong(int a, int b, const double *sizes, int ns, const struct options *o,
                        double share, char *buf, double *t)
{
  double *v = malloc(sizeof *v * (size_t)(o->reps + 1));
  if (!v)
    MPI_Abort(MPI_COMM_WORLD, 1);
  t[ns] = 0;
  for (int i = 0; i < ns; i++) {
    int m = (int)sizes[i];
    double noise = 0;
    if (world_rank == a)
      t[i] = pingpong_lead(b, m, o, share / ns, buf, v, &noise);
    else if (world_rank == b)
      pingpong_echo(a, m, buf);
    t[ns] = noise > t[ns] ? noise : t[ns];
  }
  free(v);
}

/* Sizes a step is bisected to: the step's interval cut 2^STEP_ROUNDS times. */
#define STEP_ROUNDS 7

/* a's side of the refinement: every step of the sweep (calibrate_curve_step) bisected,
 * each probe's size sent to b first (0: done); the probes appended to sizes and t. */
static int refine_lead(int b, double *sizes, double *t, int ns, int max, double tol,
                       const struct options *o, double share, char *buf, double *v)
{
  int n = ns;
  double noise;
  for (int i = 1; i + 1 < ns; i++) {
    if (!calibrate_curve_step(sizes, t, ns, i, tol))
      continue;
    double lo = sizes[i], hi = sizes[i + 1];
    for (int round = 0; round < STEP_ROUNDS && n < max; round++) {
      int m = (int)floor((lo + hi) / 2);
      if (m <= lo || m >= hi)
        break;
      MPI_Send(&m, 1, MPI_INT, b, 4, MPI_COMM_WORLD);
      double tm = pingpong_lead(b, m, o, share, buf, v, &noise);
      sizes[n] = m, t[n++] = tm;
      if (calibrate_curve_past(sizes, t, ns, i, m, tm))
        hi = m;
      else
        lo = m;
    }
  }
  int done = 0;
  MPI_Send(&done, 1, MPI_INT, b, 4, MPI_COMM_WORLD);
  return n;
}

int calibrate_refine(int a, int b, double *sizes, double *t, int ns, int max, double tol,
                     const struct options *o, double share, char *buf)
{
  int n = ns;
  if (world_rank == a) {
    double *v = malloc(sizeof *v * (size_t)(o->reps + 1));
    if (!v)
      MPI_Abort(MPI_COMM_WORLD, 1);
    n = refine_lead(b, sizes, t, ns, max, tol, o, share, buf, v);
    free(v);
    /* In size order again: insertion, the probes being few. */
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && sizes[j] < sizes[j - 1]; j--) {
        double ms = sizes[j], ts = t[j];
        sizes[j] = sizes[j - 1], t[j] = t[j - 1];
        sizes[j - 1] = ms, t[j - 1] = ts;
      }
  } else if (world_rank == b) {
    for (int m; MPI_Recv(&m, 1, MPI_INT, a, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE), m > 0;)
      pingpong_echo(a, m, buf);
  }
  return n;
}

/* One timed all-to-all on comm: the slowest member's time, on comm's rank 0. */
static double timed_alltoall(MPI_Comm comm, char *send, char *recv, int m)
{
  MPI_Barrier(comm);
  double t0 = MPI_Wtime();
  MPI_Alltoall(send, m, MPI_BYTE, recv, m, MPI_BYTE, comm);
  double dt = MPI_Wtime() - t0, slowest = dt;
  MPI_Reduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  return slowest;
}

/* All-to-all sweep on comm: t[i] (and the spread t[ns]) on comm's rank 0. */
void calibrate_alltoall_sweep(MPI_Comm comm, const double *sizes, int ns,
                              const struct options *o, double share, char *send, char *recv,
                              double *t)
{
  int me;
  MPI_Comm_rank(comm, &me);
  double *v = malloc(sizeof *v * (size_t)(o->reps + 1));
  if (!v)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < ns; i++) {
    int m = (int)sizes[i];
    int reps = reps_for(o, timed_alltoall(comm, send, recv, m), share / ns);
    MPI_Bcast(&reps, 1, MPI_INT, 0, comm);
    for (int r = 0; r < reps; r++)
      v[r] = timed_alltoall(comm, send, recv, m);
    if (me == 0) {
      t[i] = calibrate_median(v, reps);
      double noise = spread(v, reps);
      t[ns] = i == 0 || noise > t[ns] ? noise : t[ns];
    }
  }
  free(v);
}

/* One timed exchange between the two clusters of `pair` (its first nx ranks, then the
 * others): every member sends m bytes to every member of the other cluster and receives
 * m bytes from each, all posted at once. The slowest member's time, on pair's rank 0. */
static double timed_flows(MPI_Comm pair, int nx, char *send, char *recv, int m,
                          MPI_Request *req)
{
  int me, n;
  MPI_Comm_rank(pair, &me);
  MPI_Comm_size(pair, &n);
  int lo = me < nx ? nx : 0, hi = me < nx ? n : nx, q = 0;
  MPI_Barrier(pair);
  double t0 = MPI_Wtime();
  for (int p = lo; p < hi; p++)
    MPI_Irecv(recv + (size_t)(p - lo) * (size_t)m, m, MPI_BYTE, p, 3, pair, &req[q++]);
  for (int p = lo; p < hi; p++)
    MPI_Isend(send, m, MPI_BYTE, p, 3, pair, &req[q++]);
  /* One by one: MPI_Waitall with MPI_STATUSES_IGNORE trips GCC 11+'s -Wstringop-overflow
   * on MPICH's access attributes (as in shim/bcast/tree_exec.c). */
  for (int i = 0; i < q; i++)
    MPI_Wait(&req[i], MPI_STATUS_IGNORE);
  double dt = MPI_Wtime() - t0, slowest = dt;
  MPI_Reduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, pair);
  return slowest;
}

void calibrate_flows(MPI_Comm pair, int nx, const double *sizes, int ns,
                     const struct options *o, double share, char *send, char *recv, double *t)
{
  int me, n;
  MPI_Comm_rank(pair, &me);
  MPI_Comm_size(pair, &n);
  double *v = malloc(sizeof *v * (size_t)(o->reps + 1));
  MPI_Request *req = malloc(sizeof *req * 2 * (size_t)n);
  if (!v || !req)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < ns; i++) {
    int m = (int)sizes[i];
    int reps = reps_for(o, timed_flows(pair, nx, send, recv, m, req), share / ns);
    MPI_Bcast(&reps, 1, MPI_INT, 0, pair);
    for (int r = 0; r < reps; r++)
      v[r] = timed_flows(pair, nx, send, recv, m, req);
    if (me == 0) {
      t[i] = calibrate_median(v, reps);
      double noise = spread(v, reps);
      t[ns] = i == 0 || noise > t[ns] ? noise : t[ns];
    }
  }
  free(req);
  free(v);
}

/* The times a step measured on world rank `from`, to rank 0 (which fits them). */
void calibrate_to_root(int from, double *t, int ns)
{
  if (from != 0 && world_rank == from)
    MPI_Send(t, ns, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
  if (from != 0 && world_rank == 0)
    MPI_Recv(t, ns, MPI_DOUBLE, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The end of a step: processes with nothing to measure wait here while others measure.
 * A plain MPI_Barrier would spin and, on an oversubscribed machine, take the CPU from
 * the processes being timed; polling a non-blocking barrier every 0.2 ms does not. */
void calibrate_quiet_barrier(void)
{
  MPI_Request req;
  int done = 0;
  /* A named timespec: SimGrid's SMPI wraps nanosleep in a macro (simulated sleep), and a
   * compound literal's commas would split its arguments. */
  const struct timespec nap = {0, 200000};
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE))
    nanosleep(&nap, NULL);
}
