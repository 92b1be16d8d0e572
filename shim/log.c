/* The log's text and file (log.h): a settled call's CSV line (span.h gives each one, with
 * its completion time), a chunk of text, the file on disk. The file is created (with its
 * header) at MPI_Init so an unwritable path is reported at once; the text is appended
 * when the chunk fills and at MPI_Finalize (or exit). */
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
#include "logfmt.h"
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
 * A record becomes its CSV line as soon as its time is final (local mode: when the call
 * returns; sync mode: when its window settles), built by hand (logfmt.h: printf's own
 * characters for %d, %llu, %.9f and %.6g, at a fraction of its cost) into one chunk of
 * text, written when full and at MPI_Finalize or exit. Nothing but the text is kept: a
 * binary buffer of records beside it was ~1.5 MB streamed through the cache that the
 * application's own messages live in (issue 13: logging must cost < 2% at 64 KiB). */
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

/* n bytes from src to dst in whole 16-byte pieces, each loaded before it is stored: the
 * text a line copies (head, middle, a time) is a few dozen bytes, where libc's memcpy
 * costs a call and its size dispatch. It reads and writes up to 15 bytes past n: src's
 * array has them (the caches below are sized so; a time's text sits in the line before
 * dst, which it may overlap), and so has dst's line (its room counts every column at its
 * widest, and at least 20 bytes follow each copy). */
static char *copy16(char *dst, const char *src, size_t n)
{
  for (size_t i = 0; i < n; i += 16) {
    char piece[16];
    memcpy(piece, src + i, 16);
    memcpy(dst + i, piece, 16);
  }
  return dst + n;
}

static char *put_name(char *p, const char *s, size_t n)
{
  memcpy(p, s, n);
  p[n] = ',';
  return p + n + 1;
}

/* A time in %.9f, nothing for none (< 0); then the comma. */
static char *put_time(char *p, double s)
{
  if (s >= 0)
    p += gc_fmt_fixed9(p, s);
  *p = ',';
  return p + 1;
}

/* The widest a time's text can be, its comma included: 19 characters below 10^9 s,
 * printf's beyond. */
static size_t time_room(double s)
{
  return s < 1e9 ? 20 : GC_FMT_FIXED9_MAX;
}

static int same_bits(double a, double b)
{
  unsigned long long x, y;
  memcpy(&x, &a, sizeof x);
  memcpy(&y, &b, sizeof y);
  return x == y;
}

/* The columns that repeat from one line to the next (the same communicator; the same
 * call again, as an application's loop makes it), kept as text: a line whose key matches
 * copies them instead of formatting them again, half of what a line costs. One entry
 * each; every column is still written as its own value says. The head holds the call
 * index too: the next call on the same communicator adds one to its digits in place
 * (what "%llu" of call + 1 writes: a carry through nines, a new digit only from 9...9,
 * which is formatted afresh), a few instructions where formatting it took ~45. */
static struct {
  unsigned long long comm_id, call;
  int comm_size;
  size_t n;      /* 0: empty */
  size_t digits; /* where the call's digits start in text */
  char text[80]; /* "rank,comm,comm_size,call,": the widest, rounded up to 16 bytes */
} head;

static struct {
  const char *op_name, *algorithm_name, *model;
  size_t bytes;
  int root, clusters;
  double predicted; /* compared bit for bit */
  size_t n;         /* 0: empty */
  char text[256];   /* "op,algorithm,root,bytes,clusters,model,predicted_s," */
} middle;

/* The widest head: the rank (11 characters), the comm id (20), the comm size (11), the
 * call (20), 4 commas. */
#define GC_HEAD_MAX (11 + 20 + 11 + 20 + 4)
_Static_assert((GC_HEAD_MAX + 15) / 16 * 16 <= sizeof head.text,
               "the head's cache holds the widest head, in 16-byte pieces");
_Static_assert(sizeof middle.text % 16 == 0, "the middle's cache, in 16-byte pieces");

/* 1 when the cached head, its call index advanced by one in place, is this call's. */
static int head_next(unsigned long long comm_id, int comm_size, unsigned long long call)
{
  if (!head.n || head.comm_id != comm_id || head.comm_size != comm_size || call != head.call + 1 ||
      call == 0)
    return 0;
  char *first = head.text + head.digits, *d = head.text + head.n - 2; /* the last digit */
  while (d >= first && *d == '9')
    *d-- = '0';
  if (d < first) { /* 9...9 + 1 has one digit more: the caller formats it */
    head.n = 0;
    return 0;
  }
  ++*d;
  head.call = call;
  return 1;
}

static char *put_head(char *p, unsigned long long comm_id, int comm_size, unsigned long long call)
{
  if (head_next(comm_id, comm_size, call))
    return copy16(p, head.text, head.n);
  char *start = p;
  p += gc_fmt_int(p, gc_g.world_rank), *p++ = ',';
  p += gc_fmt_u64(p, comm_id), *p++ = ',';
  p += gc_fmt_int(p, comm_size), *p++ = ',';
  head.digits = (size_t)(p - start);
  p += gc_fmt_u64(p, call), *p++ = ',';
  head.n = (size_t)(p - start);
  memcpy(head.text, start, head.n);
  head.comm_id = comm_id, head.comm_size = comm_size, head.call = call;
  return p;
}

static int middle_matches(const struct gc_call_line *l)
{
  return middle.n && middle.op_name == l->op_name && middle.algorithm_name == l->algorithm_name &&
         middle.model == l->model && middle.bytes == l->bytes && middle.root == l->root &&
         middle.clusters == l->clusters && same_bits(middle.predicted, l->predicted);
}

/* The widest middle: the names, the root (11), the bytes (20), the clusters (11), 6
 * commas and the prediction. */
static size_t middle_room(const struct gc_call_line *l)
{
  return strlen(l->op_name) + strlen(l->algorithm_name) + (l->model ? strlen(l->model) : 0) +
         11 + 20 + 11 + 6 + time_room(l->predicted);
}

/* The middle columns, formatted (hit: 0, the cached text copied). */
static char *put_middle(char *p, const struct gc_call_line *l, int hit)
{
  if (hit)
    return copy16(p, middle.text, middle.n);
  char *start = p;
  p = put_name(p, l->op_name, strlen(l->op_name));
  p = put_name(p, l->algorithm_name, strlen(l->algorithm_name));
  if (l->root >= 0)
    p += gc_fmt_int(p, l->root);
  *p++ = ',';
  p += gc_fmt_u64(p, l->bytes), *p++ = ',';
  p += gc_fmt_int(p, l->clusters), *p++ = ',';
  p = put_name(p, l->model ? l->model : "", l->model ? strlen(l->model) : 0);
  p = put_time(p, l->predicted);
  size_t n = (size_t)(p - start);
  middle.n = 0;
  if (n <= sizeof middle.text) {
    memcpy(middle.text, start, n);
    middle.op_name = l->op_name, middle.algorithm_name = l->algorithm_name;
    middle.model = l->model, middle.bytes = l->bytes, middle.root = l->root;
    middle.clusters = l->clusters, middle.predicted = l->predicted, middle.n = n;
  }
  return p;
}

/* A time whose value is the one written at `text` (ntime characters, its comma
 * included): that text copied (local mode's own time, a broadcast's own time), else
 * formatted. */
static char *put_time_as(char *p, double s, double written, const char *text, size_t ntime)
{
  if (!same_bits(s, written))
    return put_time(p, s);
  if (ntime > 20) /* 10^9 s and more: printf's text, longer than the room after it */
    return (char *)memcpy(p, text, ntime) + ntime;
  return copy16(p, text, ntime);
}

/* One record's line, in one piece: its widest length is known before a character is
 * written, so the chunk is asked for room once. Called with the lock held where one is
 * needed, and only while lg.file is open. */
static void put_line(unsigned long long comm_id, int comm_size, const struct gc_call_line *l,
                     const struct gc_span_time *t, const struct gc_candidate *cand)
{
  double actual = t->actual;
  int hit = middle_matches(l);
  int ncand = lg.candidates && cand ? l->ncandidates : 0;
  /* the head (the call included), the middle, the times, the candidates' comma, the
     explored flag and the newline */
  size_t need = GC_HEAD_MAX + (hit ? middle.n : middle_room(l)) + 3 +
                (actual < 1e9 && l->elapsed < 1e9 && t->own < 1e9 && t->spread < 1e9 &&
                         t->root_late < 1e9
                     ? 5 * 20
                     : time_room(actual) + time_room(l->elapsed) + time_room(t->own) +
                           time_room(t->spread) + time_room(t->root_late));
  for (int a = 0; a < ncand; a++) /* ";name=%.6g" */
    if (cand[a].predicted >= 0)
      need += strlen(cand[a].name) + 2 + GC_FMT_MAX;
  char *heap = NULL, *p, *start;
  if (need <= sizeof out.text) {
    p = start = room(need);
  } else if (!(p = start = heap = malloc(need))) { /* names longer than a chunk: never ours */
    write_failed("out of memory");
    return;
  }
  p = put_head(p, comm_id, comm_size, l->call);
  p = put_middle(p, l, hit);
  char *time = p;
  p = put_time(p, actual);
  size_t ntime = (size_t)(p - time);
  /* "native=1.2e-05;lg=8.1e-06": a semicolon list keeps the CSV one column wide. */
  for (int a = 0; a < ncand; a++)
    if (cand[a].predicted >= 0) {
      if (a)
        *p++ = ';';
      size_t n = strlen(cand[a].name);
      memcpy(p, cand[a].name, n);
      p += n;
      *p++ = '=';
      p += gc_fmt_g(p, cand[a].predicted, 6);
    }
  *p++ = ',';
  /* local mode: elapsed and own are actual, the same text; a broadcast's own too */
  p = put_time_as(p, l->elapsed, actual, time, ntime);
  p = put_time_as(p, t->own, actual, time, ntime);
  p = put_time(p, t->spread);
  p = put_time(p, t->root_late);
  *p++ = l->explored ? '1' : '0'; /* measured for learning (learn.h) */
  *p++ = '\n';
  if (!heap) {
    out.n += (size_t)(p - start);
    return;
  }
  out_flush();
  size_t len = (size_t)(p - start);
  if (lg.file && fwrite(heap, 1, len, lg.file) != len)
    write_failed(strerror(errno));
  free(heap);
}

/* Written out (the chunk, the file's buffer), at MPI_Finalize and at exit. */
static void flush_records(void)
{
  out_flush();
  if (lg.file && (ferror(lg.file) || fflush(lg.file) != 0))
    write_failed(strerror(errno));
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

/* The window's reader (span.h): settled calls' lines into the text, and comm rank 0's
 * timed blocking calls into the summary (a nonblocking call's time runs to the
 * completion the application chose to look for: nothing a model predicts). */
static void read_settled(const struct gc_span_settled *s)
{
  if (!s->logged)
    return;
  int lock = locked();
  if (lock)
    pthread_mutex_lock(&lg.lock);
  for (int i = 0; lg.file && i < s->n; i++)
    put_line(s->comm_id, s->comm_size, &s->line[i], &s->time[i],
             s->candidates ? s->candidates[i] : NULL);
  if (lock)
    pthread_mutex_unlock(&lg.lock);
  if (s->comm_rank == 0 && lg.summary)
    for (int i = 0; i < s->n; i++)
      if (s->time[i].actual >= 0 && s->line[i].entry == GC_ENTRY_BLOCKING)
        summary_add(s->comm_size, &s->line[i], &s->time[i]);
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
