/* The probe's report (latency.h). */
#include "latency.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridcoll.h"
#include "log.h"
#include "output.h"

struct row {
  unsigned long long comm;
  int from, to; /* world cluster ids */
  double configured, measured;
};

static struct {
  struct row *rows;
  size_t n;
  int registered; /* gc_latency_finalize runs at exit too */
  pthread_mutex_t lock;
} lat = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Configured clusters by their name, the others (a rank no cluster matched, the node
 * topology) as c<id>, as GRIDCOLL_CLUSTERS names its ranges. */
static const char *cluster_name(int global, char *buf, size_t len)
{
  if (global >= 0 && global < gc_g.cfg.nclusters && gc_g.cfg.clusters)
    return gc_g.cfg.clusters[global].name;
  snprintf(buf, len, "c%d", global);
  return buf;
}

void gc_latency_report(const struct gc_comm_state *st, const double *configured,
                    const double *measured)
{
  int k = st->layout.nclusters;
  const int *g = st->layout.global_id;
  char a[32], b[32];
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++)
      gc_debug(2, "comm %llu: latency %s <-> %s measured %.3g s (configured %.3g s)", st->id,
               cluster_name(g[i], a, sizeof a), cluster_name(g[j], b, sizeof b),
               measured[i * k + j], configured[i * k + j]);
  const char *log = gc_log_path();
  if (!log[0])
    return;
  pthread_mutex_lock(&lat.lock);
  if (!lat.registered)
    lat.registered = atexit(gc_latency_finalize) == 0;
  size_t n = lat.n + (size_t)k * (size_t)(k - 1);
  struct row *rows = realloc(lat.rows, n * sizeof *rows);
  if (rows) {
    lat.rows = rows;
    for (int i = 0; i < k; i++)
      for (int j = 0; j < k; j++)
        if (i != j)
          rows[lat.n++] = (struct row){st->id, g[i], g[j], configured[i * k + j],
                                                     measured[i * k + j]};
  }
  pthread_mutex_unlock(&lat.lock);
  if (!rows)
    gc_warn_oom("the measured latencies of communicator %llu are not logged", st->id);
}

/* <log file>.latency.csv, only on a rank that logged a probe; once. */
void gc_latency_finalize(void)
{
  pthread_mutex_lock(&lat.lock);
  if (!lat.n) {
    pthread_mutex_unlock(&lat.lock);
    return;
  }
  char path[4096 + 16], why[sizeof path + 128] = "";
  snprintf(path, sizeof path, "%s.latency.csv", gc_log_path());
  FILE *f = gc_open_output(path, why, sizeof why);
  int bad = !f, nomem = !f && errno == ENOMEM;
  if (f) {
    fputs("comm,from,to,configured_s,measured_s\n", f);
    for (size_t i = 0; i < lat.n; i++) {
      const struct row *r = &lat.rows[i];
      char a[32], b[32];
      fprintf(f, "%llu,%s,%s,%.9f,%.9f\n", r->comm, cluster_name(r->from, a, sizeof a),
              cluster_name(r->to, b, sizeof b), r->configured, r->measured);
    }
    bad = ferror(f) != 0;
    bad = fclose(f) != 0 || bad;
    if (bad)
      snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
  }
  if (nomem)
    gc_warn_oom("the probe's latency file %s is not written", path);
  else if (bad)
    gc_warn_any("cannot write %s", why);
  free(lat.rows);
  lat.rows = NULL;
  lat.n = 0;
  pthread_mutex_unlock(&lat.lock);
}

