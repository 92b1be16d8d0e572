/* Per-call records: timing around the collective, an in-memory buffer, CSV on disk.
 * The file is created (with its header) at MPI_Init so an unwritable path is reported
 * at once; records are appended when the buffer fills and at MPI_Finalize. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gridcoll.h"
#include "log.h"

#define GC_LOG_BUFFER 4096 /* records (~100 bytes each) held before a write */

static struct {
  int timing;      /* time calls at all: a file or a summary wants them */
  int candidates;  /* write every algorithm's prediction */
  int sync;
  FILE *file;      /* NULL: no per-call file, or it could not be written */
  int failed;      /* a write failed: warned once, file closed */
  struct gc_record buffer[GC_LOG_BUFFER];
  int used;
  char path[4096]; /* the expanded log file name, "" when none */
  struct latency_row *latency; /* the probe's rows (gc_log_latency), written at finalize */
  size_t nlatency;
  pthread_mutex_t lock;
} lg = {.lock = PTHREAD_MUTEX_INITIALIZER};

struct latency_row {
  unsigned long long comm;
  int from, to; /* world cluster ids */
  double configured, measured;
};

static const char header[] =
    "rank,comm,comm_size,call,op,algorithm,root,bytes,clusters,model,predicted_s,actual_s,"
    "candidates\n";

int gc_log_expand_path(const char *pattern, int rank, char *out, size_t outlen)
{
  const char *job = getenv("SLURM_JOB_ID");
  if (!job)
    job = getenv("PMI_JOBID");
  if (!job)
    job = getenv("OMPI_MCA_ess_base_jobid");
  if (!job)
    job = "0";
  size_t n = 0;
  for (const char *p = pattern; *p; p++) {
    char piece[64];
    const char *add = piece;
    if (*p == '%' && p[1]) {
      p++;
      if (*p == 'r')
        snprintf(piece, sizeof piece, "%d", rank);
      else if (*p == 'p')
        snprintf(piece, sizeof piece, "%ld", (long)getpid());
      else if (*p == 'j')
        add = job;
      else if (*p == '%')
        add = "%";
      else
        snprintf(piece, sizeof piece, "%%%c", *p);
    } else {
      piece[0] = *p, piece[1] = '\0';
    }
    size_t len = strlen(add);
    if (n + len >= outlen)
      return -1;
    memcpy(out + n, add, len);
    n += len;
  }
  out[n] = '\0';
  return 0;
}

FILE *gc_open_output(const char *path, char *why, size_t len)
{
  struct stat st;
  const char *kind = NULL;
  int fd = -1;
  /* Opening a FIFO for writing waits for a reader: refused before any open, and the open
   * is non-blocking in case the path changed in between. A character device (/dev/null,
   * /dev/full, a terminal) is fine. */
  if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode)))
    goto wrong_kind;
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, len, "%s: %s", path, strerror(errno));
    goto fail;
  }
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode))
    goto wrong_kind;
  int flags = fcntl(fd, F_GETFL);
  FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "w") : NULL;
  if (f)
    return f;
  snprintf(why, len, "%s: %s", path, strerror(errno));
  goto fail;
wrong_kind:
  kind = S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)" : S_ISSOCK(st.st_mode) ? "a socket" : "a directory";
  snprintf(why, len, "%s: it is %s, not a regular file", path, kind);
fail:
  if (fd >= 0)
    close(fd);
  return NULL;
}

/* 1 when the pattern has a %r (not a %%r): each rank then names its own file. */
static int names_rank(const char *pattern)
{
  for (const char *p = pattern; *p; p++)
    if (*p == '%' && p[1] && *++p == 'r')
      return 1;
  return 0;
}

static void write_failed(const char *what)
{
  /* Every rank writes its own file, usually into the same directory: rank 0 speaks for
   * all, the others only when asked to be verbose. */
  if (!lg.failed) {
    gc_warn("cannot write the log (%s); the program continues without it", what);
    if (gc_g.world_rank != 0)
      gc_debug(2, "cannot write the log (%s); the program continues without it", what);
  }
  lg.failed = 1;
  if (lg.file)
    fclose(lg.file);
  lg.file = NULL;
}

static void flush_records(void);
static void write_latency(void);

/* A program that exits without MPI_Finalize still gets the records it buffered (users
 * debugging a crashed run need them). Local file writes only: MPI may be gone. Finalize
 * closed the file, so nothing is written twice. */
static void log_at_exit(void)
{
  pthread_mutex_lock(&lg.lock);
  if (lg.file) {
    write_latency();
    flush_records();
    if (lg.file && fclose(lg.file) != 0)
      write_failed(strerror(errno));
    lg.file = NULL;
  }
  pthread_mutex_unlock(&lg.lock);
}

int gc_log_wants_summary(const struct gc_config *cfg)
{
  return cfg->log_summary < 0 ? cfg->log_file != NULL : cfg->log_summary;
}

void gc_log_open(const struct gc_config *cfg)
{
  lg.timing = cfg->log_file != NULL || gc_log_wants_summary(cfg);
  lg.sync = cfg->log_mode == GC_LOG_SYNC;
  lg.candidates = cfg->log_candidates;
  if (!cfg->log_file)
    return;
  char *path = lg.path;
  struct stat st;
  size_t n;
  if (gc_log_expand_path(cfg->log_file, gc_g.world_rank, path, sizeof lg.path) != 0 ||
      /* Without %r every rank would truncate the same file: each gets PATH.<rank>, unless
       * the path is a device (/dev/null), which ranks can share. */
      (!names_rank(cfg->log_file) && !(stat(path, &st) == 0 && S_ISCHR(st.st_mode)) &&
       ((n = strlen(path)) + 16 > sizeof lg.path ||
        snprintf(path + n, sizeof lg.path - n, ".%d", gc_g.world_rank) < 0))) {
    path[0] = '\0';
    write_failed("log file pattern too long");
    return;
  }
  char what[4200];
  lg.file = gc_open_output(path, what, sizeof what);
  if (!lg.file) {
    write_failed(what);
  } else if (fputs(header, lg.file) == EOF) {
    snprintf(what, sizeof what, "%s: %s", path, strerror(errno));
    write_failed(what);
  }
  static int registered;
  if (lg.file && !registered)
    registered = atexit(log_at_exit) == 0;
}

int gc_log_enabled(void)
{
  return lg.timing;
}

static void write_time(FILE *f, double s)
{
  if (s >= 0)
    fprintf(f, "%.9g", s);
}

/* Called with the lock held. */
static void flush_records(void)
{
  for (int i = 0; i < lg.used && lg.file; i++) {
    const struct gc_record *r = &lg.buffer[i];
    fprintf(lg.file, "%d,%llu,%d,%llu,%s,%s,", gc_g.world_rank, r->comm_id, r->comm_size,
            r->call, r->op_name, r->algorithm_name);
    if (r->root >= 0)
      fprintf(lg.file, "%d", r->root);
    fprintf(lg.file, ",%zu,%d,%s,", r->bytes, r->clusters, r->model ? r->model : "");
    write_time(lg.file, r->predicted);
    fputc(',', lg.file);
    write_time(lg.file, r->actual);
    fputc(',', lg.file);
    /* "native=1.2e-05;lg=8.1e-06": a semicolon list keeps the CSV one column wide. */
    for (int a = 0; lg.candidates && a < r->ncandidates; a++)
      if (r->candidates[a].predicted >= 0)
        fprintf(lg.file, "%s%s=%.6g", a ? ";" : "", r->candidates[a].name,
                r->candidates[a].predicted);
    fputc('\n', lg.file);
  }
  if (lg.file && (ferror(lg.file) || fflush(lg.file) != 0))
    write_failed(strerror(errno));
  lg.used = 0;
}

static void store(const struct gc_record *rec)
{
  pthread_mutex_lock(&lg.lock);
  if (lg.file) {
    lg.buffer[lg.used++] = *rec;
    if (lg.used == GC_LOG_BUFFER)
      flush_records();
  }
  pthread_mutex_unlock(&lg.lock);
}

void gc_call_start(struct gc_comm_state *st, struct gc_timing *t)
{
  MPI_Comm priv = MPI_COMM_NULL;
  /* The private duplicate also gives the communicator its id for the records. */
  t->logging = lg.timing && gc_comm_private(st, &priv) == MPI_SUCCESS;
  if (t->logging && lg.sync)
    PMPI_Barrier(priv);
  t->t0 = PMPI_Wtime();
}

int gc_call_stop(struct gc_comm_state *st, struct gc_timing *t, struct gc_record *rec)
{
  double elapsed = PMPI_Wtime() - t->t0;
  st->calls++;
  if (!t->logging)
    return 0;
  if (lg.sync) {
    double slowest = elapsed;
    PMPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, st->private_comm);
    if (st->rank == 0)
      elapsed = slowest;
  }
  rec->comm_id = st->id;
  rec->call = st->calls - 1;
  rec->comm_size = st->size;
  rec->comm_rank = st->rank;
  rec->clusters = st->layout.nclusters;
  rec->actual = elapsed;
  store(rec);
  return 1;
}

void gc_log_issued(struct gc_comm_state *st, struct gc_record *rec)
{
  MPI_Comm priv = MPI_COMM_NULL;
  st->calls++;
  /* lg.timing is the same on every rank, so every member creates the duplicate or none. */
  if (!lg.timing || gc_comm_private(st, &priv) != MPI_SUCCESS)
    return;
  rec->comm_id = st->id;
  rec->call = st->calls - 1;
  rec->comm_size = st->size;
  rec->comm_rank = st->rank;
  rec->clusters = st->layout.nclusters;
  rec->predicted = -1;
  rec->actual = -1;
  store(rec);
}

/* Configured clusters by their name, the others (a rank no cluster matched, the node
 * topology) as c<id>, as GRIDCOLL_CLUSTERS names its ranges. */
static const char *cluster_name(int global, char *buf, size_t len)
{
  if (global >= 0 && global < gc_g.cfg.nclusters && gc_g.cfg.clusters)
    return gc_g.cfg.clusters[global].name;
  snprintf(buf, len, "c%d", global);
  return buf;
}

void gc_log_latency(const struct gc_comm_state *st, const double *configured,
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
  if (!lg.path[0])
    return;
  pthread_mutex_lock(&lg.lock);
  size_t n = lg.nlatency + (size_t)k * (size_t)(k - 1);
  struct latency_row *rows = realloc(lg.latency, n * sizeof *rows);
  if (rows) {
    lg.latency = rows;
    for (int i = 0; i < k; i++)
      for (int j = 0; j < k; j++)
        if (i != j)
          rows[lg.nlatency++] = (struct latency_row){st->id, g[i], g[j], configured[i * k + j],
                                                     measured[i * k + j]};
  }
  pthread_mutex_unlock(&lg.lock);
  if (!rows)
    gc_warn_any("out of memory: the measured latencies of communicator %llu are not logged",
                st->id);
}

/* <log file>.latency.csv, only on a rank that logged a probe. */
static void write_latency(void)
{
  if (!lg.nlatency)
    return;
  char path[sizeof lg.path + 16], why[sizeof path + 128] = "";
  snprintf(path, sizeof path, "%s.latency.csv", lg.path);
  FILE *f = gc_open_output(path, why, sizeof why);
  int bad = !f;
  if (f) {
    fputs("comm,from,to,configured_s,measured_s\n", f);
    for (size_t i = 0; i < lg.nlatency; i++) {
      const struct latency_row *r = &lg.latency[i];
      char a[32], b[32];
      fprintf(f, "%llu,%s,%s,%.9g,%.9g\n", r->comm, cluster_name(r->from, a, sizeof a),
              cluster_name(r->to, b, sizeof b), r->configured, r->measured);
    }
    bad = ferror(f) != 0;
    bad = fclose(f) != 0 || bad;
    if (bad)
      snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
  }
  if (bad)
    gc_warn_any("cannot write %s", why);
  free(lg.latency);
  lg.latency = NULL;
  lg.nlatency = 0;
}

void gc_log_finalize(void)
{
  pthread_mutex_lock(&lg.lock);
  write_latency();
  flush_records();
  if (lg.file && fclose(lg.file) != 0)
    write_failed(strerror(errno));
  lg.file = NULL;
  pthread_mutex_unlock(&lg.lock);
}
