/* The configuration gridcoll-calibrate writes: a header saying how it was measured, every
 * cluster with its fits' quality and samples beside its lan, then the network with the
 * wide-area matrices. Written by rank 0 alone. */
#include <time.h>

#include "calibrate.h"
#include "ranges.h"

static void write_quality(FILE *f, const char *indent, const char *what,
                          const struct gc_fit_quality *q)
{
  fprintf(f, "%s# %s fit: R^2 = %.4f, max relative residual %.1f%%%s\n", indent, what, q->r2,
          100 * q->max_rel, calibrate_poor(q) ? "  (POOR)" : "");
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

static void write_header(FILE *f, const struct run *r, double elapsed)
{
  const struct options *o = r->o;
  time_t now = time(NULL);
  char date[64];
  strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", localtime(&now));
  fprintf(f, "# gridcoll configuration measured by " PROG " on %s:\n", date);
  fprintf(f, "# %d processes, %d cluster(s) (%s), sizes %.0f B to %.0f B (%d), up to %d "
             "repetitions each, %.1f s.\n",
          world_size, r->k, o->config ? o->config : o->clusters ? "-C" : "one per host",
          r->sizes[0], r->sizes[r->ns - 1], r->ns, o->reps, elapsed);
  fprintf(f, "# alpha, beta: ping-pong between a cluster's first two processes (one-way =\n"
             "# half the round trip), Hockney fit; gamma, delta, threshold: MPI_Alltoall on the\n"
             "# cluster's processes, contention signature fit (000 Eq. 5); wan: ping-pong between\n"
             "# cluster leaders. R^2 and the largest relative residual follow each fit.\n\n");
}

/* The comments above a cluster: its members, then how its lan was found. */
static void write_cluster_notes(FILE *f, const struct run *r, const struct cluster *x)
{
  fprintf(f, "  # %s: %d process(es), ranks", x->name, x->n);
  for (int i = 0; i < x->n && i < 16; i++)
    fprintf(f, "%s%d", i ? "," : " ", x->ranks[i]);
  fprintf(f, "%s\n", x->n > 16 ? ",..." : "");
  if (!x->measured) {
    fprintf(f, "  # one process: no ping-pong or all-to-all inside it; the %s lan is kept\n",
            r->o->config ? "configured" : "default");
    return;
  }
  write_quality(f, "  ", "alpha, beta (ping-pong)", &x->q_p2p);
  write_samples(f, "  ", "one-way", r->sizes, x->p2p_t, r->ns);
  if (x->a2a_ok) {
    write_quality(f, "  ", "gamma, delta, threshold (all-to-all)", &x->q_a2a);
    write_samples(f, "  ", "all-to-all", r->sizes, x->a2a_t, r->ns);
  } else
    fprintf(f, "  # gamma, delta, threshold: the all-to-all samples determined nothing; "
               "defaults kept\n");
}

/* One entry of `clusters`: placed as it was described (hosts, ranks), or by the host or
 * rank it was found on. */
static void write_cluster(FILE *f, const struct run *r, int c)
{
  const struct cluster *x = &r->cl[c];
  write_cluster_notes(f, r, x);
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
  fprintf(f, "  }%s\n", c + 1 < r->k ? "," : "");
}

/* The comments above the wide-area matrices: every pair's fit and samples. */
static void write_wan_notes(FILE *f, const struct run *r)
{
  int k = r->k;
  fprintf(f, "  # one-way latency and bandwidth from row cluster to column cluster (order above)\n");
  for (int a = 0; a < k; a++)
    for (int b = a + 1; b < k; b++) {
      const struct wan_fit *w = &r->wan[a * k + b];
      char what[2 * GC_NAME_MAX + 16];
      snprintf(what, sizeof what, "%s <-> %s", r->cl[a].name, r->cl[b].name);
      write_quality(f, "  ", what, &w->q);
      write_samples(f, "  ", "one-way", r->sizes, w->t, r->ns);
      if (w->tail)
        fprintf(f, "  #   poor line (bandwidth %.6g MB/s): written instead, the bandwidth of the two\n"
                   "  #   largest sizes and the latency of the smallest\n",
                w->hockney_bandwidth / 1e6);
      if (w->floored)
        fprintf(f, "  #   (a fitted value was 0 and is written as the smallest the loader accepts)\n");
    }
}

/* wan.latency (pass 0) or wan.bandwidth (pass 1): a symmetric k x k matrix, 0 on the
 * diagonal. */
static void write_wan_matrix(FILE *f, const struct run *r, int pass)
{
  int k = r->k;
  fprintf(f, pass == 0 ? "  wan = {\n    latency = (" : "    bandwidth = (");
  for (int a = 0; a < k; a++) {
    fprintf(f, "%s(", a ? ",\n                 " : " ");
    for (int b = 0; b < k; b++) {
      const struct wan_fit *w = &r->wan[(a < b ? a : b) * k + (a < b ? b : a)];
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

int calibrate_write_config(FILE *f, const struct run *r, double elapsed)
{
  write_header(f, r, elapsed);
  fprintf(f, "clusters = (\n");
  for (int c = 0; c < r->k; c++)
    write_cluster(f, r, c);
  fprintf(f, ");\n\nnetwork = {\n");
  fprintf(f, "  # for processes that no cluster above matches: %s\n",
          r->o->config ? "network.lan of the input file" : "gridcoll's defaults");
  write_lan(f, "  ", &r->cfg.lan);
  if (r->k >= 2) {
    write_wan_notes(f, r);
    write_wan_matrix(f, r, 0);
    write_wan_matrix(f, r, 1);
    fprintf(f, "  };\n");
  }
  fprintf(f, "};\n\nalltoall = { algorithm = \"auto\"; };\nbcast    = { algorithm = \"auto\"; };\n");
  return ferror(f) ? -1 : 0;
}
