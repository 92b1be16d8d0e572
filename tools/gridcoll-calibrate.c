/* gridcoll-calibrate: measure the machines and write the configuration gridcoll reads.
 *
 *   mpiexec -n 64 gridcoll-calibrate -c grid.cfg -o measured.cfg -t 120
 *
 * An ordinary MPI program (it calls the MPI library directly and must not run under
 * gridcoll's LD_PRELOAD). Steps, one at a time so that they never disturb each other:
 *   1. inside every cluster of two processes or more: ping-pong between its first two
 *      members over the sizes, one-way time = half the round trip, Hockney alpha and beta
 *      by gc_fit_hockney;
 *   2. between every pair of clusters: ping-pong between their leaders, latency = alpha
 *      and bandwidth = 1/beta of the same fit; when that line fits poorly and the two
 *      largest sizes show a lower bandwidth (a rate-shaped link sends small messages at
 *      line rate), that bandwidth (gc_fit_tail_bandwidth) and the latency of the smallest;
 *   3. inside every cluster of two processes or more: MPI_Alltoall on the cluster's own
 *      communicator over at least four sizes, the contention signature gamma, delta, M
 *      fitted by gc_fit_signature (000 Eq. 5) with that cluster's alpha and beta.
 * A ping-pong keeps the smallest of its repetitions (descheduling, frequent on a shared
 * or oversubscribed machine, only ever adds time to an uncontended exchange); an
 * all-to-all keeps the median (contention is what is measured there). Rank 0 decides whatever all must
 * agree on (repetitions under a time budget) and tells the others; it alone prints
 * (stderr, prefixed "gridcoll-calibrate:") and writes the file, then reloads it with
 * gridcoll's own loader, so a file it writes is a file gridcoll accepts. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "fit.h"
#include "ranges.h"
#include "topology.h"
#include "units.h"

#define PROG "gridcoll-calibrate"
#define MAX_SIZES 64
#define MIN_REPS 3
#define POOR_R2 0.9
#define POOR_REL 0.5

struct options {
  const char *config, *clusters, *out;
  double lo, hi;
  int reps;
  double budget; /* s; 0 = none */
};

/* A cluster as measured: who is in it, how it was described, what was found. */
struct cluster {
  char name[GC_NAME_MAX];
  int n, *ranks;          /* world ranks, ascending */
  const struct gc_cluster_spec *spec; /* from -c / -C, NULL when detected by host */
  char host[MPI_MAX_PROCESSOR_NAME];  /* detected: its host */
  struct gc_lan lan;
  int measured;           /* lan measured (n >= 2) */
  struct gc_fit_quality q_p2p, q_a2a;
  int a2a_ok;
  double p2p_t[MAX_SIZES], a2a_t[MAX_SIZES]; /* the samples, written beside the fits */
};

static int world_rank, world_size;
static double t_start;

static void say(const char *fmt, ...)
{
  if (world_rank != 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs(PROG ": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void usage(FILE *f)
{
  fprintf(f,
          "usage: mpiexec -n N " PROG " [-c FILE | -C RANGES] [-o OUT] [-s LO:HI] [-r REPS]\n"
          "                                [-t SECONDS]\n"
          "Measure alpha, beta inside every cluster, latency and bandwidth between clusters,\n"
          "the all-to-all contention signature of every cluster; write a gridcoll configuration.\n"
          "  -c, --config FILE   clusters (hosts or ranks) from this configuration\n"
          "  -C, --clusters R    one cluster per comma-separated rank range: \"0-1,2-3\"\n"
          "                      (neither: one cluster per host)\n"
          "  -o, --output OUT    file to write (default gridcoll.cfg)\n"
          "  -s, --sizes LO:HI   message sizes, powers of 4 from LO (default 64B:1MiB)\n"
          "  -r, --reps N        repetitions per size (default 20)\n"
          "  -t, --time SECONDS  time budget: fewer repetitions (at least 3) to fit it\n"
          "                      (default 0: no budget)\n"
          "  -h, --help          this text\n");
}

/* Every rank parses the same arguments, so all agree; rank 0 alone speaks. */
static int bad_usage(const char *fmt, const char *arg)
{
  if (world_rank == 0) {
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
  }
  return 2;
}

static int parse_options(int argc, char **argv, struct options *o)
{
  static const struct option longopts[] = {
      {"config", required_argument, NULL, 'c'}, {"clusters", required_argument, NULL, 'C'},
      {"output", required_argument, NULL, 'o'}, {"sizes", required_argument, NULL, 's'},
      {"reps", required_argument, NULL, 'r'},   {"time", required_argument, NULL, 't'},
      {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
  *o = (struct options){.out = "gridcoll.cfg", .lo = 64, .hi = 1 << 20, .reps = 20};
  opterr = 0;
  for (int ch; (ch = getopt_long(argc, argv, ":c:C:o:s:r:t:h", longopts, NULL)) != -1;) {
    char *end, err[256], buf[256];
    switch (ch) {
    case 'c': o->config = optarg; break;
    case 'C': o->clusters = optarg; break;
    case 'o': o->out = optarg; break;
    case 's': {
      char *colon = strchr(optarg, ':');
      if (!colon || strlen(optarg) >= sizeof buf)
        return bad_usage("-s: expected LO:HI such as \"64B:1MiB\", got \"%s\"", optarg);
      strcpy(buf, optarg);
      buf[colon - optarg] = '\0';
      if (gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf, &o->lo, err, sizeof err) != 0 ||
          gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf + (colon - optarg) + 1, &o->hi,
                         err, sizeof err) != 0)
        return bad_usage("-s: %s", err);
      if (o->lo < 1 || o->hi > (double)(1 << 30) || o->hi < 4 * o->lo)
        return bad_usage("-s: need 1 B <= LO, 4*LO <= HI <= 1 GiB (four sizes at least), "
                         "got \"%s\"", optarg);
      break;
    }
    case 'r':
      errno = 0;
      o->reps = (int)strtol(optarg, &end, 10);
      if (errno || end == optarg || *end || o->reps < MIN_REPS || o->reps > 100000)
        return bad_usage("-r: expected repetitions between 3 and 100000, got \"%s\"", optarg);
      break;
    case 't':
      if (gc_units_parse(GC_UNIT_TIME, GC_BOUND_NONNEG, optarg, &o->budget, err, sizeof err) != 0)
        return bad_usage("-t: %s", err);
      break;
    case 'h': if (world_rank == 0) usage(stdout); return 1;
    case ':': return bad_usage("option %s needs a value", argv[optind - 1]);
    default: return bad_usage("unknown option %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    return bad_usage("unexpected argument \"%s\"", argv[optind]);
  if (o->config && o->clusters)
    return bad_usage("%sgive at most one of -c and -C", "");
  return 0;
}

/* Powers of 4 from lo, then hi: at least four sizes (parse_options made sure). */
static int make_sizes(const struct options *o, double *sizes)
{
  int n = 0;
  for (double m = o->lo; m < o->hi && n < MAX_SIZES - 1; m *= 4)
    sizes[n++] = m;
  if (n < 4 || sizes[n - 1] < o->hi)
    sizes[n++] = o->hi;
  return n;
}

static const char *clusters_value;
static const char *get_clusters(const char *name)
{
  return strcmp(name, "GRIDCOLL_CLUSTERS") == 0 ? clusters_value : NULL;
}

/* Cluster of every world rank, identical on every rank (every input is gathered).
 * Returns the number of clusters, or -1 after rank 0 said why. */
static int build_clusters(const struct options *o, struct gc_config *cfg, struct cluster **out)
{
  char err[GC_ERR_MAX] = "";
  int bad = 0;
  gc_config_defaults(cfg);
  if (o->config && gc_config_load(cfg, o->config, NULL, err, sizeof err) != 0)
    bad = 1;
  clusters_value = o->clusters;
  if (!bad && o->clusters && gc_config_apply_env(cfg, get_clusters, NULL, err, sizeof err) != 0)
    bad = 1;
  if (!bad && o->clusters && cfg->topology != GC_TOPOLOGY_CLUSTERS)
    snprintf(err, sizeof err, "-C: expected rank ranges such as \"0-1,2-3\", got \"%s\"",
             o->clusters), bad = 1;
  if (bad) {
    say("%s", err);
    return -1;
  }

  char *hosts = calloc((size_t)world_size, MPI_MAX_PROCESSOR_NAME);
  int *table = malloc(sizeof *table * (size_t)world_size);
  if (!hosts || !table) {
    say("out of memory");
    return -1;
  }
  char me[MPI_MAX_PROCESSOR_NAME] = "";
  int len;
  MPI_Get_processor_name(me, &len);
  MPI_Allgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  int k = 0;
  if (cfg->topology == GC_TOPOLOGY_NODE || cfg->nclusters == 0) {
    const char **names = malloc(sizeof *names * (size_t)world_size);
    if (!names) {
      say("out of memory");
      return -1;
    }
    for (int r = 0; r < world_size; r++)
      names[r] = hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME;
    gc_topology_by_host(names, world_size, table);
    free(names);
  } else {
    int unmatched = 0;
    for (int r = 0; r < world_size && !bad; r++) {
      table[r] = gc_topology_cluster_of(cfg, r, hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME,
                                        err, sizeof err);
      if (table[r] == -2)
        bad = 1;
      else if (table[r] == GC_CLUSTER_NONE)
        table[r] = cfg->nclusters + unmatched++;
    }
    if (bad) {
      say("%s", err);
      return -1;
    }
    if (unmatched)
      say("warning: %d rank(s) matched by no cluster of %s: each is a cluster of its own "
          "(named rank<N> in the output)", unmatched, o->config ? o->config : "-C");
  }
  for (int r = 0; r < world_size; r++)
    k = table[r] + 1 > k ? table[r] + 1 : k;
  struct cluster *cl = calloc((size_t)k, sizeof *cl);
  if (!cl) {
    say("out of memory");
    return -1;
  }
  for (int c = 0; c < k; c++) {
    cl[c].ranks = malloc(sizeof(int) * (size_t)world_size);
    if (!cl[c].ranks) {
      say("out of memory");
      return -1;
    }
    for (int r = 0; r < world_size; r++)
      if (table[r] == c)
        cl[c].ranks[cl[c].n++] = r;
    cl[c].lan = *gc_config_lan(cfg, c);
    if (cfg->topology == GC_TOPOLOGY_CLUSTERS && c < cfg->nclusters) {
      cl[c].spec = &cfg->clusters[c];
      snprintf(cl[c].name, sizeof cl[c].name, "%s", cfg->clusters[c].name);
    } else if (cfg->topology == GC_TOPOLOGY_CLUSTERS) {
      snprintf(cl[c].name, sizeof cl[c].name, "rank%d", cl[c].ranks[0]);
    } else {
      const char *h = hosts + (size_t)cl[c].ranks[0] * MPI_MAX_PROCESSOR_NAME;
      snprintf(cl[c].host, sizeof cl[c].host, "%s", h);
      snprintf(cl[c].name, sizeof cl[c].name, "%.*s", GC_NAME_MAX - 1, h);
    }
  }
  free(hosts);
  free(table);
  *out = cl;
  return k;
}

/* ---- measurements ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Repetitions for one size, given one repetition's time and the size's share of the
 * budget: decided by one rank, sent to the others. */
static int reps_for(const struct options *o, double one, double share)
{
  if (o->budget <= 0 || one <= 0)
    return o->reps;
  double fit = floor(share / one);
  return fit >= o->reps ? o->reps : fit < MIN_REPS ? MIN_REPS : (int)fit;
}

/* Ping-pong between world ranks a and b: t[i] = smallest one-way time at sizes[i]; on a
 * (only) on return. */
static void pingpong(int a, int b, const double *sizes, int ns, const struct options *o,
                     double share, char *buf, double *t)
{
  double *v = malloc(sizeof *v * (size_t)(o->reps + 1));
  if (!v)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < ns; i++) {
    int m = (int)sizes[i], reps = 0;
    if (world_rank == a) {
      double t0 = MPI_Wtime(); /* one warm-up round trip, also the cost estimate */
      MPI_Send(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      reps = reps_for(o, MPI_Wtime() - t0, share / ns);
      MPI_Send(&reps, 1, MPI_INT, b, 1, MPI_COMM_WORLD);
      for (int r = 0; r < reps; r++) {
        t0 = MPI_Wtime();
        MPI_Send(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, m, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v[r] = (MPI_Wtime() - t0) / 2;
      }
      t[i] = v[0];
      for (int r = 1; r < reps; r++)
        t[i] = v[r] < t[i] ? v[r] : t[i];
    } else if (world_rank == b) {
      MPI_Recv(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD);
      MPI_Recv(&reps, 1, MPI_INT, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int r = 0; r < reps; r++) {
        MPI_Recv(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, m, MPI_BYTE, a, 0, MPI_COMM_WORLD);
      }
    }
  }
  free(v);
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

/* All-to-all sweep on comm: t[i] on comm's rank 0. */
static void alltoall_sweep(MPI_Comm comm, const double *sizes, int ns, const struct options *o,
                           double share, char *send, char *recv, double *t)
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
    if (me == 0)
      t[i] = median(v, reps);
  }
  free(v);
}

/* The end of a step: processes with nothing to measure wait here while others measure.
 * A plain MPI_Barrier would spin and, on an oversubscribed machine, take the CPU from
 * the processes being timed; polling a non-blocking barrier every 0.2 ms does not. */
static void quiet_barrier(void)
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

/* ---- the steps, with progress ------------------------------------------------------ */

struct progress {
  int step, nsteps;
};

static void step_begin(struct progress *p, const char *fmt, ...)
{
  p->step++;
  if (world_rank != 0)
    return;
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  double elapsed = MPI_Wtime() - t_start;
  if (p->step == 1)
    say("step %d of %d: %s", p->step, p->nsteps, what);
  else
    say("step %d of %d: %s; about %.0f s left", p->step, p->nsteps, what,
        elapsed / (p->step - 1) * (p->nsteps - p->step + 1));
}

/* Poor: a large residual somewhere, or a low R^2 with residuals worth the name (R^2
 * says little when the times hardly change with the size, e.g. an all-to-all under M). */
static int poor(const struct gc_fit_quality *q)
{
  return q->max_rel > POOR_REL || (q->r2 < POOR_R2 && q->max_rel > 0.05);
}

static void warn_fit(const char *what, const struct gc_fit_quality *q)
{
  if (poor(q))
    say("warning: poor fit for %s (R^2 = %.3f, max relative residual %.0f%%): noisy "
        "timings (a busy or oversubscribed machine?); more repetitions may help",
        what, q->r2, 100 * q->max_rel);
}

/* Positive floors: the loader refuses a zero alpha, beta or gamma, and a fit clamped at
 * 0 means "too small to see" rather than "free". */
static double floor_at(double v, double lo, int *floored)
{
  if (v < lo) {
    *floored = 1;
    return lo;
  }
  return v;
}

struct wan_fit {
  double latency, bandwidth;
  struct gc_fit_quality q;
  int floored;
  int tail;                 /* bandwidth from the largest sizes (gc_fit_tail_bandwidth) */
  double hockney_bandwidth; /* then: what the poor line said */
  double t[MAX_SIZES];
};


/* ---- the file ------------------------------------------------------------------------ */

static void write_quality(FILE *f, const char *indent, const char *what,
                          const struct gc_fit_quality *q)
{
  fprintf(f, "%s# %s fit: R^2 = %.4f, max relative residual %.1f%%%s\n", indent, what, q->r2,
          100 * q->max_rel, poor(q) ? "  (POOR)" : "");
}

static void write_samples(FILE *f, const char *indent, const char *what, const double *sizes,
                          const double *t, int ns)
{
  fprintf(f, "%s#   %s (bytes: us):", indent, what);
  for (int i = 0; i < ns; i++)
    fprintf(f, " %.0f: %.3g%s", sizes[i], t[i] * 1e6, i + 1 < ns ? "," : "\n");
}

static void write_lan(FILE *f, const char *indent, const struct gc_lan *l)
{
  fprintf(f, "%slan = { alpha = \"%.6g us\"; beta = \"%.6g ns/B\"; gamma = %.6g;\n", indent,
          l->alpha * 1e6, l->beta * 1e9, l->gamma);
  fprintf(f, "%s        delta = \"%.6g ms\"; threshold = \"%.0f B\"; };\n", indent,
          l->delta * 1e3, l->threshold);
}

static int write_config(FILE *f, const struct options *o, const struct gc_config *cfg,
                        const struct cluster *cl, int k, const struct wan_fit *wan,
                        const double *sizes, int ns, double elapsed)
{
  time_t now = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", localtime(&now));
  fprintf(f, "# gridcoll configuration measured by " PROG " on %s:\n", date);
  fprintf(f, "# %d processes, %d cluster(s) (%s), sizes %.0f B to %.0f B (%d), up to %d "
             "repetitions each, %.1f s.\n",
          world_size, k, o->config ? o->config : o->clusters ? "-C" : "one per host", sizes[0],
          sizes[ns - 1], ns, o->reps, elapsed);
  fprintf(f, "# alpha, beta: ping-pong between a cluster's first two processes (one-way =\n"
             "# half the round trip), Hockney fit; gamma, delta, threshold: MPI_Alltoall on the\n"
             "# cluster's processes, contention signature fit (000 Eq. 5); wan: ping-pong between\n"
             "# cluster leaders. R^2 and the largest relative residual follow each fit.\n\n");
  fprintf(f, "clusters = (\n");
  for (int c = 0; c < k; c++) {
    const struct cluster *x = &cl[c];
    fprintf(f, "  # %s: %d process(es), ranks", x->name, x->n);
    for (int i = 0; i < x->n && i < 16; i++)
      fprintf(f, "%s%d", i ? "," : " ", x->ranks[i]);
    fprintf(f, "%s\n", x->n > 16 ? ",..." : "");
    if (!x->measured) {
      fprintf(f, "  # one process: no ping-pong or all-to-all inside it; the %s lan is kept\n",
              o->config ? "configured" : "default");
    } else {
      write_quality(f, "  ", "alpha, beta (ping-pong)", &x->q_p2p);
      write_samples(f, "  ", "one-way", sizes, x->p2p_t, ns);
      if (x->a2a_ok) {
        write_quality(f, "  ", "gamma, delta, threshold (all-to-all)", &x->q_a2a);
        write_samples(f, "  ", "all-to-all", sizes, x->a2a_t, ns);
      } else
        fprintf(f, "  # gamma, delta, threshold: the all-to-all samples determined nothing; "
                   "defaults kept\n");
    }
    fprintf(f, "  { name = \"%s\";\n", x->name);
    if (x->spec && x->spec->nhosts > 0) {
      fprintf(f, "    hosts = [");
      for (int h = 0; h < x->spec->nhosts; h++)
        fprintf(f, "%s\"%s\"", h ? ", " : " ", x->spec->hosts[h]);
      fprintf(f, " ];\n");
    }
    if (x->spec && x->spec->nranks > 0) {
      char buf[4096];
      fprintf(f, "    ranks = \"%s\";\n", gc_ranges_format(x->spec->ranks, x->spec->nranks, buf,
                                                          sizeof buf));
    } else if (!x->spec && x->host[0]) {
      fprintf(f, "    hosts = [ \"%s\" ];\n", x->host);
    } else if (!x->spec) {
      fprintf(f, "    ranks = \"%d\";\n", x->ranks[0]);
    }
    write_lan(f, "    ", &x->lan);
    fprintf(f, "  }%s\n", c + 1 < k ? "," : "");
  }
  fprintf(f, ");\n\nnetwork = {\n");
  fprintf(f, "  # for processes that no cluster above matches: %s\n",
          o->config ? "network.lan of the input file" : "gridcoll's defaults");
  write_lan(f, "  ", &cfg->lan);
  if (k >= 2) {
    fprintf(f, "  # one-way latency and bandwidth from row cluster to column cluster (order above)\n");
    for (int a = 0; a < k; a++)
      for (int b = a + 1; b < k; b++) {
        char what[2 * GC_NAME_MAX + 16];
        snprintf(what, sizeof what, "%s <-> %s", cl[a].name, cl[b].name);
        write_quality(f, "  ", what, &wan[a * k + b].q);
        write_samples(f, "  ", "one-way", sizes, wan[a * k + b].t, ns);
        if (wan[a * k + b].tail)
          fprintf(f, "  #   poor line (bandwidth %.6g MB/s): written instead, the bandwidth of the two\n"
                     "  #   largest sizes and the latency of the smallest\n",
                  wan[a * k + b].hockney_bandwidth / 1e6);
        if (wan[a * k + b].floored)
          fprintf(f, "  #   (a fitted value was 0 and is written as the smallest the loader accepts)\n");
      }
    for (int pass = 0; pass < 2; pass++) {
      fprintf(f, pass == 0 ? "  wan = {\n    latency = (" : "    bandwidth = (");
      for (int a = 0; a < k; a++) {
        fprintf(f, "%s(", a ? ",\n                 " : " ");
        for (int b = 0; b < k; b++) {
          const struct wan_fit *w = &wan[(a < b ? a : b) * k + (a < b ? b : a)];
          if (a == b)
            fprintf(f, "%s\"0\"", b ? ", " : "");
          else if (pass == 0)
            fprintf(f, "%s\"%.6g us\"", b ? ", " : "", w->latency * 1e6);
          else
            fprintf(f, "%s\"%.6g MB/s\"", b ? ", " : "", w->bandwidth / 1e6);
        }
        fprintf(f, ")");
      }
      fprintf(f, " );\n");
    }
    fprintf(f, "  };\n");
  }
  fprintf(f, "};\n\nalltoall = { algorithm = \"auto\"; };\nbcast    = { algorithm = \"auto\"; };\n");
  return ferror(f) ? -1 : 0;
}

/* ---- main -------------------------------------------------------------------------- */

static int calibrate(const struct options *o)
{
  double sizes[MAX_SIZES];
  int ns = make_sizes(o, sizes);
  struct gc_config cfg;
  struct cluster *cl = NULL;
  int k = build_clusters(o, &cfg, &cl);
  if (k < 0)
    return 1;

  /* Open the output before measuring, so that an unwritable path costs nothing. */
  FILE *f = NULL;
  int ok = 1;
  if (world_rank == 0 && !(f = fopen(o->out, "w"))) {
    say("cannot write %s: %s", o->out, strerror(errno));
    ok = 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok)
    return 1;

  int inside = 0, largest = 1;
  for (int c = 0; c < k; c++) {
    inside += cl[c].n >= 2;
    largest = cl[c].n > largest ? cl[c].n : largest;
    if (cl[c].n < 2)
      say("warning: cluster %s has one process: nothing to measure inside it, its lan "
          "keeps the %s values", cl[c].name, o->config ? "configured" : "default");
  }
  struct progress p = {0, 2 * inside + k * (k - 1) / 2};
  double share = p.nsteps ? o->budget / p.nsteps : 0;
  say("%d processes in %d cluster(s); %d sizes from %.0f B to %.0f B; %d steps%s", world_size,
      k, ns, sizes[0], sizes[ns - 1], p.nsteps, o->budget > 0 ? ", time budget given" : "");

  size_t bytes = (size_t)sizes[ns - 1] * (size_t)largest;
  char *send = calloc(bytes, 1), *recv = calloc(bytes, 1);
  double *t = calloc((size_t)ns, sizeof *t);
  struct wan_fit *wan = calloc((size_t)k * (size_t)k, sizeof *wan);
  struct gc_fit_sample s[MAX_SIZES];
  if (!send || !recv || !t || !wan) {
    fprintf(stderr, PROG ": rank %d: out of memory for %zu-byte buffers\n", world_rank, bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  /* 1. Hockney inside each cluster. */
  for (int c = 0; c < k; c++) {
    if (cl[c].n < 2)
      continue;
    int a = cl[c].ranks[0], b = cl[c].ranks[1];
    step_begin(&p, "ping-pong inside %s (ranks %d and %d)", cl[c].name, a, b);
    pingpong(a, b, sizes, ns, o, share, send, t);
    if (a != 0 && world_rank == a)
      MPI_Send(t, ns, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    if (a != 0 && world_rank == 0)
      MPI_Recv(t, ns, MPI_DOUBLE, a, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    quiet_barrier();
    if (world_rank == 0) {
      for (int i = 0; i < ns; i++)
        s[i] = (struct gc_fit_sample){sizes[i], cl[c].p2p_t[i] = t[i]};
      double alpha, beta;
      int floored = 0;
      if (gc_fit_hockney(s, ns, &alpha, &beta, &cl[c].q_p2p) == 0) {
        cl[c].lan.alpha = floor_at(alpha, 1e-9, &floored);
        cl[c].lan.beta = floor_at(beta, 1e-15, &floored);
        cl[c].measured = 1;
        say("  %s: alpha %.3g us, beta %.3g ns/B (%.3g MB/s)", cl[c].name, cl[c].lan.alpha * 1e6,
            cl[c].lan.beta * 1e9, 1e-6 / cl[c].lan.beta);
        warn_fit("alpha, beta", &cl[c].q_p2p);
      } else {
        say("warning: %s: ping-pong times determined no alpha, beta; defaults kept", cl[c].name);
      }
    }
  }

  /* 2. Wide area between every pair of leaders. */
  for (int a = 0; a < k; a++)
    for (int b = a + 1; b < k; b++) {
      int ra = cl[a].ranks[0], rb = cl[b].ranks[0];
      step_begin(&p, "ping-pong between %s and %s (ranks %d and %d)", cl[a].name, cl[b].name,
                 ra, rb);
      pingpong(ra, rb, sizes, ns, o, share, send, t);
      if (ra != 0 && world_rank == ra)
        MPI_Send(t, ns, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
      if (ra != 0 && world_rank == 0)
        MPI_Recv(t, ns, MPI_DOUBLE, ra, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      quiet_barrier();
      if (world_rank == 0) {
        struct wan_fit *w = &wan[a * k + b];
        for (int i = 0; i < ns; i++)
          s[i] = (struct gc_fit_sample){sizes[i], w->t[i] = t[i]};
        double alpha = 0, beta = 0;
        if (gc_fit_hockney(s, ns, &alpha, &beta, &w->q) != 0)
          say("warning: %s <-> %s: times determined nothing; smallest values written",
              cl[a].name, cl[b].name);
        w->latency = floor_at(alpha, 1e-9, &w->floored);
        w->bandwidth = 1 / floor_at(beta, 1e-15, &w->floored);
        /* A poor line through a rate-shaped link (a token bucket sends what fits its
         * bucket at line rate, the rest at the rate): the small messages pull the line's
         * bandwidth above the rate, the largest ones tell the rate, the smallest the
         * latency. Only in that direction: a tail faster than the line is noise (two
         * close times on a busy machine), not a rate limit. */
        double tail;
        if (poor(&w->q) && gc_fit_tail_bandwidth(s, ns, &tail) == 0 && tail < w->bandwidth) {
          w->hockney_bandwidth = w->bandwidth;
          w->bandwidth = tail;
          w->latency = floor_at(s[0].t - s[0].m / tail, 1e-9, &w->floored);
          w->tail = 1;
        }
        char what[2 * GC_NAME_MAX + 16];
        snprintf(what, sizeof what, "%s <-> %s", cl[a].name, cl[b].name);
        warn_fit(what, &w->q);
        say("  %s <-> %s: latency %.3g us, bandwidth %.3g MB/s%s", cl[a].name, cl[b].name,
            w->latency * 1e6, w->bandwidth / 1e6,
            w->tail ? " (the fit being poor: bandwidth of the two largest sizes, latency "
                      "of the smallest)" : "");
      }
    }

  /* 3. Contention signature of each cluster, on its own communicator. */
  int mine = 0;
  for (int c = 0; c < k; c++)
    for (int i = 0; i < cl[c].n; i++)
      if (cl[c].ranks[i] == world_rank)
        mine = c;
  MPI_Comm cc;
  MPI_Comm_split(MPI_COMM_WORLD, mine, world_rank, &cc);
  for (int c = 0; c < k; c++) {
    if (cl[c].n < 2)
      continue;
    step_begin(&p, "all-to-all on the %d processes of %s", cl[c].n, cl[c].name);
    if (mine == c)
      alltoall_sweep(cc, sizes, ns, o, share, send, recv, t);
    int leader = cl[c].ranks[0];
    if (leader != 0 && world_rank == leader)
      MPI_Send(t, ns, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    if (leader != 0 && world_rank == 0)
      MPI_Recv(t, ns, MPI_DOUBLE, leader, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    quiet_barrier();
    if (world_rank == 0) {
      struct gc_fit_a2a_sample as[MAX_SIZES];
      for (int i = 0; i < ns; i++)
        as[i] = (struct gc_fit_a2a_sample){cl[c].n, sizes[i], cl[c].a2a_t[i] = t[i]};
      struct gc_lan fit;
      int floored = 0;
      if (gc_fit_signature(as, ns, cl[c].lan.alpha, cl[c].lan.beta, &fit, &cl[c].q_a2a) == 0) {
        cl[c].lan.gamma = floor_at(fit.gamma, 1e-6, &floored);
        cl[c].lan.delta = fit.delta;
        cl[c].lan.threshold = fit.threshold;
        cl[c].a2a_ok = 1;
        say("  %s: gamma %.4g, delta %.3g ms, threshold %.0f B", cl[c].name, cl[c].lan.gamma,
            cl[c].lan.delta * 1e3, cl[c].lan.threshold);
        warn_fit("gamma, delta, threshold", &cl[c].q_a2a);
      } else {
        say("warning: %s: all-to-all times determined no signature; defaults kept", cl[c].name);
      }
    }
  }
  MPI_Comm_free(&cc);

  int rc = 0;
  if (world_rank == 0) {
    double elapsed = MPI_Wtime() - t_start;
    if (o->budget > 0 && elapsed > 1.5 * o->budget)
      say("warning: took %.1f s for a budget of %.1f s: %d repetitions per size is the "
          "minimum", elapsed, o->budget, MIN_REPS);
    int werr = write_config(f, o, &cfg, cl, k, wan, sizes, ns, elapsed);
    if (fclose(f) != 0 || werr) {
      say("cannot write %s: %s", o->out, strerror(errno));
      remove(o->out);
      rc = 1;
    } else {
      /* Whatever was written must be what gridcoll accepts. */
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
    }
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int c = 0; c < k; c++)
    free(cl[c].ranks);
  free(cl);
  free(send);
  free(recv);
  free(t);
  free(wan);
  gc_config_free(&cfg);
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
  int rc = parse_options(argc, argv, &o);
  if (rc == 1) /* --help */
    rc = 0;
  else if (rc == 0 && world_size < 2) {
    say("needs at least 2 processes (mpiexec -n 2 or more): a ping-pong has two ends; "
        "nothing written");
    rc = 1;
  } else if (rc == 0) {
    rc = calibrate(&o);
  }
  MPI_Finalize();
  return rc;
}
