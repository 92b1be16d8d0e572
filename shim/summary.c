#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gridcoll.h"
#include "histogram.h"
#include "output.h"
#include "prediction.h"
#include "summary.h"

/* A row per operation, algorithm, communicator size, size bucket and phase: the first
 * call on a communicator (its set-up: private duplicate, probe, trees) apart from the
 * others. Communicator sizes are any int, so the rows a rank used are kept sparse (a
 * hash table) and merged at MPI_Finalize over the union of every rank's keys. */
/* Summed fields of a row, reduced with MPI_SUM. */
enum { F_CALLS, F_ACTUAL, F_OWN, F_WAIT, F_WAIT_CALLS, F_PREDICTED, F_PREDICTED_CALLS,
       F_EXPLORED, F_EXPLORED_OWN, /* calls `auto` measured for learning, their own time */
       F_LAST };

/* A row's key, ordered as the table prints: phase, op, algorithm, communicator size,
 * bucket (0 to 64, gc_summary_bucket). Never 0 (a row's communicator has 2 processes or
 * more): 0 marks a free slot. */
typedef unsigned long long row_key;
_Static_assert(GC_OP_LAST <= 0xff && GC_MAX_ALGORITHMS <= 0xff, "op and algorithm: 8 bits each");

static row_key key_of(int phase, int op, int algorithm, int comm_size, int bucket)
{
  return (row_key)phase << 60 | (row_key)op << 52 | (row_key)algorithm << 44 |
         (row_key)(unsigned)comm_size << 8 | (row_key)bucket;
}

static int key_phase(row_key k) { return (int)(k >> 60); }
static int key_op(row_key k) { return (int)(k >> 52 & 0xff); }
static int key_algorithm(row_key k) { return (int)(k >> 44 & 0xff); }
static int key_comm_size(row_key k) { return (int)(k >> 8 & 0xffffffffu); }
static int key_bucket(row_key k) { return (int)(k & 0xff); }

/* The signed error (predicted - own) / own of a row's calls (histogram.h), allocated at
 * its first prediction. The model is scored against the collective's own time
 * (span_time.h): a late rank's wait is no error of the model, the wait column shows it. */
struct row {
  row_key key;
  double sums[F_LAST];
  double max_actual;
  struct gc_signed_histogram *error;
};

static struct {
  int enabled;
  struct row *rows; /* open addressing, cap a power of two, at most half full */
  size_t cap, n;
  /* Calls on one-process communicators, per op: counted, never scored (nothing moves,
   * the model predicts 0 and any time is a "100 %" error). */
  double trivial[GC_OP_LAST];
  pthread_mutex_t lock;
} sm = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t slot_of(const struct row *rows, size_t cap, row_key k)
{
  size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
  while (rows[i].key && rows[i].key != k)
    i = (i + 1) & (cap - 1);
  return i;
}

/* Doubles the table (64 rows at first); 0, or -1 when memory ran out (said once here). */
static int grow(void)
{
  size_t cap = sm.cap ? 2 * sm.cap : 64;
  struct row *rows = calloc(cap, sizeof *rows);
  if (!rows) {
    gc_warn_oom("a row of the summary; its table leaves out calls");
    return -1;
  }
  for (size_t i = 0; i < sm.cap; i++)
    if (sm.rows[i].key)
      rows[slot_of(rows, cap, sm.rows[i].key)] = sm.rows[i];
  free(sm.rows);
  sm.rows = rows, sm.cap = cap;
  return 0;
}

/* The row of key k, made when new; NULL when memory ran out. */
static struct row *row_at(row_key k)
{
  if (sm.cap) {
    struct row *r = &sm.rows[slot_of(sm.rows, sm.cap, k)];
    if (r->key == k)
      return r;
  }
  if (2 * (sm.n + 1) > sm.cap && grow() < 0)
    return NULL;
  struct row *r = &sm.rows[slot_of(sm.rows, sm.cap, k)];
  r->key = k;
  sm.n++;
  return r;
}

static void error_add(struct row *r, double e)
{
  if (!r->error && !(r->error = calloc(1, sizeof *r->error))) {
    gc_warn_oom("a histogram of the summary; its median error leaves out calls");
    return;
  }
  gc_signed_histogram_add(r->error, e);
}

int gc_summary_bucket(size_t bytes)
{
  /* The bit length of bytes, in one instruction rather than one loop turn a bit. */
  return bytes ? 64 - __builtin_clzll((unsigned long long)bytes) : 0;
}

static void free_rows(void)
{
  for (size_t i = 0; i < sm.cap; i++)
    free(sm.rows[i].error);
  free(sm.rows);
  sm.rows = NULL, sm.cap = sm.n = 0;
}

void gc_summary_reset(int enabled)
{
  free_rows();
  memset(sm.trivial, 0, sizeof sm.trivial);
  sm.enabled = enabled;
}

static void row_add(struct row *r, double predicted, double actual, double own, double wait,
                    int explored)
{
  r->sums[F_CALLS] += 1;
  if (explored) {
    r->sums[F_EXPLORED] += 1;
    r->sums[F_EXPLORED_OWN] += own;
  }
  r->sums[F_ACTUAL] += actual;
  r->sums[F_OWN] += own;
  if (actual > r->max_actual)
    r->max_actual = actual;
  if (wait >= 0) {
    r->sums[F_WAIT] += wait;
    r->sums[F_WAIT_CALLS] += 1;
  }
  if (predicted >= 0) {
    r->sums[F_PREDICTED] += predicted;
    r->sums[F_PREDICTED_CALLS] += 1;
    if (own > 0)
      error_add(r, (predicted - own) / own);
  }
}

void gc_summary_add(enum gc_op_id op, int algorithm, int first, int comm_size, size_t bytes,
                    double predicted, double actual, double own, double wait, int explored)
{
  if (!sm.enabled || algorithm < 0 || algorithm >= GC_MAX_ALGORITHMS ||
      (unsigned)op >= GC_OP_LAST || comm_size < 1)
    return;
  /* Checked as the dispatch checked it (prediction.h): a row's mean stays finite. */
  predicted = gc_prediction_checked(predicted);
  /* Only threads calling MPI at once can race here (the log's own rule, log.c). */
  int lock = gc_g.thread_level == MPI_THREAD_MULTIPLE;
  if (lock)
    pthread_mutex_lock(&sm.lock);
  if (comm_size == 1) {
    sm.trivial[op] += 1;
  } else {
    struct row *r = row_at(key_of(first != 0, op, algorithm, comm_size, gc_summary_bucket(bytes)));
    if (r)
      row_add(r, predicted, actual, own, wait, explored);
  }
  if (lock)
    pthread_mutex_unlock(&sm.lock);
}

/* "123.4 us": times span nanoseconds to minutes. */
static const char *human_time(double s, char *buf, size_t len)
{
  if (s < 1e-6)
    snprintf(buf, len, "%.1f ns", s * 1e9);
  else if (s < 1e-3)
    snprintf(buf, len, "%.1f us", s * 1e6);
  else if (s < 1)
    snprintf(buf, len, "%.2f ms", s * 1e3);
  else
    snprintf(buf, len, "%.3f s", s);
  return buf;
}

static const char *human_size(double bytes, char *buf, size_t len)
{
  static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024 && u < 6) {
    bytes /= 1024;
    u++;
  }
  snprintf(buf, len, "%.0f %s", bytes, unit[u]);
  return buf;
}

static void bucket_label(int b, char *buf, size_t len)
{
  char lo[32], hi[32];
  if (b == 0)
    snprintf(buf, len, "0 B");
  else
    snprintf(buf, len, "[%s, %s)", human_size(ldexp(1, b - 1), lo, sizeof lo),
             human_size(ldexp(1, b), hi, sizeof hi));
}

/* A merged row as it travels at MPI_Finalize: every field summed (MPI_SUM over doubles);
 * the maximum apart. */
struct cell {
  double sums[F_LAST];
  struct gc_signed_histogram error;
};
_Static_assert(sizeof(struct cell) == (F_LAST + 4 * GC_HISTOGRAM_BINS) * sizeof(double),
               "struct cell travels as plain doubles");

/* What world rank 0 prints: the union of every rank's rows, in key order. */
struct table {
  int m;
  row_key *keys;
  struct cell *cells;
  double *max_actual;
  double trivial[GC_OP_LAST];
};

/* "+240 %": an error in percent, with its sign when asked. */
static const char *percent(double e, int sign, char *buf, size_t len)
{
  snprintf(buf, len, sign ? "%+.3g %%" : "%.3g %%", 100 * e);
  return buf;
}

/* The error columns of a row: its signed median, the middle half of its signed errors,
 * its median |error|; "-" where no call was scored. */
static void error_columns(const struct gc_signed_histogram *h, char *med, char *mid, char *abs_,
                          size_t len)
{
  double m = gc_signed_histogram_quantile(h, 0.5);
  if (isnan(m))
    return;
  char lo[32], hi[32];
  percent(m, 1, med, len);
  snprintf(mid, len, "%s .. %s", percent(gc_signed_histogram_quantile(h, 0.25), 1, lo, sizeof lo),
           percent(gc_signed_histogram_quantile(h, 0.75), 1, hi, sizeof hi));
  percent(gc_signed_histogram_abs_median(h), 0, abs_, len);
}

static void print_row(FILE *f, const char *prefix, const struct table *t, int i,
                      gc_summary_namer *name)
{
  const double *sums = t->cells[i].sums;
  double n = sums[F_CALLS], np = sums[F_PREDICTED_CALLS], nw = sums[F_WAIT_CALLS];
  char size[80], mean[32], max[32], own[32], wait[32] = "-", pred[32] = "-", med[80] = "-",
       mid[80] = "-", abs_[80] = "-";
  bucket_label(key_bucket(t->keys[i]), size, sizeof size);
  if (nw > 0) /* none in local mode */
    human_time(sums[F_WAIT] / nw, wait, sizeof wait);
  if (np > 0)
    human_time(sums[F_PREDICTED] / np, pred, sizeof pred);
  error_columns(&t->cells[i].error, med, mid, abs_, sizeof mid);
  int op = key_op(t->keys[i]);
  fprintf(f, "%s%-9s %-10s %5d %-20s %7.0f %12s %12s %12s %12s %14s %12s %26s %14s\n", prefix,
          name(op, -1), name(op, key_algorithm(t->keys[i])), key_comm_size(t->keys[i]), size, n,
          human_time(sums[F_ACTUAL] / n, mean, sizeof mean),
          human_time(t->max_actual[i], max, sizeof max), wait,
          human_time(sums[F_OWN] / n, own, sizeof own), pred, med, mid, abs_);
}

static void print_rows(FILE *f, const char *prefix, int phase, const struct table *t,
                       gc_summary_namer *name)
{
  for (int i = 0; i < t->m; i++)
    if (key_phase(t->keys[i]) == phase && t->cells[i].sums[F_CALLS] >= 1)
      print_row(f, prefix, t, i, name);
}

/* Learning's cost (learn.h), per operation, communicator size and size bucket, the
 * first call on each communicator left out (its set-up is no exploration's): the calls
 * `auto` measured, their regret (own time above the fastest algorithm's mean own time in
 * the bucket), and the algorithm kept (the one most calls ran unmeasured). Lines start
 * "learning", so that readers of the table above skip them. */
static void print_learning(FILE *f, const char *prefix, const struct table *t,
                           gc_summary_namer *name)
{
  int header = 0;
  for (int i = 0; i < t->m; i++) {
    row_key k = t->keys[i];
    if (key_phase(k))
      continue;
    int first = 1, kept = -1;
    double calls = 0, explored = 0, explored_own = 0, own = 0, best = INFINITY, most = -1;
    for (int j = 0; j < t->m; j++) {
      row_key q = t->keys[j];
      if (key_phase(q) || key_op(q) != key_op(k) || key_comm_size(q) != key_comm_size(k) ||
          key_bucket(q) != key_bucket(k))
        continue;
      if (j < i) { /* the group was printed at its first row */
        first = 0;
        break;
      }
      const double *sums = t->cells[j].sums;
      calls += sums[F_CALLS], own += sums[F_OWN];
      explored += sums[F_EXPLORED], explored_own += sums[F_EXPLORED_OWN];
      if (sums[F_CALLS] >= 1 && sums[F_OWN] / sums[F_CALLS] < best)
        best = sums[F_OWN] / sums[F_CALLS];
      if (sums[F_CALLS] - sums[F_EXPLORED] > most)
        most = sums[F_CALLS] - sums[F_EXPLORED], kept = key_algorithm(q);
    }
    if (!first || explored < 1)
      continue;
    if (!header) {
      fprintf(f, "%slearning (auto): explored = calls measured for learning; regret = their own "
                 "time above the fastest algorithm's mean own time in the row, and its share of "
                 "the row's own time; kept = what most other calls ran\n", prefix);
      fprintf(f, "%slearning %-9s %5s %-20s %7s %8s %12s %8s %-10s\n", prefix, "op", "procs",
              "message size", "calls", "explored", "regret", "share", "kept");
      header = 1;
    }
    double regret = fmax(0, explored_own - explored * best);
    char size[80], r[32];
    bucket_label(key_bucket(k), size, sizeof size);
    fprintf(f, "%slearning %-9s %5d %-20s %7.0f %8.0f %12s %7.1f%% %-10s\n", prefix,
            name(key_op(k), -1), key_comm_size(k), size, calls, explored,
            human_time(regret, r, sizeof r), own > 0 ? 100 * regret / own : 0.0,
            kept >= 0 ? name(key_op(k), kept) : "-");
  }
}

/* "network: ..." of the heading: a reader must know whether the predictions come from a
 * measured grid or from the built-in Gigabit Ethernet defaults (100-2500 % off on a real
 * run, issue 25). */
static const char *network_origin(const struct gc_config *cfg)
{
  if (cfg->network_given)
    return "network: from the configuration file";
  return cfg->probe ? "network: defaults, not calibrated (wide-area latency probed; run "
                      "gridcoll-calibrate)"
                    : "network: defaults, not calibrated (run gridcoll-calibrate)";
}

/* The calls on one-process communicators, on a line of their own: no data moves, so
 * their time is no test of the model. */
static void print_trivial(FILE *f, const char *prefix, const struct table *t,
                          gc_summary_namer *name)
{
  double n = 0;
  for (int op = 0; op < GC_OP_LAST; op++)
    n += t->trivial[op];
  if (n < 1)
    return;
  fprintf(f, "%sone-process communicators, not scored (no data moves): %.0f call(s):", prefix, n);
  for (int op = 0; op < GC_OP_LAST; op++)
    if (t->trivial[op] >= 1)
      fprintf(f, " %s %.0f", name(op, -1), t->trivial[op]);
  fputc('\n', f);
}

static void print_table(FILE *f, const char *prefix, const struct gc_config *cfg,
                        const struct table *t, gc_summary_namer *name)
{
  int sync = cfg->log_mode == GC_LOG_SYNC;
  double total = 0, first = 0;
  for (int op = 0; op < GC_OP_LAST; op++)
    total += t->trivial[op];
  for (int i = 0; i < t->m; i++) {
    total += t->cells[i].sums[F_CALLS];
    first += key_phase(t->keys[i]) ? t->cells[i].sums[F_CALLS] : 0;
  }
  /* One line of definitions: the tests and tools that tell warnings from the table know
   * the table's lines by their start (summary of, op, an op's name, first call,
   * one-process). Nothing timed (a program whose collectives are all nonblocking or
   * persistent: their lines are the log's alone): that line alone, saying so. */
  if (total < 1) {
    fprintf(f, "%ssummary of 0 call(s) on %d rank(s): no blocking collective was timed "
               "(nonblocking and persistent calls are in the log, not in this table)\n",
            prefix, gc_g.world_size);
    return;
  }
  fprintf(f, "%ssummary of %.0f call(s) on %d rank(s); %s; actual = %s; means are over a row's "
          "calls (one slow call moves them); error = (predicted - own) / own per call, + "
          "over-predicted, - under: its median, its middle half (p25 .. p75), the median of "
          "|error|\n",
          prefix, total, gc_g.world_size, network_origin(cfg),
          sync ? "completion time of the collective, first entry (a broadcast's root's) to "
                 "last exit (sync mode); own = its own time, from the last entry (a "
                 "broadcast's root's) to the last exit, what the model is scored against; "
                 "wait = last entry less first (a broadcast: how late its root came)"
               : "time seen by rank 0 of each communicator (local mode); own = actual, no wait");
  fprintf(f, "%s%-9s %-10s %5s %-20s %7s %12s %12s %12s %12s %14s %12s %26s %14s\n", prefix, "op",
          "algorithm", "procs", "message size", "calls", "mean actual", "max actual",
          "mean wait", "mean own", "mean predicted", "median error", "error p25 .. p75",
          "median |error|");
  print_rows(f, prefix, 0, t, name);
  if (first > 0) {
    fprintf(f, "%sfirst call on each communicator (set-up included), apart from the rows above:\n",
            prefix);
    print_rows(f, prefix, 1, t, name);
  }
  print_trivial(f, prefix, t, name);
  print_learning(f, prefix, t, name);
}

/* Whether every rank has what it allocated (ok), agreed over MPI_COMM_WORLD: a rank short
 * of memory has said so (gc_warn_oom), and every rank then takes the same road. */
static int agreed(int ok)
{
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return ok;
}

static int key_cmp(const void *a, const void *b)
{
  row_key x = *(const row_key *)a, y = *(const row_key *)b;
  return (x > y) - (x < y);
}

/* Sorts keys[0..n) and drops repeats; the count left. */
static int sorted_unique(row_key *keys, int n)
{
  qsort(keys, (size_t)n, sizeof *keys, key_cmp);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (m == 0 || keys[i] != keys[m - 1])
      keys[m++] = keys[i];
  return m;
}

/* This rank's keys gathered on world rank 0: *all holds them (*n), unsorted. Collective;
 * 0, or -1 when memory ran out on some rank. */
static int gather_keys(row_key **all, int *n)
{
  int mine_n = (int)sm.n, size = gc_g.world_size, root = gc_g.world_rank == 0, ok;
  row_key *mine = malloc((sm.n + 1) * sizeof *mine);
  int *counts = root ? malloc((size_t)size * sizeof *counts) : NULL;
  int *displs = root ? malloc((size_t)size * sizeof *displs) : NULL;
  ok = mine && (!root || (counts && displs));
  if (!ok)
    gc_warn_oom("the summary's rows at MPI_Finalize; its table shows none");
  *all = NULL, *n = 0;
  if ((ok = agreed(ok))) {
    for (size_t i = 0, k = 0; i < sm.cap; i++)
      if (sm.rows[i].key)
        mine[k++] = sm.rows[i].key;
    PMPI_Gather(&mine_n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; root && r < size; r++)
      displs[r] = *n, *n += counts[r];
    ok = !root || (*all = malloc(((size_t)*n + 1) * sizeof **all));
    if (!ok)
      gc_warn_oom("the summary's rows at MPI_Finalize; its table shows none");
    if ((ok = agreed(ok)))
      PMPI_Gatherv(mine, mine_n, MPI_UNSIGNED_LONG_LONG, *all, counts, displs,
                   MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  }
  free(mine);
  free(counts);
  free(displs);
  return ok ? 0 : -1;
}

/* The union of every rank's keys, sorted, on every rank: t->keys, t->m. Collective; 0, or
 * -1 when memory ran out on some rank (t->keys NULL). */
static int union_keys(struct table *t)
{
  int n;
  if (gather_keys(&t->keys, &n) < 0)
    return -1;
  t->m = gc_g.world_rank == 0 ? sorted_unique(t->keys, n) : 0;
  PMPI_Bcast(&t->m, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int ok = gc_g.world_rank == 0 || (t->keys = malloc(((size_t)t->m + 1) * sizeof *t->keys));
  if (!ok)
    gc_warn_oom("the summary's rows at MPI_Finalize; its table shows none");
  if (!agreed(ok))
    return -1;
  PMPI_Bcast(t->keys, t->m, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  return 0;
}

/* This rank's rows in the order of t->keys (zero where it has none). */
static void fill_mine(const struct table *t, struct cell *cells, double *max_actual)
{
  for (int i = 0; i < t->m; i++) {
    struct row *r = sm.cap ? &sm.rows[slot_of(sm.rows, sm.cap, t->keys[i])] : NULL;
    if (!r || r->key != t->keys[i])
      continue;
    memcpy(cells[i].sums, r->sums, sizeof r->sums);
    if (r->error)
      cells[i].error = *r->error;
    max_actual[i] = r->max_actual;
  }
}

/* Every rank's rows summed on world rank 0 into t. Collective over MPI_COMM_WORLD. When
 * memory ran out somewhere (agreed), t holds no rows: the heading and the one-process
 * line still come. */
static void merge(struct table *t)
{
  PMPI_Reduce(sm.trivial, t->trivial, GC_OP_LAST, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (union_keys(t) < 0) {
    free(t->keys);
    t->keys = NULL, t->m = 0;
    return;
  }
  int root = gc_g.world_rank == 0;
  size_t m = (size_t)t->m + 1;
  struct cell *cells = calloc(m, sizeof *cells);
  double *max_actual = calloc(m, sizeof *max_actual);
  t->cells = root ? calloc(m, sizeof *t->cells) : NULL;
  t->max_actual = root ? calloc(m, sizeof *t->max_actual) : NULL;
  int ok = cells && max_actual && (!root || (t->cells && t->max_actual));
  if (!ok)
    gc_warn_oom("the summary's rows at MPI_Finalize; its table shows none");
  if (agreed(ok)) {
    fill_mine(t, cells, max_actual);
    PMPI_Reduce(cells, t->cells, t->m * (int)(sizeof *cells / sizeof(double)), MPI_DOUBLE,
                MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Reduce(max_actual, t->max_actual, t->m, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  } else {
    t->m = 0;
  }
  free(cells);
  free(max_actual);
}

static void free_table(struct table *t)
{
  free(t->keys);
  free(t->cells);
  free(t->max_actual);
  memset(t, 0, sizeof *t);
}

void gc_summary_finalize(const struct gc_config *cfg, gc_summary_namer *name)
{
  if (!sm.enabled)
    return;
  struct table t = {0};
  merge(&t);
  gc_summary_reset(0); /* frees this rank's rows */
  if (gc_g.world_rank != 0) {
    free_table(&t);
    return;
  }
  FILE *f = stderr;
  char path[4096], why[4200];
  if (cfg->summary_file) {
    f = NULL;
    int e = 0;
    if (gc_log_expand_path(cfg->summary_file, 0, path, sizeof path) != 0)
      snprintf(why, sizeof why, "log.summary_file (a name longer than %zu bytes)", sizeof path - 1);
    else if (!(f = gc_open_output(path, why, sizeof why)))
      e = errno;
    if (!f && e == ENOMEM)
      gc_warn_oom("opening the summary file %s; printing it here", path);
    else if (!f)
      gc_warn("cannot write the summary to %s; printing it here", why);
    f = f ? f : stderr;
  }
  print_table(f, f == stderr ? "gridcoll: " : "", cfg, &t, name);
  free_table(&t);
  if (f != stderr) {
    /* A full disk shows only here (the table fits in stdio's buffer): warn, as the log does. */
    int bad = ferror(f) != 0;
    bad = fclose(f) != 0 || bad;
    if (bad)
      gc_warn("cannot write the summary to %s: %s; it is lost", path, strerror(errno));
  }
}
