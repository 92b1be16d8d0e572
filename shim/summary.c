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

#define GC_BUCKETS 66 /* 0 bytes, then one per power of two up to 2^64 */
/* A cell per operation, algorithm, size bucket and phase: the first call on a
 * communicator (its set-up: private duplicate, probe, trees) apart from the others. */
#define GC_PHASES 2
#define GC_CELLS (GC_PHASES * GC_OP_LAST * GC_MAX_ALGORITHMS * GC_BUCKETS)

/* Summed fields, in one array per field so one MPI_SUM reduces them all. */
enum { F_CALLS, F_ACTUAL, F_OWN, F_WAIT, F_WAIT_CALLS, F_PREDICTED, F_PREDICTED_CALLS, F_LAST };

/* |predicted - own| / own, as a histogram per cell (histogram.h), allocated at the cell's
 * first prediction; at MPI_Finalize only the cells some rank used travel. The model is
 * scored against the collective's own time (span_time.h): a late rank's wait is no
 * error of the model, and the wait column shows it apart. */
static struct {
  int enabled;
  double sums[F_LAST][GC_CELLS];
  double max_actual[GC_CELLS];
  struct gc_histogram *error[GC_CELLS];
  pthread_mutex_t lock;
} sm = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void error_add(int c, double e)
{
  if (!sm.error[c] && !(sm.error[c] = calloc(1, sizeof *sm.error[c]))) {
    gc_warn_oom("a histogram of the summary; its median |error| leaves out calls");
    return;
  }
  gc_histogram_add(sm.error[c], e);
}

int gc_summary_bucket(size_t bytes)
{
  /* The bit length of bytes, in one instruction rather than one loop turn a bit. */
  return bytes ? 64 - __builtin_clzll((unsigned long long)bytes) : 0;
}

static int cell(int phase, int op, int algorithm, int bucket)
{
  return ((phase * GC_OP_LAST + op) * GC_MAX_ALGORITHMS + algorithm) * GC_BUCKETS + bucket;
}

void gc_summary_reset(int enabled)
{
  memset(sm.sums, 0, sizeof sm.sums);
  memset(sm.max_actual, 0, sizeof sm.max_actual);
  for (int c = 0; c < GC_CELLS; c++) {
    free(sm.error[c]);
    sm.error[c] = NULL;
  }
  sm.enabled = enabled;
}

void gc_summary_add(enum gc_op_id op, int algorithm, int first, size_t bytes, double predicted,
                    double actual, double own, double wait)
{
  if (!sm.enabled || algorithm < 0 || algorithm >= GC_MAX_ALGORITHMS ||
      (unsigned)op >= GC_OP_LAST)
    return;
  int c = cell(first != 0, op, algorithm, gc_summary_bucket(bytes));
  /* Checked as the dispatch checked it (prediction.h): a row's mean stays finite. */
  predicted = gc_prediction_checked(predicted);
  /* Only threads calling MPI at once can race here (the log's own rule, log.c). */
  int lock = gc_g.thread_level == MPI_THREAD_MULTIPLE;
  if (lock)
    pthread_mutex_lock(&sm.lock);
  sm.sums[F_CALLS][c] += 1;
  sm.sums[F_ACTUAL][c] += actual;
  sm.sums[F_OWN][c] += own;
  if (actual > sm.max_actual[c])
    sm.max_actual[c] = actual;
  if (wait >= 0) {
    sm.sums[F_WAIT][c] += wait;
    sm.sums[F_WAIT_CALLS][c] += 1;
  }
  if (predicted >= 0) {
    sm.sums[F_PREDICTED][c] += predicted;
    sm.sums[F_PREDICTED_CALLS][c] += 1;
    if (own > 0)
      error_add(c, fabs(predicted - own) / own);
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

static void print_rows(FILE *f, const char *prefix, int phase, double (*sums)[GC_CELLS],
                       const double *max_actual, struct gc_histogram **error,
                       gc_summary_namer *name)
{
  for (int op = 0; op < GC_OP_LAST; op++)
    for (int a = 0; a < GC_MAX_ALGORITHMS; a++)
      for (int b = 0; b < GC_BUCKETS; b++) {
        int c = cell(phase, op, a, b);
        double n = sums[F_CALLS][c];
        if (n < 1) /* a count of calls: none */
          continue;
        char size[80], mean[32], max[32], own[32], wait[32] = "-", pred[32] = "-",
             err[32] = "-";
        bucket_label(b, size, sizeof size);
        double np = sums[F_PREDICTED_CALLS][c], median = gc_histogram_median(error[c]),
               nw = sums[F_WAIT_CALLS][c];
        if (nw > 0) /* none in local mode */
          human_time(sums[F_WAIT][c] / nw, wait, sizeof wait);
        if (np > 0)
          human_time(sums[F_PREDICTED][c] / np, pred, sizeof pred);
        if (median >= 0)
          snprintf(err, sizeof err, "%.3g %%", 100 * median);
        fprintf(f, "%s%-9s %-10s %-20s %7.0f %12s %12s %12s %12s %14s %14s\n", prefix,
                name(op, -1), name(op, a), size, n,
                human_time(sums[F_ACTUAL][c] / n, mean, sizeof mean),
                human_time(max_actual[c], max, sizeof max),
                human_time(sums[F_OWN][c] / n, own, sizeof own), wait, pred, err);
      }
}

static void print_table(FILE *f, const char *prefix, int sync, double (*sums)[GC_CELLS],
                        const double *max_actual, struct gc_histogram **error,
                        gc_summary_namer *name)
{
  double total = 0, first = 0;
  for (int c = 0; c < GC_CELLS; c++)
    total += sums[F_CALLS][c];
  for (int c = cell(1, 0, 0, 0); c < GC_CELLS; c++)
    first += sums[F_CALLS][c];
  /* One line of definitions: the tests and tools that tell warnings from the table know
   * the table's lines by their start (summary of, op, an op's name, first call). */
  fprintf(f, "%ssummary of %.0f call(s) on %d rank(s); actual = %s\n", prefix, total,
          gc_g.world_size,
          sync ? "completion time of the collective, first entry (a broadcast's root's) to "
                 "last exit (sync mode); own = its own time, from the last entry (a "
                 "broadcast's root's) to the last exit, what |error| = |predicted - own| / own "
                 "scores; wait = last entry less first (a broadcast: how late its root came)"
               : "time seen by rank 0 of each communicator (local mode); own = actual, no wait");
  fprintf(f, "%s%-9s %-10s %-20s %7s %12s %12s %12s %12s %14s %14s\n", prefix, "op",
          "algorithm", "message size", "calls", "mean actual", "max actual", "mean own",
          "mean wait", "mean predicted", "median |error|");
  print_rows(f, prefix, 0, sums, max_actual, error, name);
  if (first > 0) {
    fprintf(f, "%sfirst call on each communicator (set-up included), apart from the rows above:\n",
            prefix);
    print_rows(f, prefix, 1, sums, max_actual, error, name);
  }
}

static void free_errors(struct gc_histogram **error)
{
  for (int c = 0; c < GC_CELLS; c++) {
    free(error[c]);
    error[c] = NULL;
  }
}

/* The histograms of the cells any rank used, summed on world rank 0 into error[].
 * Collective over MPI_COMM_WORLD. When memory ran out somewhere (agreed), error[] stays
 * empty: the table still comes, its sums reduced already, without medians. */
static void merge_errors(struct gc_histogram **error)
{
  static int used[GC_CELLS];
  int n = 0, ok = 1;
  for (int c = 0; c < GC_CELLS; c++)
    used[c] = sm.error[c] != NULL;
  PMPI_Allreduce(MPI_IN_PLACE, used, GC_CELLS, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int c = 0; c < GC_CELLS; c++)
    n += used[c];
  struct gc_histogram *mine = calloc((size_t)n + 1, sizeof *mine), *all = NULL;
  if (gc_g.world_rank == 0)
    all = calloc((size_t)n + 1, sizeof *all);
  ok = mine && (gc_g.world_rank != 0 || all);
  if (!ok)
    gc_warn_oom("the summary's histograms at MPI_Finalize; its table shows no median |error|");
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (ok && n > 0) {
    for (int c = 0, k = 0; c < GC_CELLS; c++)
      if (used[c] && sm.error[c])
        mine[k++] = *sm.error[c];
      else
        k += used[c];
    PMPI_Reduce(mine, all, n * 2 * GC_HISTOGRAM_BINS, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int c = 0, k = 0; gc_g.world_rank == 0 && c < GC_CELLS; c++) {
      if (!used[c])
        continue;
      if ((error[c] = malloc(sizeof *error[c])))
        *error[c] = all[k];
      else
        gc_warn_oom("a histogram of the summary at MPI_Finalize; a row shows no median "
                    "|error|");
      k++;
    }
  }
  free(mine);
  free(all);
}

void gc_summary_finalize(const struct gc_config *cfg, gc_summary_namer *name)
{
  int sync = cfg->log_mode == GC_LOG_SYNC;
  if (!sm.enabled)
    return;
  static double sums[F_LAST][GC_CELLS], max_actual[GC_CELLS];
  static struct gc_histogram *error[GC_CELLS];
  PMPI_Reduce(sm.sums, sums, F_LAST * GC_CELLS, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(sm.max_actual, max_actual, GC_CELLS, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  merge_errors(error);
  gc_summary_reset(0); /* frees this rank's histograms */
  if (gc_g.world_rank != 0) {
    free_errors(error);
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
  print_table(f, f == stderr ? "gridcoll: " : "", sync, sums, max_actual, error, name);
  free_errors(error);
  if (f != stderr) {
    /* A full disk shows only here (the table fits in stdio's buffer): warn, as the log does. */
    int bad = ferror(f) != 0;
    bad = fclose(f) != 0 || bad;
    if (bad)
      gc_warn("cannot write the summary to %s: %s; it is lost", path, strerror(errno));
  }
}
