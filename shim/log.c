/* The log's file (log.h): created with its header at MPI_Init, so that an unwritable
 * path is reported at once; the settled calls' lines (span.h gives each one, with its
 * completion time) kept in the spool until MPI_Finalize or exit, then written as text,
 * comm rank 0's added to the summary on their way out. */
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
#include "log_spool.h"
#include "log_line.h"
#include "output.h"
#include "span.h"
#include "summary.h"

static struct {
  int timing;      /* time calls at all: a file or a summary wants them */
  int candidates;  /* write every algorithm's prediction */
  int summary;     /* the summary wants comm rank 0's calls (gc_summary_add) */
  FILE *file;      /* NULL: no per-call file, or it could not be written */
  int failed;      /* a write failed: warned once, file closed */
  char path[4096]; /* the expanded log file name, "" when none */
  pthread_mutex_t lock;
} lg = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const char header[] =
    "rank,comm,comm_size,call,op,algorithm,root,bytes,clusters,model,predicted_s,actual_s,"
    "candidates,elapsed_s,own_s,spread_s,root_late_s,explored\n";

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
static void read_settled(const struct gc_span_settled *s);

/* A program that exits without MPI_Finalize still gets the records it buffered (users
 * debugging a crashed run need them). Local file writes only: MPI may be gone. Finalize
 * closed the file, so nothing is written twice. */
static void log_at_exit(void)
{
  gc_span_abandon();
  pthread_mutex_lock(&lg.lock);
  if (lg.file) {
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
  lg.candidates = cfg->log_candidates;
  lg.summary = gc_log_wants_summary(cfg);
  if (lg.timing)
    gc_span_reader_add(read_settled);
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
  if (!lg.file && errno == ENOMEM) { /* this rank's alone: it says so */
    gc_warn_oom("the log file %s; the program continues without it", path);
    lg.failed = 1;
  } else if (!lg.file) {
    write_failed(what);
  } else if (fputs(header, lg.file) == EOF) {
    snprintf(what, sizeof what, "%s: %s", path, strerror(errno));
    write_failed(what);
  }
  /* The lines wait in binary until the end (log_spool.h), where the log is a file of its
   * own: a device (/dev/null, /dev/full) takes them at once. */
  const char *why;
  if (lg.file && fstat(fileno(lg.file), &st) == 0 && S_ISREG(st.st_mode) &&
      gc_spool_open(path, &why) != 0)
    gc_debug(1, "the log's lines are formatted as they come: no spool beside %s (%s)", path, why);
  static int registered;
  if (lg.file && !registered)
    registered = atexit(log_at_exit) == 0;
}

int gc_log_enabled(void)
{
  return lg.timing;
}

/* --- the text -------------------------------------------------------------------------
 *
 * A settled call (local mode: when it returns; sync mode: when its window settles) waits
 * as a binary record in the spool (log_spool.h) until MPI_Finalize or exit, when it
 * becomes its CSV line (log_line.h) in one chunk of text, written when full. Where there
 * is no spool (the log is a device, or the spool failed), the line is formatted at once. */
static struct {
  char text[1 << 16];
  size_t n;
} out;

/* Called with the lock held where one is needed (locked()). */
static void out_flush(void)
{
  if (out.n && lg.file &&
      (fwrite(out.text, 1, out.n, lg.file) != out.n || fflush(lg.file) != 0))
    write_failed(strerror(errno));
  out.n = 0;
}

/* Where the next len bytes go (len <= the chunk): the chunk is written out first if full. */
static char *room(size_t len)
{
  if (out.n + len > sizeof out.text)
    out_flush();
  return out.text + out.n;
}

/* One record's line, in one piece: its widest length is known before a character is
 * written, so the chunk is asked for room once. Called with the lock held where one is
 * needed, and only while lg.file is open. */
static void put_line(unsigned long long comm_id, int comm_size, const struct gc_call_line *l,
                     const struct gc_span_time *t, const struct gc_candidate *cand)
{
  int ncand = lg.candidates && cand ? l->ncandidates : 0;
  size_t need = gc_log_line_room(l, t, cand, ncand);
  char *heap = NULL, *start;
  if (need <= sizeof out.text) {
    start = room(need);
  } else if (!(start = heap = malloc(need))) { /* names longer than a chunk: never ours */
    write_failed("out of memory");
    return;
  }
  char *end = gc_log_line_put(start, gc_g.world_rank, comm_id, comm_size, l, t, cand, ncand);
  if (!heap) {
    out.n += (size_t)(end - start);
    return;
  }
  out_flush();
  size_t len = (size_t)(end - start);
  if (lg.file && fwrite(heap, 1, len, lg.file) != len)
    write_failed(strerror(errno));
  free(heap);
}

/* gridcoll's log state is touched by one thread at a time unless the application may
 * call MPI from several at once: a lock per record only then (~55 instructions a call
 * otherwise, for nothing). */
static int locked(void)
{
  return gc_g.thread_level == MPI_THREAD_MULTIPLE;
}

/* A settled call, comm rank 0's, into the summary (summary.h): its wait is how late the
 * root came for a broadcast (the receivers' wait), the arrival spread for the others. */
static void summary_add(int comm_size, const struct gc_call_line *l,
                        const struct gc_span_time *t)
{
  gc_summary_add(l->op, l->algorithm, l->call == 0, comm_size, l->bytes, l->predicted, t->actual,
                 t->own, l->root >= 0 ? t->root_late : t->spread, l->explored);
}

/* A settled line where it goes: comm rank 0's timed blocking calls into the summary (a
 * nonblocking call's time runs to the completion the application chose to look for:
 * nothing a model predicts), the line into the text. Where the spool keeps the lines,
 * this is at the end, as they are drained, so that neither costs the calls anything (the
 * summary's sums are the same in any order); else as each call settles. Called with the
 * lock held where one is needed. */
static void line_out(unsigned long long comm_id, int comm_size, int comm_rank,
                     const struct gc_call_line *l, const struct gc_span_time *t,
                     const struct gc_candidate *cand)
{
  if (comm_rank == 0 && lg.summary && t->actual >= 0 && l->entry == GC_ENTRY_BLOCKING)
    summary_add(comm_size, l, t);
  if (lg.file)
    put_line(comm_id, comm_size, l, t, cand);
}

static void drain_spool(void)
{
  const char *why;
  if (gc_spool_drain(line_out, &why) != 0)
    write_failed(why);
}

/* A settled line: into the spool, else where it goes at once. */
static void keep_line(unsigned long long comm_id, int comm_size, int comm_rank,
                      const struct gc_call_line *l, const struct gc_span_time *t,
                      const struct gc_candidate *cand)
{
  if (gc_spool_on()) {
    if (gc_spool_put(comm_id, comm_size, comm_rank, l, t, cand) == 0)
      return;
    gc_debug(1, "the log's spool could not be written; lines are formatted as they come");
    drain_spool();
  }
  line_out(comm_id, comm_size, comm_rank, l, t, cand);
}

/* Written out (the spool, the chunk, the file's buffer), at MPI_Finalize and at exit. */
static void flush_records(void)
{
  drain_spool();
  out_flush();
  if (lg.file && (ferror(lg.file) || fflush(lg.file) != 0))
    write_failed(strerror(errno));
}

/* The window's reader (span.h): settled calls' lines kept (keep_line), for the text and
 * comm rank 0's for the summary. */
static void read_settled(const struct gc_span_settled *s)
{
  if (!s->logged || !(lg.file || lg.summary || gc_spool_on()))
    return;
  int lock = locked();
  if (lock)
    pthread_mutex_lock(&lg.lock);
  for (int i = 0; i < s->n; i++)
    keep_line(s->comm_id, s->comm_size, s->comm_rank, &s->line[i], &s->time[i],
              s->candidates ? s->candidates[i] : NULL);
  if (lock)
    pthread_mutex_unlock(&lg.lock);
}

void gc_log_finalize(void)
{
  pthread_mutex_lock(&lg.lock);
  flush_records();
  if (lg.file && fclose(lg.file) != 0)
    write_failed(strerror(errno));
  lg.file = NULL;
  pthread_mutex_unlock(&lg.lock);
}

const char *gc_log_path(void)
{
  return lg.path;
}
