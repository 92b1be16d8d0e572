#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gridcoll.h"
#include "log.h"
#include "summary.h"

#define GC_BUCKETS 66 /* 0 bytes, then one per power of two up to 2^64 */
#define GC_CELLS (GC_OP_LAST * GC_MAX_ALGORITHMS * GC_BUCKETS)

/* Summed fields, in one array per field so one MPI_SUM reduces them all. */
enum { F_CALLS, F_ACTUAL, F_PREDICTED, F_PREDICTED_CALLS, F_ERROR, F_LAST };

static struct {
  int enabled;
  double sums[F_LAST][GC_CELLS];
  double max_actual[GC_CELLS];
  pthread_mutex_t lock;
} sm = {.lock = PTHREAD_MUTEX_INITIALIZER};

int gc_summary_bucket(size_t bytes)
{
  int b = 0;
  while (bytes) {
    b++;
    bytes >>= 1;
  }
  return b;
}

static int cell(int op, int algorithm, int bucket)
{
  return (op * GC_MAX_ALGORITHMS + algorithm) * GC_BUCKETS + bucket;
}

void gc_summary_reset(int enabled)
{
  memset(sm.sums, 0, sizeof sm.sums);
  memset(sm.max_actual, 0, sizeof sm.max_actual);
  sm.enabled = enabled;
}

void gc_summary_add(const struct gc_record *rec)
{
  if (!sm.enabled || rec->algorithm < 0 || rec->algorithm >= GC_MAX_ALGORITHMS)
    return;
  int c = cell(rec->op, rec->algorithm, gc_summary_bucket(rec->bytes));
  pthread_mutex_lock(&sm.lock);
  sm.sums[F_CALLS][c] += 1;
  sm.sums[F_ACTUAL][c] += rec->actual;
  if (rec->actual > sm.max_actual[c])
    sm.max_actual[c] = rec->actual;
  if (rec->predicted >= 0) {
    sm.sums[F_PREDICTED][c] += rec->predicted;
    sm.sums[F_PREDICTED_CALLS][c] += 1;
    if (rec->actual > 0)
      sm.sums[F_ERROR][c] += fabs(rec->predicted - rec->actual) / rec->actual;
  }
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

static void print_table(FILE *f, const char *prefix, int sync, double (*sums)[GC_CELLS],
                        const double *max_actual, gc_summary_namer *name)
{
  double total = 0;
  for (int c = 0; c < GC_CELLS; c++)
    total += sums[F_CALLS][c];
  fprintf(f, "%ssummary of %.0f call(s) on %d rank(s); actual = %s\n", prefix, total,
          gc_g.world_size,
          sync ? "completion time of the collective (sync mode)"
               : "time seen by rank 0 of each communicator (local mode)");
  fprintf(f, "%s%-9s %-10s %-20s %7s %12s %12s %14s %12s\n", prefix, "op", "algorithm",
          "message size", "calls", "mean actual", "max actual", "mean predicted", "mean |error|");
  for (int op = 0; op < GC_OP_LAST; op++)
    for (int a = 0; a < GC_MAX_ALGORITHMS; a++)
      for (int b = 0; b < GC_BUCKETS; b++) {
        int c = cell(op, a, b);
        double n = sums[F_CALLS][c];
        if (n == 0)
          continue;
        char size[80], mean[32], max[32], pred[32] = "-", err[32] = "-";
        bucket_label(b, size, sizeof size);
        double np = sums[F_PREDICTED_CALLS][c];
        if (np > 0) {
          human_time(sums[F_PREDICTED][c] / np, pred, sizeof pred);
          snprintf(err, sizeof err, "%.1f %%", 100 * sums[F_ERROR][c] / np);
        }
        fprintf(f, "%s%-9s %-10s %-20s %7.0f %12s %12s %14s %12s\n", prefix, name(op, -1),
                name(op, a), size, n,
                human_time(sums[F_ACTUAL][c] / n, mean, sizeof mean),
                human_time(max_actual[c], max, sizeof max), pred, err);
      }
}

void gc_summary_finalize(const struct gc_config *cfg, gc_summary_namer *name)
{
  int sync = cfg->log_mode == GC_LOG_SYNC;
  if (!sm.enabled)
    return;
  static double sums[F_LAST][GC_CELLS], max_actual[GC_CELLS];
  PMPI_Reduce(sm.sums, sums, F_LAST * GC_CELLS, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(sm.max_actual, max_actual, GC_CELLS, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (gc_g.world_rank != 0)
    return;
  FILE *f = stderr;
  char path[4096], why[4200];
  if (cfg->summary_file) {
    f = NULL;
    if (gc_log_expand_path(cfg->summary_file, 0, path, sizeof path) != 0)
      snprintf(why, sizeof why, "log.summary_file (a name longer than %zu bytes)", sizeof path - 1);
    else
      f = gc_open_output(path, why, sizeof why);
    if (!f) {
      gc_warn("cannot write the summary to %s; printing it here", why);
      f = stderr;
    }
  }
  print_table(f, f == stderr ? "gridcoll: " : "", sync, sums, max_actual, name);
  if (f != stderr) {
    /* A full disk shows only here (the table fits in stdio's buffer): warn, as the log does. */
    int bad = ferror(f) != 0;
    bad = fclose(f) != 0 || bad;
    if (bad)
      gc_warn("cannot write the summary to %s: %s; it is lost", path, strerror(errno));
  }
}
