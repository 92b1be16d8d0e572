/* The configuration gridcoll-calibrate writes: a header saying how it was measured, every
 * cluster with its fits' quality and samples beside its lan, then the network with the
 * wide-area matrices. Written by rank 0 alone. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate.h"
#include "physical.h"
#include "platform.h"
#include "ranges.h"

static void write_quality(FILE *f, const char *indent, const char *what,
                          const struct gc_fit_quality *q)
{
  fprintf(f, "%s# %s fit: R^2 = %.4f, max relative residual %.1f%%\n", indent, what, q->r2,
          100 * q->max_rel);
}

/* A suspect or refused fit: why, what was written instead, what to do. */
static void write_verdict(FILE *f, const char *indent, const struct gc_fit_verdict *v,
                          const char *instead)
{
  if (v->level == GC_FIT_GOOD)
    return;
  fprintf(f, "%s# %s: %s\n", indent, v->level == GC_FIT_REFUSED ? "REFUSED" : "SUSPECT", v->why);
  if (v->level == GC_FIT_REFUSED)
    fprintf(f, "%s#   written instead: %s\n", indent, instead);
  fprintf(f, "%s#   to do: %s\n", indent, v->todo);
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
  fprintf(f, "%s        delta = \"%.6g ms\"; threshold = \"%.0f B\";", indent,
          l->delta * 1e3, l->threshold);
  if (!gc_curve_set(&l->curve)) {
    fprintf(f, " };\n");
    return;
  }
  /* Beside alpha and beta, which older readers and the models of concurrency still read:
   * one message's time over its size (model/link.c). */
  char more[64];
  snprintf(more, sizeof more, "%s        ", indent);
  fprintf(f, "\n%s", more);
  calibrate_write_curve(f, more, &l->curve, 0);
  fprintf(f, "%s      };\n", indent);
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
             "# cluster's processes, contention signature fit (000 Eq. 5) on the sizes where the\n"
             "# network saturates; wan latency, bandwidth: ping-pong between cluster leaders (one\n"
             "# flow); wan aggregate: every member of one cluster to every member of the other,\n"
             "# both ways at once; curve (lan.curve, wan.curves): one message's one-way time\n"
             "# over its size, ping-pong at powers of 2 and midpoints, each protocol step bisected,\n"
             "# reduced to the points where the slope changes beyond the noise (the models take one\n"
             "# message's time from it, alpha and beta stay for the rest). R^2 and the largest\n"
             "# relative residual follow each fit; a fit\n"
             "# that fails a check of physical sense is marked SUSPECT (kept) or REFUSED (not\n"
             "# written), with the reason and what to do.\n\n");
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
  write_verdict(f, "  ", &x->v_p2p, "alpha, beta as described");
  if (x->measured && x->fit_alpha < GC_PHYSICAL_TIME_MIN && x->v_p2p.level != GC_FIT_REFUSED)
    fprintf(f, "  #   alpha fitted as %.3g s, written as 1 ns (the loader needs it positive)\n",
            x->fit_alpha);
  write_samples(f, "  ", "one-way", r->sizes, x->p2p_t, r->ns);
  if (gc_curve_set(&x->lan.curve))
    fprintf(f, "  # curve: ping-pong at %d sizes from %.0f B to %.0f B, %d points kept (where the "
               "slope changes by more than the noise, %.0f%%)\n", x->curve_measured, r->csizes[0],
            r->csizes[r->ncs - 1], x->lan.curve.n, 100 * fmin(fmax(x->curve_noise, 0.01), 0.05));
  if (x->a2a_ok) {
    fprintf(f, "  # gamma, delta, threshold fitted on the sizes from %.0f B (where the network "
               "saturates: m >= alpha/beta)\n", x->a2a_from);
    write_quality(f, "  ", "gamma, delta, threshold (all-to-all)", &x->q_a2a);
    write_samples(f, "  ", "all-to-all", r->sizes, x->a2a_t, r->ns);
  }
  write_verdict(f, "  ", &x->v_a2a, x->a2a_ok ? "gamma 1, delta 0 (contention-free, 000 Eq. 1)"
                                              : "gamma, delta, threshold as described");
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
      write_verdict(f, "  ", &w->v, "the described latency and bandwidth");
      write_samples(f, "  ", "one-way", r->sizes, w->t, r->ns);
      if (gc_curve_set(&w->curve))
        fprintf(f, "  #   curve: ping-pong at %d sizes, %d points kept (wan.curves below)\n",
                w->curve_measured, w->curve.n);
      fprintf(f, "  #   %d flows each way, all at once: aggregate %.6g MB/s\n", w->flows,
              w->agg_fitted / 1e6);
      write_verdict(f, "  ", &w->v_agg, "no aggregate for this pair (0)");
      write_samples(f, "  ", "many flows", r->sizes, w->agg_t, r->ns);
      if (w->tail)
        fprintf(f, "  #   poor line (bandwidth %.6g MB/s): written instead, the bandwidth of the two\n"
                   "  #   largest sizes and the latency of the smallest\n",
                w->hockney_bandwidth / 1e6);
      if (w->floored)
        fprintf(f, "  #   latency fitted as 0: written as 1 ns, the smallest the loader accepts\n");
    }
}

/* wan.latency (pass 0), wan.bandwidth (1) or wan.aggregate (2): a symmetric k x k
 * matrix, 0 on the diagonal (and for a pair whose aggregate was refused). */
static void write_wan_matrix(FILE *f, const struct run *r, int pass)
{
  int k = r->k;
  fprintf(f, pass == 0 ? "  wan = {\n    latency = (" : pass == 1 ? "    bandwidth = ("
                                                         : "    aggregate = (");
  for (int a = 0; a < k; a++) {
    fprintf(f, "%s(", a ? ",\n                 " : " ");
    for (int b = 0; b < k; b++) {
      const struct wan_fit *w = &r->wan[(a < b ? a : b) * k + (a < b ? b : a)];
      if (a == b)
        fprintf(f, "%s\"0\"", b ? ", " : "");
      else if (pass == 0)
        fprintf(f, "%s\"%.6g us\"", b ? ", " : "", w->latency * 1e6);
      else if (pass == 1)
        fprintf(f, "%s\"%.6g MB/s\"", b ? ", " : "", w->bandwidth / 1e6);
      else
        fprintf(f, "%s\"%.6g MB/s\"", b ? ", " : "", w->aggregate / 1e6);
    }
    fprintf(f, ")");
  }
  fprintf(f, " );\n");
}

/* wan.curves: every pair measured with a curve, one entry for both directions. */
static void write_wan_curves(FILE *f, const struct run *r)
{
  int first = 1;
  for (int a = 0; a < r->k; a++)
    for (int b = a + 1; b < r->k; b++) {
      const struct wan_fit *w = &r->wan[a * r->k + b];
      if (!gc_curve_set(&w->curve))
        continue;
      fprintf(f, "%s{ pair = [ \"%s\", \"%s\" ];\n                   ",
              first ? "    curves = ( " : ",\n                 ", r->cl[a].name, r->cl[b].name);
      calibrate_write_curve(f, "                   ", &w->curve, 0);
      fprintf(f, "                 }");
      first = 0;
    }
  if (!first)
    fprintf(f, " );\n");
}

/* native: the MPI library's own collectives on the world, the layout they were timed on. */
static void write_native(FILE *f, const struct run *r)
{
  if (!r->native_measured)
    return;
  fprintf(f, "\n# The MPI library's own MPI_Alltoall (per block) and MPI_Bcast (per message, from\n"
             "# each cluster's first rank) on all %d processes, %d sizes, the median of %d after a\n"
             "# warm-up, from a barrier to the slowest exit: gridcoll predicts its native rows\n"
             "# from these on a communicator of these cluster sizes, from their formulas elsewhere.\n"
             "native = {\n  procs = %d;\n  sizes = [", world_size, r->native_measured, 5, world_size);
  for (int c = 0; c < r->k; c++)
    fprintf(f, "%s %d", c ? "," : "", r->cl[c].n);
  fprintf(f, " ];\n  ");
  calibrate_write_points(f, "  ", "alltoall", &r->native_a2a, 0);
  int first = 1;
  for (int c = 0; c < r->k; c++) {
    if (!gc_curve_set(&r->native_bcast[c]))
      continue;
    fprintf(f, "%s{ root = \"%s\";\n              ", first ? "  bcast = ( " : ",\n            ",
            r->cl[c].name);
    calibrate_write_curve(f, "              ", &r->native_bcast[c], 0);
    fprintf(f, "            }");
    first = 0;
  }
  if (!first)
    fprintf(f, " );\n");
  fprintf(f, "};\n");
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
    /* The loader needs every pair's aggregate: one refused, none is written (the models
     * then use one flow's bandwidth everywhere, as without a measurement). */
    int all = 1;
    for (int a = 0; a < r->k; a++)
      for (int b = a + 1; b < r->k; b++)
        all &= r->wan[a * r->k + b].aggregate > 0;
    if (all)
      write_wan_matrix(f, r, 2);
    else
      fprintf(f, "    # no aggregate: refused for a pair above (see REFUSED)\n");
    write_wan_curves(f, r);
    fprintf(f, "  };\n");
  }
  fprintf(f, "};\n");
  write_native(f, r);
  fprintf(f, "\nalltoall = { algorithm = \"auto\"; };\nbcast    = { algorithm = \"auto\"; };\n");
  return ferror(f) ? -1 : 0;
}

static const char *level_name(const struct gc_fit_verdict *v)
{
  return v->level == GC_FIT_REFUSED ? "REFUSED" : v->level == GC_FIT_SUSPECT ? "suspect" : "good";
}

/* The final table on stderr: one row per fit, what it measured, what it found, how well. */
void calibrate_print_table(const struct run *r)
{
  int bad = 0;
  say("summary: what was measured, what was fitted, and its quality");
  say("  %-34s %-44s %-22s %s", "measured", "fitted", "quality", "check");
  for (int c = 0; c < r->k; c++) {
    const struct cluster *x = &r->cl[c];
    char what[160], fit[160], q[64];
    if (!x->measured && x->v_p2p.level == GC_FIT_GOOD)
      continue;
    snprintf(what, sizeof what, "%s: ping-pong, %d sizes", x->name, r->ns);
    snprintf(fit, sizeof fit, "alpha %.3g us, beta %.3g ns/B", x->lan.alpha * 1e6, x->lan.beta * 1e9);
    snprintf(q, sizeof q, "R^2 %.3f, max %.0f%%", x->q_p2p.r2, 100 * x->q_p2p.max_rel);
    say("  %-34s %-44s %-22s %s", what, fit, q, level_name(&x->v_p2p));
    bad += x->v_p2p.level != GC_FIT_GOOD;
    snprintf(what, sizeof what, "%s: all-to-all of %d", x->name, x->n);
    snprintf(fit, sizeof fit, "gamma %.3g, delta %.3g ms, M %.0f B (from %.0f B)", x->lan.gamma,
             x->lan.delta * 1e3, x->lan.threshold, x->a2a_from);
    snprintf(q, sizeof q, "R^2 %.3f, max %.0f%%", x->q_a2a.r2, 100 * x->q_a2a.max_rel);
    say("  %-34s %-44s %-22s %s", what, fit, q, level_name(&x->v_a2a));
    bad += x->v_a2a.level != GC_FIT_GOOD;
  }
  for (int a = 0; a < r->k; a++)
    for (int b = a + 1; b < r->k; b++) {
      const struct wan_fit *w = &r->wan[a * r->k + b];
      char what[160], fit[160], q[64];
      snprintf(what, sizeof what, "%s <-> %s: one flow", r->cl[a].name, r->cl[b].name);
      snprintf(fit, sizeof fit, "latency %.4g us, %.4g MB/s", w->latency * 1e6, w->bandwidth / 1e6);
      snprintf(q, sizeof q, "R^2 %.3f, max %.0f%%", w->q.r2, 100 * w->q.max_rel);
      say("  %-34s %-44s %-22s %s", what, fit, q, level_name(&w->v));
      snprintf(what, sizeof what, "%s <-> %s: %d flows", r->cl[a].name, r->cl[b].name, w->flows);
      snprintf(fit, sizeof fit, "aggregate %.4g MB/s", w->agg_fitted / 1e6);
      say("  %-34s %-44s %-22s %s", what, fit, "two largest sizes", level_name(&w->v_agg));
      bad += (w->v.level != GC_FIT_GOOD) + (w->v_agg.level != GC_FIT_GOOD);
    }
  if (bad)
    say("%d fit(s) suspect or refused: the file says why and what to do (grep -A2 -E "
        "'SUSPECT|REFUSED' %s)", bad, r->o->out);
}

/* XML's host file: its name with .xml replaced by (or, without it, followed by) .hosts. */
static void hosts_path(const char *xml, char *out, size_t len)
{
  size_t n = strlen(xml);
  int ext = n > 4 && strcmp(xml + n - 4, ".xml") == 0;
  snprintf(out, len, "%.*s.hosts", (int)(ext ? n - 4 : n), xml);
}

int calibrate_write_platform(const struct run *r)
{
  int k = r->k;
  struct gc_platform_cluster *cl = calloc((size_t)k, sizeof *cl);
  double *lat = calloc((size_t)k * (size_t)k, sizeof *lat);
  double *bw = calloc((size_t)k * (size_t)k, sizeof *bw);
  double *agg = calloc((size_t)k * (size_t)k, sizeof *agg);
  int *table = calloc((size_t)world_size, sizeof *table);
  int rc = 1;
  if (!cl || !lat || !bw || !agg || !table) {
    say("out of memory");
    goto out;
  }
  for (int c = 0; c < k; c++) {
    cl[c] = (struct gc_platform_cluster){r->cl[c].name, r->cl[c].n, r->cl[c].lan.alpha,
                                         r->cl[c].lan.beta, r->cl[c].lan.gamma};
    for (int i = 0; i < r->cl[c].n; i++)
      table[r->cl[c].ranks[i]] = c;
  }
  for (int a = 0; a < k; a++)
    for (int b = 0; b < k; b++)
      if (a != b) {
        const struct wan_fit *w = &r->wan[(a < b ? a : b) * k + (a < b ? b : a)];
        lat[a * k + b] = w->latency, bw[a * k + b] = w->bandwidth, agg[a * k + b] = w->aggregate;
      }
  struct gc_platform p = {k, cl, lat, bw, agg, world_size, table};
  char hosts[4096];
  hosts_path(r->o->platform, hosts, sizeof hosts);
  FILE *fx = fopen(r->o->platform, "w"), *fh = fx ? fopen(hosts, "w") : NULL;
  if (!fx || !fh) {
    say("cannot write %s: %s", fx ? hosts : r->o->platform, strerror(errno));
    if (fx)
      fclose(fx);
    goto out;
  }
  int bad = gc_platform_write_xml(fx, &p) != 0 || gc_platform_write_hosts(fh, &p) != 0;
  bad |= fclose(fx) != 0;
  bad |= fclose(fh) != 0;
  if (bad) {
    say("cannot write %s or %s", r->o->platform, hosts);
    goto out;
  }
  say("wrote %s and %s: smpirun -platform %s -hostfile %s --cfg=smpi/lat-factor:0:1 "
      "--cfg=smpi/bw-factor:0:1 APP runs APP on the grid as measured", r->o->platform, hosts,
      r->o->platform, hosts);
  rc = 0;
out:
  free(cl), free(lat), free(bw), free(agg), free(table);
  return rc;
}
