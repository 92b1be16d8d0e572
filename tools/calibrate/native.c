/* 5. The MPI library's own MPI_Alltoall and MPI_Bcast on MPI_COMM_WORLD, timed as black
 * boxes (issue 25): their formulas assume an algorithm (MPICH's pairwise switch) that the
 * library in use may not run, 4-7x off on the demo's grid; what was measured cannot be
 * wrong that way, on the layout it was measured on, which the file says (native.procs,
 * native.sizes) so that gridcoll uses it there only.
 *
 * Sizes: powers of 2 and their midpoints from 1 B to the sweep's largest (at most 1 MiB,
 * and a block small enough that a rank's buffers stay within NATIVE_BUFFER), each step
 * between two of them bisected. Each size: one warm-up call, then NATIVE_REPS (fewer
 * under -t: each sweep is a step of the budget, its sizes share it, as the other steps'
 * do), every rank entering together (timed()); the median is kept (a noisy machine's
 * outliers go, contention stays, as in the all-to-all sweep). A broadcast is
 * timed from the first rank of each cluster: the wide area is crossed from the root's
 * cluster, so each root cluster has its curve. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "../start_together.h"
#include "calibrate.h"
#include "physical.h"

#define NATIVE_REPS 5                      /* after the warm-up: a median of five */
#define NATIVE_MAX_BLOCK ((double)(1 << 20)) /* 1 MiB */
#define NATIVE_BUFFER ((double)(64 << 20))  /* bytes of each of a rank's two buffers */
#define NATIVE_STEP_TOL 0.05   /* a step: 5% off the lines on either side (curve_text.h) */
#define NATIVE_STEP_ROUNDS 7   /* a step's interval cut 2^7 times */

/* 1 when every rank reads one clock (MPI_WTIME_IS_GLOBAL on all: SMPI's simulated time). */
static int global_clock(void)
{
  int global = 0, found = 0, *flag = NULL;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag, &found);
  global = found && flag && *flag;
  MPI_Allreduce(MPI_IN_PLACE, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return global;
}


/* One call on every rank (all agree): with one clock, from the last entry (under SMPI
 * every rank's, start_together) to the last exit (what the library's log calls the
 * call's own time: ranks leave a barrier a wide-area latency apart, and the first out
 * would count the others' lateness); otherwise the slowest rank's time. */
static double timed(int root, int m, char *send, char *recv, int global)
{
  double t[2];
  t[0] = start_together();
  if (root < 0)
    MPI_Alltoall(send, m, MPI_BYTE, recv, m, MPI_BYTE, MPI_COMM_WORLD);
  else
    MPI_Bcast(send, m, MPI_BYTE, root, MPI_COMM_WORLD);
  t[1] = MPI_Wtime();
  if (!global)
    t[1] -= t[0], t[0] = 0;
  MPI_Allreduce(MPI_IN_PLACE, t, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return t[1] - t[0];
}

/* What one sweep does: its calls, their bounds (timed() makes its numbers alike on
 * every rank, so every rank decides the same repetitions). */
struct native_sweep {
  const struct options *o;
  double share;      /* a size's share of the budget, s */
  int global;        /* one clock on every rank */
  int least, most;   /* repetitions a size took */
  char *send, *recv;
};

/* The median time of one call (root < 0: the all-to-all) of m bytes, after a warm-up
 * (connections, protocol set-up) that also tells what the budget allows: the same on
 * every rank. */
static double median_call(int root, int m, struct native_sweep *w)
{
  double v[NATIVE_REPS] = {0};
  int reps = calibrate_reps(w->o, NATIVE_REPS, timed(root, m, w->send, w->recv, w->global),
                            w->share);
  for (int k = 0; k < reps; k++)
    v[k] = timed(root, m, w->send, w->recv, w->global);
  w->least = reps < w->least ? reps : w->least;
  w->most = reps > w->most ? reps : w->most;
  return calibrate_median(v, reps);
}

/* The sweep of one call into *out. Where the library changes protocol between two sizes
 * (SMPI: at 64 KiB, and its factors at 1426 B), a straight segment across the step is far
 * off inside it: each step (calibrate_curve_step) is bisected as the ping-pong curve's is.
 * Every rank holds the same times (timed() reduces them), so every rank bisects alike
 * with nothing to send. */
static void sweep(int root, const double *sizes, int ns, struct native_sweep *w,
                  struct gc_curve *out)
{
  int n = ns;
  double m[GC_CURVE_SAMPLES_MAX], t[GC_CURVE_SAMPLES_MAX];
  for (int i = 0; i < ns; i++)
    m[i] = sizes[i], t[i] = median_call(root, (int)sizes[i], w);
  for (int i = 1; i + 1 < ns; i++) {
    if (!calibrate_curve_step(m, t, ns, i, NATIVE_STEP_TOL))
      continue;
    double lo = m[i], hi = m[i + 1];
    for (int round = 0; round < NATIVE_STEP_ROUNDS && n < GC_CURVE_SAMPLES_MAX; round++) {
      double x = floor((lo + hi) / 2);
      if (x <= lo || x >= hi)
        break;
      double tx = median_call(root, (int)x, w);
      m[n] = x, t[n++] = tx;
      if (calibrate_curve_past(m, t, ns, i, x, tx))
        hi = x;
      else
        lo = x;
    }
  }
  for (int i = 1; i < n; i++) /* in size order again: insertion, the probes being few */
    for (int j = i; j > 0 && m[j] < m[j - 1]; j--) {
      double ms = m[j], ts = t[j];
      m[j] = m[j - 1], t[j] = t[j - 1];
      m[j - 1] = ms, t[j - 1] = ts;
    }
  for (int i = 0; i < n; i++) /* the loader's shortest time */
    t[i] = fmax(t[i], GC_PHYSICAL_TIME_MIN);
  /* Nothing raised: a fall is the library switching algorithm, what the table is for. */
  gc_curve_from_samples_falls(m, t, n, 0.01, out);
}

void calibrate_native(struct run *r)
{
  if (!r->o->native)
    return;
  int procs = 0;
  for (int c = 0; c < r->k; c++)
    procs += r->cl[c].n;
  if (procs != world_size) { /* the table would name a layout that is not the world's */
    say("native: %d of %d processes in the clusters: the MPI library's own collectives are "
        "not measured", procs, world_size);
    return;
  }
  double hi = r->sizes[r->ns - 1], sizes[GC_CURVE_MAX];
  if (hi > NATIVE_MAX_BLOCK)
    hi = NATIVE_MAX_BLOCK;
  while (hi > 1 && hi * world_size > NATIVE_BUFFER)
    hi /= 2;
  int ns = 1;
  sizes[0] = 1;
  for (double m = 1; m * 2 <= hi && ns < GC_CURVE_MAX - 1; m *= 2) {
    if (m >= 2) /* 1.5 B is no size */
      sizes[ns++] = 1.5 * m;
    sizes[ns++] = 2 * m;
  }
  size_t bytes = (size_t)sizes[ns - 1] * (size_t)world_size;
  char *send = calloc(bytes, 1), *recv = calloc(bytes, 1);
  if (!send || !recv || !(r->native_bcast = calloc((size_t)r->k, sizeof *r->native_bcast))) {
    fprintf(stderr, PROG ": rank %d: out of memory for %zu-byte buffers\n", world_rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  say("native: the MPI library's MPI_Alltoall and MPI_Bcast (from each cluster) on all %d "
      "processes, %d sizes from 1 B to %.0f B", world_size, ns, sizes[ns - 1]);
  /* Each sweep a step of the budget (gridcoll-calibrate.c: plan), its sizes sharing it;
   * the bisections of a step come on top, as in the ping-pong sweeps. */
  struct native_sweep w = {.o = r->o, .share = r->share / ns, .global = global_clock(),
                           .least = NATIVE_REPS, .most = 0, .send = send, .recv = recv};
  sweep(-1, sizes, ns, &w, &r->native_a2a);
  for (int c = 0; c < r->k; c++)
    if (r->cl[c].n > 0)
      sweep(r->cl[c].ranks[0], sizes, ns, &w, &r->native_bcast[c]);
  say("native: %d to %d timed calls a size, after one warm-up%s", w.least, w.most,
      r->o->budget > 0 ? " (time budget given)" : "");
  r->native_measured = ns;
  free(send);
  free(recv);
}
