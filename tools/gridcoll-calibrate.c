/* gridcoll-calibrate: measure the machines and write the configuration gridcoll reads.
 *
 *   mpiexec -n 64 gridcoll-calibrate -c grid.cfg -o measured.cfg -t 120
 *
 * An ordinary MPI program (it calls the MPI library directly and must not run under
 * gridcoll's LD_PRELOAD). Steps, one at a time so that they never disturb each other:
 *   1. inside every cluster of two processes or more: ping-pong between its first two
 *      members over the sizes, one-way time = half the round trip, Hockney alpha and beta
 *      by gc_fit_hockney;
 *   2. between every pair of clusters: ping-pong between their leaders (one flow),
 *      latency = alpha and bandwidth = 1/beta of the same fit; when that line fits poorly
 *      and the two largest sizes show a lower bandwidth (a rate-shaped link sends small
 *      messages at line rate), that bandwidth (gc_fit_tail_bandwidth) and the latency of
 *      the smallest;
 *   3. between every pair of clusters: every member of one sends to every member of the
 *      other, both ways at once (the traffic an all-to-all puts on the backbone): the
 *      aggregate bandwidth (network.wan.aggregate);
 *   4. inside every cluster of two processes or more: MPI_Alltoall on the cluster's own
 *      communicator over at least four sizes, the contention signature gamma, delta, M
 *      fitted where the network saturates (gc_fit_signature_saturated, 000 Eq. 5) with
 *      that cluster's alpha and beta;
 *   5. on all processes: the MPI library's own MPI_Alltoall, and its MPI_Bcast from each
 *      cluster's first rank, timed as black boxes (native.c; --no-native: not), written
 *      as the native table that gridcoll predicts them from on this layout.
 * Every fit is checked against physical sense (gc_fit_check_*): a refused one is not
 * written (what the cluster was described with is, with the reason), a suspect one is
 * marked; stderr ends with a table of what was measured, fitted, and how well.
 * -p FILE also writes a SimGrid platform of the measured grid and its host file;
 * --from-log refits a configuration from the per-call records of a run (fromlog.c).
 * A ping-pong keeps the smallest of its repetitions (descheduling, frequent on a shared
 * or oversubscribed machine, only ever adds time to an uncontended exchange); an
 * all-to-all keeps the median (contention is what is measured there). Rank 0 decides whatever all must
 * agree on (repetitions under a time budget) and tells the others; it alone prints
 * (stderr, prefixed "gridcoll-calibrate:") and writes the file, then reloads it with
 * gridcoll's own loader, so a file it writes is a file gridcoll accepts.
 *
 * This file runs the steps; tools/calibrate/ holds them (calibrate.h lists which file
 * does what: who speaks, options, clusters, measurements, the steps with their fits, the
 * file). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* Sizes and clusters, then the output opened before measuring, so that an unwritable
 * path costs nothing. 0, or 1 after rank 0 said why (on every rank). */
static int prepare(struct run *r, FILE **f)
{
  r->ns = calibrate_make_sizes(r->o, r->sizes);
  r->ncs = calibrate_make_curve_sizes(r->o, r->csizes);
  r->k = calibrate_build_clusters(r->o, &r->cfg, &r->cl);
  if (r->k < 0)
    return 1;
  int ok = 1;
  if (world_rank == 0 && !(*f = fopen(r->o->out, "w"))) {
    say("cannot write %s: %s", r->o->out, strerror(errno));
    ok = 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok ? 0 : 1;
}

/* The steps to come, each one's share of the budget, and buffers for the largest
 * all-to-all; a process short of memory ends the job. */
static void plan(struct run *r)
{
  int inside = 0, largest = 1, k = r->k;
  for (int c = 0; c < k; c++) {
    inside += r->cl[c].n >= 2;
    largest = r->cl[c].n > largest ? r->cl[c].n : largest;
    if (r->cl[c].n < 2)
      say("warning: cluster %s has one process: nothing to measure inside it, its lan "
          "keeps the %s values", r->cl[c].name, r->o->config ? "configured" : "default");
  }
  r->p = (struct progress){0, 2 * inside + k * (k - 1)};
  /* The curve's sweeps (one per ping-pong step) take a share each too, and so do the
   * native step's (native.c: the all-to-all and a broadcast from each cluster). */
  int sweeps = r->p.nsteps + (r->ncs ? inside + k * (k - 1) / 2 : 0) +
               (r->o->native ? 1 + k : 0);
  r->share = sweeps ? r->o->budget / sweeps : 0;
  say("%d processes in %d cluster(s); %d sizes from %.0f B to %.0f B; %d steps%s", world_size,
      k, r->ns, r->sizes[0], r->sizes[r->ns - 1], r->p.nsteps,
      r->o->budget > 0 ? ", time budget given" : "");

  size_t bytes = (size_t)r->sizes[r->ns - 1] * (size_t)largest;
  if (r->ncs && (size_t)r->csizes[r->ncs - 1] > bytes)
    bytes = (size_t)r->csizes[r->ncs - 1];
  r->send = calloc(bytes, 1);
  r->recv = calloc(bytes, 1);
  r->t = calloc((size_t)(r->ns > r->ncs ? r->ns : r->ncs) + 1, sizeof *r->t);
  r->wan = calloc((size_t)k * (size_t)k, sizeof *r->wan);
  if (!r->send || !r->recv || !r->t || !r->wan) {
    fprintf(stderr, PROG ": rank %d: out of memory for %zu-byte buffers\n", world_rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* 1. Hockney inside each cluster; 2. one flow between every pair of leaders; 3. many
 * flows between every pair of clusters; 4. the contention signature of each cluster, on
 * its own communicator. */
static void measure(struct run *r)
{
  for (int c = 0; c < r->k; c++)
    if (r->cl[c].n >= 2)
      calibrate_lan(r, c);
  calibrate_check_alike(r);
  for (int a = 0; a < r->k; a++)
    for (int b = a + 1; b < r->k; b++) {
      calibrate_wan(r, a, b);
      calibrate_backbone(r, a, b);
    }
  int mine = 0;
  for (int c = 0; c < r->k; c++)
    for (int i = 0; i < r->cl[c].n; i++)
      if (r->cl[c].ranks[i] == world_rank)
        mine = c;
  MPI_Comm cc;
  MPI_Comm_split(MPI_COMM_WORLD, mine, world_rank, &cc);
  for (int c = 0; c < r->k; c++)
    if (r->cl[c].n >= 2)
      calibrate_signature(r, cc, mine, c);
  MPI_Comm_free(&cc);
  calibrate_native(r);
}

/* Rank 0: write the file, then reload it with gridcoll's own loader. 0, or 1. */
static int finish(const struct run *r, FILE *f)
{
  const struct options *o = r->o;
  double elapsed = MPI_Wtime() - t_start;
  if (o->budget > 0 && elapsed > 1.5 * o->budget)
    say("warning: took %.1f s for a budget of %.3g s: %d repetitions per size is the "
        "minimum", elapsed, o->budget, MIN_REPS);
  int werr = calibrate_write_config(f, r, elapsed);
  if (fclose(f) != 0 || werr) {
    say("cannot write %s: %s", o->out, strerror(errno));
    remove(o->out);
    return 1;
  }
  /* Whatever was written must be what gridcoll accepts. */
  int rc = 0;
  struct gc_config check;
  char err[GC_ERR_MAX];
  gc_config_defaults(&check);
  if (gc_config_load(&check, o->out, NULL, err, sizeof err) != 0) {
    say("internal error: gridcoll's loader rejects the file written: %s", err);
    rc = 1;
  } else {
    say("wrote %s (%d clusters; accepted by gridcoll's loader) in %.1f s", o->out,
        check.nclusters, elapsed);
  }
  gc_config_free(&check);
  if (rc == 0 && o->platform)
    rc = calibrate_write_platform(r);
  calibrate_print_table(r);
  return rc;
}

static int calibrate(const struct options *o)
{
  struct run r = {.o = o};
  FILE *f = NULL;
  if (prepare(&r, &f) != 0)
    return 1;
  plan(&r);
  measure(&r);
  int rc = world_rank == 0 ? finish(&r, f) : 0;
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int c = 0; c < r.k; c++)
    free(r.cl[c].ranks);
  free(r.cl);
  free(r.send);
  free(r.recv);
  free(r.t);
  free(r.wan);
  free(r.native_bcast);
  gc_config_free(&r.cfg);
  return rc;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  t_start = MPI_Wtime();
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  /* Under gridcoll the measurements would time gridcoll, not the network. */
  if (world_rank == 0 && getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "libgridcoll"))
    say("warning: running under LD_PRELOAD=%s: calibrate measures the MPI library, run it "
        "without gridcoll", getenv("LD_PRELOAD"));
  struct options o;
  int rc = calibrate_parse_options(argc, argv, &o);
  if (rc == 1) /* --help */
    rc = 0;
  else if (rc == 0 && o.from_log) {
    rc = world_rank == 0 ? calibrate_from_log(&o) : 0;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (rc == 0 && world_size < 2) {
    say("needs at least 2 processes (mpiexec -n 2 or more): a ping-pong has two ends; "
        "nothing written");
    rc = 1;
  } else if (rc == 0) {
    rc = calibrate(&o);
  }
  MPI_Finalize();
  return rc;
}
