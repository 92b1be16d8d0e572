/* --from-log, pure C (fromlog.h): read the records, split each prediction, fit the two
 * factors per level, apply them, write the configuration back. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fromlog.h"
#include "curve_text.h" /* the native table's points */
#include "physical.h"
#include "ranges.h"

static const char *const column_names[GC_LOG_COLUMNS] = {
    "rank", "comm", "comm_size", "call", "op", "algorithm", "root", "bytes", "clusters", "model",
    "predicted_s", "actual_s", "own_s"};

#define MAX_FIELDS 64

/* Splits a CSV line in place at commas (the log never quotes: names are plain words and
 * the candidates column uses ';'); returns the number of fields. */
static int split(char *line, char **field)
{
  int n = 0;
  line[strcspn(line, "\r\n")] = '\0';
  for (char *p = line; n < MAX_FIELDS;) {
    field[n++] = p;
    p = strchr(p, ',');
    if (!p)
      break;
    *p++ = '\0';
  }
  return n;
}

int gc_log_parse_header(const char *line, int *cols)
{
  char buf[1024], *field[MAX_FIELDS];
  if (!line || !cols || strlen(line) >= sizeof buf)
    return -1;
  strcpy(buf, line);
  int n = split(buf, field);
  for (int c = 0; c < GC_LOG_COLUMNS; c++) {
    cols[c] = -1;
    for (int i = 0; i < n; i++)
      if (strcmp(field[i], column_names[c]) == 0)
        cols[c] = i;
    if (c < GC_LOG_REQUIRED && cols[c] < 0) /* bound first: cppcheck (arrayIndexThenCheck) */
      return -1;
  }
  return 0;
}

static int number(const char *s, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return *s && !*end && !errno && isfinite(*v) ? 0 : -1;
}

static int integer(const char *s, long long lo, long long hi, long long *v)
{
  char *end;
  errno = 0;
  *v = strtoll(s, &end, 10);
  return *s && !*end && !errno && *v >= lo && *v <= hi ? 0 : -1;
}

int gc_log_parse_line(const char *line, const int *cols, struct gc_log_record *r)
{
  char buf[4096], *field[MAX_FIELDS];
  if (!line || !cols || !r)
    return -1;
  if (strlen(line) >= sizeof buf)
    return -1;
  strcpy(buf, line);
  int n = split(buf, field);
  if (n == 1 && field[0][0] == '\0')
    return 1;
  const char *f[GC_LOG_COLUMNS];
  for (int c = 0; c < GC_LOG_COLUMNS; c++) {
    if (c >= GC_LOG_REQUIRED && cols[c] < 0) { /* an older log: as if empty */
      f[c] = "";
      continue;
    }
    if (cols[c] < 0 || cols[c] >= n)
      return -1;
    f[c] = field[cols[c]];
  }
  struct gc_log_record x = {0};
  long long v;
  if (integer(f[GC_LOG_RANK], 0, 1 << 30, &v) < 0)
    return -1;
  x.rank = (int)v;
  char *end;
  errno = 0;
  x.comm = strtoull(f[GC_LOG_COMM], &end, 10);
  if (!*f[GC_LOG_COMM] || *end || errno)
    return -1;
  if (integer(f[GC_LOG_COMM_SIZE], 1, 1 << 30, &v) < 0)
    return -1;
  errno = 0;
  x.call = strtoull(f[GC_LOG_CALL], &end, 10);
  if (!*f[GC_LOG_CALL] || *end || errno)
    return -1;
  x.comm_size = (int)v;
  x.root = -1;
  if (*f[GC_LOG_ROOT]) {
    if (integer(f[GC_LOG_ROOT], 0, 1 << 30, &v) < 0)
      return -1;
    x.root = (int)v;
  }
  if (integer(f[GC_LOG_CLUSTERS], 0, 1 << 30, &v) < 0)
    return -1;
  x.clusters = (int)v;
  if (number(f[GC_LOG_BYTES], &x.bytes) < 0 || x.bytes < 0)
    return -1;
  if (strlen(f[GC_LOG_OP]) >= sizeof x.op || strlen(f[GC_LOG_ALGORITHM]) >= sizeof x.algorithm ||
      strlen(f[GC_LOG_MODEL]) >= sizeof x.model || !*f[GC_LOG_OP])
    return -1;
  strcpy(x.op, f[GC_LOG_OP]);
  strcpy(x.algorithm, f[GC_LOG_ALGORITHM]);
  strcpy(x.model, f[GC_LOG_MODEL]);
  if (!*f[GC_LOG_PREDICTED] || !*f[GC_LOG_ACTUAL] || !*x.model)
    return 1; /* no prediction or no time: nothing to refit */
  /* A nonblocking or persistent call (doc/log.md: its algorithm "<name>-nb",
   * "<name>-persistent"): its schedule advances only when the application calls into
   * MPI, so its time says when the application looked, not what the network took. */
  size_t na = strlen(x.algorithm);
  if ((na >= 3 && strcmp(x.algorithm + na - 3, "-nb") == 0) ||
      (na >= 11 && strcmp(x.algorithm + na - 11, "-persistent") == 0))
    return 1;
  /* A prediction on another call's data (MPI_Alltoallv's "@learnt": the totals of an
   * earlier LG-v call) says nothing of the network against this call's time. */
  if (strchr(x.model, '@'))
    return 1;
  if (number(f[GC_LOG_PREDICTED], &x.predicted) < 0 || number(f[GC_LOG_ACTUAL], &x.actual) < 0 ||
      x.predicted < 0 || x.actual < 0)
    return -1;
  /* The collective's own time where the log has it: what the model predicts. */
  if (*f[GC_LOG_OWN] && (number(f[GC_LOG_OWN], &x.actual) < 0 || x.actual < 0))
    return -1;
  if (x.actual <= 0 || x.predicted <= 0) /* < 0 returned above: these are 0 */
    return 1;
  *r = x;
  return 0;
}

int gc_log_read(const char *path, struct gc_log_record **rec, int *n, char *err, size_t errlen)
{
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  char line[4096];
  int cols[GC_LOG_COLUMNS], lineno = 0, rc = 0, cap = *n;
  if (!fgets(line, sizeof line, f) || gc_log_parse_header(line, cols) < 0) {
    snprintf(err, errlen, "%s:1: not a gridcoll log: the header must name rank, comm, "
             "comm_size, op, algorithm, root, bytes, clusters, model, predicted_s, actual_s",
             path);
    fclose(f);
    return -1;
  }
  lineno = 1;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    struct gc_log_record r;
    int got = gc_log_parse_line(line, cols, &r);
    if (got < 0) {
      snprintf(err, errlen, "%s:%d: malformed record", path, lineno);
      rc = -1;
      break;
    }
    if (got > 0)
      continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 256;
      struct gc_log_record *grown = realloc(*rec, sizeof **rec * (size_t)cap);
      if (!grown) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
        break;
      }
      *rec = grown;
    }
    (*rec)[(*n)++] = r;
  }
  fclose(f);
  return rc;
}

/* ---- the refit ---------------------------------------------------------------------- */
static int same_kind(const struct gc_log_record *a, const struct gc_log_record *b)
{
  return a->comm == b->comm && a->comm_size == b->comm_size &&
         a->root == b->root && a->clusters == b->clusters && strcmp(a->op, b->op) == 0 &&
         strcmp(a->algorithm, b->algorithm) == 0 && strcmp(a->model, b->model) == 0;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Splits every prediction of rec into L and B (see fromlog.h): s[i] for record i, and
 * lvl[i] its level, or -1 when its kind of call was seen at one size only. */
static void split_predictions(const struct gc_log_record *rec, int n,
                              struct gc_fit_scale_sample *s, int *lvl, int *skipped)
{
  int *group = malloc(sizeof *group * (size_t)n);
  struct gc_fit_sample *pts = malloc(sizeof *pts * (size_t)n);
  if (!group || !pts) {
    for (int i = 0; i < n; i++)
      lvl[i] = -1;
    *skipped = n;
    free(group), free(pts);
    return;
  }
  for (int i = 0; i < n; i++)
    group[i] = -1;
  for (int i = 0; i < n; i++) {
    if (group[i] >= 0)
      continue;
    int np = 0;
    for (int j = i; j < n; j++)
      if (group[j] < 0 && same_kind(&rec[i], &rec[j])) {
        group[j] = i;
        pts[np++] = (struct gc_fit_sample){rec[j].bytes, rec[j].predicted};
      }
    double L = 0, slope = 0;
    int ok = gc_fit_hockney(pts, np, &L, &slope, NULL) == 0;
    /* L: never above the smallest prediction, so that every B is >= 0. */
    for (int j = 0; ok && j < np; j++)
      L = pts[j].t < L ? pts[j].t : L;
    for (int j = i; j < n; j++)
      if (group[j] == i) {
        lvl[j] = !ok ? -1 : rec[j].clusters >= 2 ? GC_REFIT_WAN : GC_REFIT_LAN;
        s[j] = (struct gc_fit_scale_sample){L, rec[j].predicted - L, rec[j].actual};
        *skipped += !ok;
      }
  }
  free(group), free(pts);
}

static void fit_level(const struct gc_fit_scale_sample *all, const int *lvl, int n, int which,
                      struct gc_refit_level *out)
{
  struct gc_fit_scale_sample *s = malloc(sizeof *s * (size_t)(n ? n : 1));
  double *before = malloc(sizeof *before * (size_t)(n ? n : 1));
  double *after = malloc(sizeof *after * (size_t)(n ? n : 1));
  *out = (struct gc_refit_level){0};
  if (!s || !before || !after) {
    free(s), free(before), free(after);
    return;
  }
  int m = 0;
  for (int i = 0; i < n; i++)
    if (lvl[i] == which)
      s[m++] = all[i];
  out->used = m;
  if (m == 0) {
    free(s), free(before), free(after);
    return;
  }
  for (int i = 0; i < m; i++)
    before[i] = fabs(s[i].L + s[i].B - s[i].actual) / s[i].actual;
  out->before = median(before, m);
  if (gc_fit_scale(s, m, &out->x, &out->y, NULL) != 0) {
    out->v = (struct gc_fit_verdict){GC_FIT_REFUSED, "the records do not tell the start-up "
                                     "part from the per-byte part (one size, or predictions "
                                     "in one proportion)", "run more message sizes"};
  } else if (!(out->x > 0) || !(out->y > 0)) {
    out->v = (struct gc_fit_verdict){GC_FIT_REFUSED, "", "check the records: the model's "
                                     "shape does not match these calls"};
    snprintf(out->v.why, sizeof out->v.why, "a factor fitted as 0 (start-up x%.3g, per byte "
             "x%.3g): a network with no latency or infinite bandwidth", out->x, out->y);
  } else {
    for (int i = 0; i < m; i++)
      after[i] = fabs(out->x * s[i].L + out->y * s[i].B - s[i].actual) / s[i].actual;
    out->after = median(after, m);
    out->ok = 1;
    /* Least squares in relative terms can trade the median for the tails: a refit that
     * makes the typical call worse is not an improvement. */
    if (out->after >= out->before) {
      out->ok = 0;
      out->v.level = GC_FIT_REFUSED;
      snprintf(out->v.why, sizeof out->v.why, "the refit (start-up x%.3g, per byte x%.3g) "
               "would not lower the median error (%.1f%% -> %.1f%%)", out->x, out->y,
               100 * out->before, 100 * out->after);
      snprintf(out->v.todo, sizeof out->v.todo, "the model's shape, not its parameters, "
               "differs from these calls: calibrate (gridcoll-calibrate) instead");
    } else if (out->x > 100 || out->x < 0.01 || out->y > 100 || out->y < 0.01) {
      out->v.level = GC_FIT_SUSPECT;
      snprintf(out->v.why, sizeof out->v.why, "factors far from 1 (start-up x%.3g, per byte "
               "x%.3g): the configuration described another network", out->x, out->y);
      snprintf(out->v.todo, sizeof out->v.todo, "calibrate this network (gridcoll-calibrate) "
               "rather than correct it");
    }
  }
  free(s), free(before), free(after);
}

static int refit_calls(const struct gc_log_record *rec, int n, struct gc_refit *out, char *err,
                       size_t errlen);

/* Orders records by call (communicator, number), size and rank: one call's records
 * adjacent. */
static int cmp_call(const void *pa, const void *pb)
{
  const struct gc_log_record *a = pa, *b = pb;
  if (a->comm != b->comm)
    return a->comm < b->comm ? -1 : 1;
  if (a->call != b->call)
    return a->call < b->call ? -1 : 1;
  if (a->bytes < b->bytes)
    return -1;
  if (a->bytes > b->bytes)
    return 1;
  return (a->rank > b->rank) - (a->rank < b->rank);
}

/* One record per call: the slowest rank's (see fromlog.h). Returns the count kept in
 * out (n records at most). */
static int one_per_call(const struct gc_log_record *rec, int n, struct gc_log_record *out)
{
  for (int i = 0; i < n; i++)
    out[i] = rec[i];
  qsort(out, (size_t)n, sizeof *out, cmp_call);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (m > 0 && out[m - 1].comm == out[i].comm && out[m - 1].call == out[i].call &&
        /* sorted by size within a call: a size not below the last one's is the same */
        same_kind(&out[m - 1], &out[i]) && !(out[m - 1].bytes < out[i].bytes)) {
      if (out[i].actual > out[m - 1].actual)
        out[m - 1].actual = out[i].actual;
      continue;
    }
    out[m++] = out[i];
  }
  return m;
}

int gc_refit_records(const struct gc_log_record *all, int nall, struct gc_refit *out,
                     char *err, size_t errlen)
{
  *out = (struct gc_refit){.records = nall};
  if (nall <= 0 || !all) {
    snprintf(err, errlen, "no records with a prediction and an actual time");
    return -1;
  }
  struct gc_log_record *rec = malloc(sizeof *rec * (size_t)nall);
  if (!rec) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int n = one_per_call(all, nall, rec);
  int rc = refit_calls(rec, n, out, err, errlen);
  free(rec);
  return rc;
}

static void scale_lan(struct gc_lan *l, double x, double y)
{
  l->alpha *= x, l->delta *= x, l->beta *= y;
}

/* 1 when alpha, delta times x and beta times y stay within the loader's ranges; else 0,
 * with the first value beyond them in why. */
static int lan_within(const struct gc_lan *l, const char *where, double x, double y, char *why,
                      size_t len)
{
  const struct {
    const char *name;
    double v;
    enum gc_unit unit;
    enum gc_bound bound;
  } v[] = {{"alpha", l->alpha * x, GC_UNIT_TIME, GC_BOUND_POSITIVE},
           {"delta", l->delta * x, GC_UNIT_TIME, GC_BOUND_NONNEG},
           {"beta", l->beta * y, GC_UNIT_INVBW, GC_BOUND_POSITIVE}};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    if (!gc_physical_ok(v[i].unit, v[i].bound, v[i].v)) {
      snprintf(why, len, "%s.%s would be %.4g %s", where, v[i].name, v[i].v,
               v[i].unit == GC_UNIT_TIME ? "s" : "s/B");
      return 0;
    }
  return 1;
}

/* The same for every off-diagonal entry of a wan matrix, scaled by `by` (a latency) or
 * divided by it (a bandwidth). */
static int matrix_within(const double *m, int k, const char *name, enum gc_unit unit, double by,
                         char *why, size_t len)
{
  for (int i = 0; m && i < k * k; i++) {
    double v = unit == GC_UNIT_TIME ? m[i] * by : m[i] / by;
    if (i % (k + 1) != 0 && !gc_physical_ok(unit, GC_BOUND_POSITIVE, v)) {
      snprintf(why, len, "network.wan.%s[%d][%d] would be %.4g %s", name, i / k, i % k, v,
               unit == GC_UNIT_TIME ? "s" : "B/s");
      return 0;
    }
  }
  return 1;
}

static void refuse_beyond(struct gc_refit_level *l, const char *what)
{
  l->ok = 0;
  l->v.level = GC_FIT_REFUSED;
  snprintf(l->v.why, sizeof l->v.why, "the refit (start-up x%.3g, per byte x%.3g) goes "
           "beyond what gridcoll accepts: %s (config/physical.c)", l->x, l->y, what);
  snprintf(l->v.todo, sizeof l->v.todo, "calibrate this network (gridcoll-calibrate) "
           "rather than correct it");
}

void gc_refit_check_limits(const struct gc_config *cfg, struct gc_refit *f)
{
  struct gc_refit_level *lan = &f->level[GC_REFIT_LAN], *wan = &f->level[GC_REFIT_WAN];
  char why[96], where[32];
  if (lan->ok) {
    int ok = lan_within(&cfg->lan, "network.lan", lan->x, lan->y, why, sizeof why);
    for (int c = 0; ok && c < cfg->nclusters; c++) {
      snprintf(where, sizeof where, "clusters[%d].lan", c);
      ok = lan_within(&cfg->clusters[c].lan, where, lan->x, lan->y, why, sizeof why);
    }
    if (!ok)
      refuse_beyond(lan, why);
  }
  int k = cfg->nclusters;
  if (wan->ok &&
      !(matrix_within(cfg->wan_latency, k, "latency", GC_UNIT_TIME, wan->x, why, sizeof why) &&
        matrix_within(cfg->wan_bandwidth, k, "bandwidth", GC_UNIT_BANDWIDTH, wan->y, why,
                      sizeof why) &&
        matrix_within(cfg->wan_aggregate, k, "aggregate", GC_UNIT_BANDWIDTH, wan->y, why,
                      sizeof why)))
    refuse_beyond(wan, why);
}

void gc_refit_apply(struct gc_config *cfg, const struct gc_refit *f)
{
  const struct gc_refit_level *lan = &f->level[GC_REFIT_LAN], *wan = &f->level[GC_REFIT_WAN];
  if (lan->ok) {
    scale_lan(&cfg->lan, lan->x, lan->y);
    for (int c = 0; c < cfg->nclusters; c++)
      scale_lan(&cfg->clusters[c].lan, lan->x, lan->y);
  }
  if (!wan->ok)
    return;
  int k = cfg->nclusters;
  /* No matrices: the defaults (network.lan's alpha and 1/beta, before the lan refit) are
   * what the wide area was predicted with, so they become the matrices being scaled. */
  for (int i = 0; i < k * k; i++) {
    int a = i / k, b = i % k;
    if (a == b)
      continue;
    if (cfg->wan_latency)
      cfg->wan_latency[i] *= wan->x;
    if (cfg->wan_bandwidth)
      cfg->wan_bandwidth[i] /= wan->y;
    if (cfg->wan_aggregate)
      cfg->wan_aggregate[i] /= wan->y;
  }
}

/* ---- the configuration written back --------------------------------------------------- */
static void write_lan(FILE *f, const char *indent, const struct gc_lan *l)
{
  /* Base units and 17 digits: read back, every value is the same double. */
  fprintf(f, "%slan = { alpha = \"%.17g s\"; beta = \"%.17g s/B\"; gamma = %.17g;\n", indent,
          l->alpha, l->beta, l->gamma);
  fprintf(f, "%s        delta = \"%.17g s\"; threshold = \"%.17g B\"; };\n", indent,
          l->delta, l->threshold);
}

static void write_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void write_matrix(FILE *f, const char *key, const double *m, int k, const char *uname)
{
  if (!m)
    return;
  fprintf(f, "    %s = (", key);
  for (int a = 0; a < k; a++) {
    fprintf(f, "%s(", a ? ",\n      " : " ");
    for (int b = 0; b < k; b++)
      fprintf(f, "%s\"%.17g %s\"", b ? ", " : "", m[a * k + b], uname);
    fputc(')', f);
  }
  fprintf(f, " );\n");
}

/* The native table as it was: a refit scales the network's parameters, not what the MPI
 * library's own calls were measured to take. */
static void write_native(FILE *f, const struct gc_config *cfg)
{
  const struct gc_native *n = &cfg->native;
  if (n->procs <= 0)
    return;
  fprintf(f, "native = {\n  procs = %d;\n  sizes = [", n->procs);
  for (int c = 0; c < cfg->nclusters; c++)
    fprintf(f, "%s %d", c ? "," : "", n->sizes[c]);
  fprintf(f, " ];\n");
  if (gc_curve_set(&n->alltoall)) {
    fprintf(f, "  ");
    calibrate_write_points(f, "  ", "alltoall", &n->alltoall, 1);
  }
  int first = 1;
  for (int c = 0; n->bcast && c < cfg->nclusters; c++) {
    if (!gc_curve_set(&n->bcast[c]))
      continue;
    fprintf(f, "%s{ root = ", first ? "  bcast = ( " : ",\n            ");
    write_string(f, cfg->clusters[c].name);
    fprintf(f, "; ");
    calibrate_write_curve(f, "              ", &n->bcast[c], 1);
    fprintf(f, "            }");
    first = 0;
  }
  fprintf(f, "%s};\n", first ? "" : " );\n");
}

int gc_config_write(FILE *f, const struct gc_config *cfg, const char *header)
{
  for (const char *p = header; p && *p;) {
    size_t n = strcspn(p, "\n");
    fprintf(f, "# %.*s\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
  fprintf(f, "strict = %s;\nverbose = %d;\nprobe = %s;\nlearn = %s;\n",
          cfg->strict ? "true" : "false", cfg->verbose, cfg->probe ? "true" : "false",
          cfg->learn ? "true" : "false");
  if (cfg->topology == GC_TOPOLOGY_CLUSTERS && cfg->nclusters > 0) {
    fprintf(f, "clusters = (\n");
    for (int c = 0; c < cfg->nclusters; c++) {
      const struct gc_cluster_spec *x = &cfg->clusters[c];
      fprintf(f, "  { name = ");
      write_string(f, x->name);
      fprintf(f, ";\n");
      if (x->nhosts > 0) {
        fprintf(f, "    hosts = [");
        for (int h = 0; h < x->nhosts; h++) {
          fprintf(f, "%s", h ? ", " : " ");
          write_string(f, x->hosts[h]);
        }
        fprintf(f, " ];\n");
      }
      if (x->nranks > 0) {
        char buf[8192];
        fprintf(f, "    ranks = \"%s\";\n", gc_ranges_format(x->ranks, x->nranks, buf, sizeof buf));
      }
      if (x->site[0]) {
        fprintf(f, "    site = ");
        write_string(f, x->site);
        fprintf(f, ";\n");
      }
      if (x->hetero.set) {
        const struct gc_hetero *h = &x->hetero;
        fprintf(f, "    hetero = { C = \"%.17g s\"; t = \"%.17g s/B\"; rate = \"%.17g B/s\";\n"
                   "               S = \"%.17g B\"; Gamma = \"%.17g s\"; tau = \"%.17g s/B\"; };\n",
                h->C, h->t, h->rate, h->S, h->Gamma, h->tau);
      }
      write_lan(f, "    ", &x->lan);
      fprintf(f, "  }%s\n", c + 1 < cfg->nclusters ? "," : "");
    }
    fprintf(f, ");\n");
  }
  fprintf(f, "network = {\n");
  write_lan(f, "  ", &cfg->lan);
  if (cfg->wan_latency || cfg->wan_bandwidth || cfg->wan_aggregate) {
    fprintf(f, "  wan = {\n");
    write_matrix(f, "latency", cfg->wan_latency, cfg->nclusters, "s");
    write_matrix(f, "bandwidth", cfg->wan_bandwidth, cfg->nclusters, "B/s");
    write_matrix(f, "aggregate", cfg->wan_aggregate, cfg->nclusters, "B/s");
    fprintf(f, "    window = \"%.17g B\";\n", cfg->wan_window);
    fprintf(f, "  };\n");
  }
  fprintf(f, "};\n");
  write_native(f, cfg);
  /* Every operation's group (op_info.h), with the keys some add (config_keys.c). */
  for (int op = 0; op < GC_OP_LAST; op++) {
    fprintf(f, "%s = { algorithm = ", gc_op_table[op].name);
    write_string(f, cfg->algorithm[op]);
    if (op == GC_OP_ALLTOALL)
      fprintf(f, "; native_pairwise = \"%.17g B\"", cfg->alltoall_pairwise);
    else if (op == GC_OP_BCAST)
      fprintf(f, "; segment = \"%.17g B\"; native_eager = \"%.17g B\"", cfg->bcast_segment,
              cfg->bcast_eager);
    fprintf(f, "; };\n");
  }
  fprintf(f, "log = { file = ");
  write_string(f, cfg->log_file ? cfg->log_file : "");
  fprintf(f, "; mode = \"%s\";", cfg->log_mode == GC_LOG_LOCAL ? "local" : "sync");
  if (cfg->log_summary >= 0)
    fprintf(f, " summary = %s;", cfg->log_summary ? "true" : "false");
  fprintf(f, " summary_file = ");
  write_string(f, cfg->summary_file ? cfg->summary_file : "");
  fprintf(f, "; candidates = %s; };\n", cfg->log_candidates ? "true" : "false");
  return ferror(f) ? -1 : 0;
}

static int refit_calls(const struct gc_log_record *rec, int n, struct gc_refit *out, char *err,
                       size_t errlen)
{
  struct gc_fit_scale_sample *s = malloc(sizeof *s * (size_t)n);
  int *lvl = malloc(sizeof *lvl * (size_t)n);
  if (!s || !lvl) {
    free(s), free(lvl);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  split_predictions(rec, n, s, lvl, &out->skipped);
  for (int l = 0; l < GC_REFIT_LEVELS; l++)
    fit_level(s, lvl, n, l, &out->level[l]);
  free(s), free(lvl);
  if (!out->level[GC_REFIT_LAN].ok && !out->level[GC_REFIT_WAN].ok) {
    snprintf(err, errlen, "nothing could be refitted from %d calls (%d of a kind of call "
             "seen at one size only): run the application over several message sizes", n,
             out->skipped);
    return -1;
  }
  return 0;
}
