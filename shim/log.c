/* Per-call records: timing around the collective, a chunk of CSV text, the file on disk.
 * The file is created (with its header) at MPI_Init so an unwritable path is reported
 * at once; the text is appended when the chunk fills and at MPI_Finalize (or exit). */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "gridcoll.h"
#include "log.h"
#include "logfmt.h"
#include "output.h"
#include "summary.h"

static struct {
  int timing;      /* time calls at all: a file or a summary wants them */
  int candidates;  /* write every algorithm's prediction */
  int summary;     /* the summary wants comm rank 0's calls (gc_summary_add) */
  int sync;
  FILE *file;      /* NULL: no per-call file, or it could not be written */
  int failed;      /* a write failed: warned once, file closed */
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
    "candidates,elapsed_s\n";

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
static void windows_abandon(void);

/* A program that exits without MPI_Finalize still gets the records it buffered (users
 * debugging a crashed run need them). Local file writes only: MPI may be gone. Finalize
 * closed the file, so nothing is written twice. */
static void log_at_exit(void)
{
  windows_abandon();
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
  lg.summary = gc_log_wants_summary(cfg);
  if (lg.timing && lg.sync)
    gc_clock_sync();
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
 * each; every column is still written as its own value says. */
static struct {
  unsigned long long comm_id;
  int comm_size;
  size_t n;      /* 0: empty */
  char text[48]; /* "rank,comm,comm_size," */
} head;

static struct {
  const char *op_name, *algorithm_name, *model;
  size_t bytes;
  int root, clusters;
  double predicted; /* compared bit for bit */
  size_t n;         /* 0: empty */
  char text[256];   /* "op,algorithm,root,bytes,clusters,model,predicted_s," */
} middle;

/* The widest head: the rank (11 characters), the comm id (20), the comm size (11), 3
 * commas. */
#define GC_HEAD_MAX (11 + 20 + 11 + 3)

static char *put_head(char *p, unsigned long long comm_id, int comm_size)
{
  if (head.n && head.comm_id == comm_id && head.comm_size == comm_size) {
    memcpy(p, head.text, head.n);
    return p + head.n;
  }
  char *start = p;
  p += gc_fmt_int(p, gc_g.world_rank), *p++ = ',';
  p += gc_fmt_u64(p, comm_id), *p++ = ',';
  p += gc_fmt_int(p, comm_size), *p++ = ',';
  head.n = (size_t)(p - start);
  memcpy(head.text, start, head.n);
  head.comm_id = comm_id, head.comm_size = comm_size;
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
  if (hit) {
    memcpy(p, middle.text, middle.n);
    return p + middle.n;
  }
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

/* One record's line, in one piece: its widest length is known before a character is
 * written, so the chunk is asked for room once. Called with the lock held where one is
 * needed, and only while lg.file is open. */
static void put_line(unsigned long long comm_id, int comm_size, const struct gc_call_line *l,
                     double actual, const struct gc_candidate *cand)
{
  int hit = middle_matches(l);
  int ncand = lg.candidates && cand ? l->ncandidates : 0;
  /* the head, the call (20) and its comma, the middle, the times, the candidates' comma */
  size_t need = GC_HEAD_MAX + 21 + (hit ? middle.n : middle_room(l)) + time_room(actual) +
                time_room(l->elapsed) + 1;
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
  p = put_head(p, comm_id, comm_size);
  p += gc_fmt_u64(p, l->call), *p++ = ',';
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
  if (same_bits(l->elapsed, actual)) { /* local mode: the same time, the same text */
    memcpy(p, time, ntime);
    p += ntime;
  } else {
    p = put_time(p, l->elapsed);
  }
  p[-1] = '\n'; /* the last time's comma */
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

/* A record whose time is final, into the text. */
static void store(unsigned long long comm_id, int comm_size, const struct gc_call_line *l,
                  double actual, const struct gc_candidate *cand)
{
  int lock = locked();
  if (lock)
    pthread_mutex_lock(&lg.lock);
  if (lg.file)
    put_line(comm_id, comm_size, l, actual, cand);
  if (lock)
    pthread_mutex_unlock(&lg.lock);
}

/* A settled call, comm rank 0's, into the summary (summary.h). */
static void summary_add(const struct gc_call_line *l, double actual)
{
  gc_summary_add(l->op, l->algorithm, l->call == 0, l->bytes, l->predicted, actual);
}

/* --- the completion time ---------------------------------------------------------------
 *
 * Each rank reads its clock at entry and exit and nothing else: no barrier, no reduction
 * on the timed path. The completion time of a call is max(exit) - min(entry) over the
 * ranks (a broadcast: minus the root's entry), in comm rank 0's clock... in world rank
 * 0's, which is one clock for every communicator: each rank's offset to it is estimated
 * once, at MPI_Init (clock.h). The (exit, -entry) pairs of a communicator's calls wait
 * in its window; when GC_WINDOW calls have gathered (the same call on every member) one
 * nonblocking MPI_MAX allreduce over the private duplicate assembles them, and it is
 * completed GC_WINDOW calls later, so nobody waits for it and no call starts skewed by
 * it. A window still filling is assembled when the communicator is freed (collective)
 * or at MPI_Finalize over the world. Every member ends with the same completion times. */
#define GC_WINDOW 128

struct gc_log_window {
  struct window {
    int n;
    struct gc_call_line line[GC_WINDOW]; /* record.h: 72 bytes a call, not a 370-byte record */
    double span[2 * GC_WINDOW]; /* [i]: exit, [GC_WINDOW + i]: -entry (the reference one) */
    MPI_Request req;            /* MPI_REQUEST_NULL when not in flight */
  } w[2];
  /* Every algorithm's prediction per call, [k * GC_WINDOW + i] for w[k].line[i]: only
   * with log.candidates (NULL otherwise), so the window stays small. */
  struct gc_candidate (*candidates)[GC_MAX_ALGORITHMS];
  unsigned long long comm_id; /* the communicator's, as in its records */
  int comm_size, comm_rank;
  int filling; /* index of the window receiving calls; the other may be in flight */
  struct gc_log_window *next, *prev; /* every live one, for MPI_Finalize */
};
static struct gc_log_window *windows;
/* Window k's completion times are known: records stored, comm rank 0's summed. */
static void window_settle(struct gc_log_window *lw, int k)
{
  struct window *w = &lw->w[k];
  for (int i = 0; i < w->n; i++) {
    const struct gc_call_line *l = &w->line[i];
    double actual = w->span[i] + w->span[GC_WINDOW + i];
    if (actual < 0) /* a clock estimate off by more than the call took */
      actual = 0;
    store(lw->comm_id, lw->comm_size, l, actual,
          lw->candidates ? lw->candidates[k * GC_WINDOW + i] : NULL);
    if (lw->comm_rank == 0 && lg.summary)
      summary_add(l, actual);
  }
  w->n = 0;
}

/* No completion time to be had: each call keeps the rank's own. */
static void window_own_times(struct window *w)
{
  for (int i = 0; i < w->n; i++)
    w->span[i] = w->line[i].elapsed, w->span[GC_WINDOW + i] = 0;
}

static void window_wait(struct gc_log_window *lw, int k)
{
  if (lw->w[k].req != MPI_REQUEST_NULL) {
    PMPI_Wait(&lw->w[k].req, MPI_STATUS_IGNORE);
    window_settle(lw, k);
  }
}

/* Spans not sent yet get the neutral -DBL_MAX: an empty slot changes nothing. */
static void window_pad(struct window *w)
{
  for (int i = w->n; i < GC_WINDOW; i++)
    w->span[i] = w->span[GC_WINDOW + i] = -DBL_MAX;
}

static void window_free(struct gc_comm_state *st);

static struct gc_log_window *window_of(struct gc_comm_state *st)
{
  struct gc_log_window *lw = st->log_window;
  if (lw)
    return lw;
  lw = calloc(1, sizeof *lw);
  if (lw && lg.candidates && !(lw->candidates = calloc(2 * GC_WINDOW, sizeof *lw->candidates))) {
    free(lw);
    lw = NULL;
  }
  if (!lw)
    return NULL;
  lw->w[0].req = lw->w[1].req = MPI_REQUEST_NULL;
  lw->comm_id = st->id;
  lw->comm_size = st->size;
  lw->comm_rank = st->rank;
  pthread_mutex_lock(&lg.lock);
  lw->next = windows;
  if (windows)
    windows->prev = lw;
  windows = lw;
  pthread_mutex_unlock(&lg.lock);
  st->log_window = lw;
  st->log_free = window_free;
  return lw;
}

static void window_unlink(struct gc_log_window *lw)
{
  pthread_mutex_lock(&lg.lock);
  if (lw->prev)
    lw->prev->next = lw->next;
  else
    windows = lw->next;
  if (lw->next)
    lw->next->prev = lw->prev;
  pthread_mutex_unlock(&lg.lock);
}

void gc_call_start(struct gc_comm_state *st, struct gc_timing *t)
{
  MPI_Comm priv = MPI_COMM_NULL;
  /* The private duplicate also gives the communicator its id for the records (an id is
   * never 0, and is set on every member at once). */
  t->logging = lg.timing && (st->id || gc_comm_named(st, &priv) == MPI_SUCCESS);
  t->t0 = gc_clock_now();
}

/* A timed call, said by what (its call index and elapsed time are set here), kept: in
 * local mode stored at once (and summed on comm rank 0); in sync mode into the window
 * until its completion time is known. cand: NULL, or what->ncandidates predictions. */
static void keep_call(struct gc_comm_state *st, double t0, double t1,
                      const struct gc_call_line *what, const struct gc_candidate *cand)
{
  unsigned long long call = st->calls - 1;
  struct gc_log_window *lw = lg.sync ? window_of(st) : NULL;
  if (!lw) { /* local mode (or no memory for a window): the rank's own time */
    struct gc_call_line l = *what;
    l.call = call;
    l.elapsed = t1 - t0;
    if (lg.file)
      store(st->id, st->size, &l, l.elapsed, cand);
    if (st->rank == 0 && lg.summary)
      summary_add(&l, l.elapsed);
    return;
  }
  struct window *w = &lw->w[lw->filling];
  int i = w->n++;
  struct gc_call_line *l = &w->line[i];
  *l = *what;
  l->call = call;
  l->elapsed = t1 - t0;
  if (lw->candidates && cand)
    memcpy(lw->candidates[lw->filling * GC_WINDOW + i], cand,
           sizeof cand[0] * (size_t)what->ncandidates);
  double offset = gc_clock_offset();
  w->span[i] = t1 - offset;
  /* A broadcast starts when its root enters: the others' entries do not count. */
  w->span[GC_WINDOW + i] = what->root < 0 || what->root == st->rank ? offset - t0 : -DBL_MAX;
  if (w->n == GC_WINDOW) {
    window_wait(lw, !lw->filling);
    if (PMPI_Iallreduce(MPI_IN_PLACE, w->span, 2 * GC_WINDOW, MPI_DOUBLE, MPI_MAX,
                        st->private_comm, &w->req) != MPI_SUCCESS) {
      w->req = MPI_REQUEST_NULL;
      window_own_times(w);
      window_settle(lw, lw->filling);
    }
    lw->filling = !lw->filling;
  }
}

int gc_call_stop(struct gc_comm_state *st, struct gc_timing *t, struct gc_record *rec)
{
  double t1 = gc_clock_now();
  st->calls++;
  if (!t->logging)
    return 0;
  rec->call = st->calls - 1;
  rec->clusters = st->layout.nclusters;
  rec->elapsed = t1 - t->t0;
  struct gc_call_line l;
  gc_call_line_of(rec, &l);
  keep_call(st, t->t0, t1, &l, rec->candidates);
  return 1;
}

void gc_call_stop_as(struct gc_comm_state *st, struct gc_timing *t,
                     const struct gc_call_line *what)
{
  double t1 = gc_clock_now();
  st->calls++;
  if (t->logging)
    keep_call(st, t->t0, t1, what, NULL);
}

/* The communicator is being freed (its attribute's delete callback, on every member, as
 * MPI_Comm_free is collective): its pending records are assembled over st's private
 * duplicate, still valid here, and the window freed. comm_state.c calls it through the
 * pointer window_of leaves in the state. */
static void window_free(struct gc_comm_state *st)
{
  struct gc_log_window *lw = st->log_window;
  if (!lw)
    return;
  window_unlink(lw);
  window_wait(lw, !lw->filling);
  struct window *w = &lw->w[lw->filling];
  /* Every member holds the same number of calls: the same allreduce on all of them. */
  if (w->n) {
    window_pad(w);
    PMPI_Allreduce(MPI_IN_PLACE, w->span, 2 * GC_WINDOW, MPI_DOUBLE, MPI_MAX, st->private_comm);
    window_settle(lw, lw->filling);
  }
  free(lw->candidates);
  free(lw);
  st->log_window = NULL;
}

/* The program exits without MPI_Finalize: the calls still waiting for their completion
 * time are written with each rank's own (MPI may be gone: no exchange, no wait). The
 * window in flight holds the older calls: it goes first, so the log stays in call order. */
static void windows_abandon(void)
{
  for (struct gc_log_window *lw = windows; lw; lw = lw->next)
    for (int older = 1; older >= 0; older--) {
      int k = older ? !lw->filling : lw->filling;
      struct window *w = &lw->w[k];
      window_own_times(w);
      w->req = MPI_REQUEST_NULL;
      window_settle(lw, k);
    }
}

/* One call still waiting at MPI_Finalize, as the world exchanges it. */
struct pending {
  unsigned long long comm, call;
  double exit, entry; /* entry negated, as in the span */
};

static int pending_cmp(const void *a, const void *b)
{
  const struct pending *x = a, *y = b;
  return x->comm != y->comm ? (x->comm > y->comm) - (x->comm < y->comm)
                            : (x->call > y->call) - (x->call < y->call);
}

/* The communicators the application did not free: their calls still waiting are
 * exchanged over the world (ids are unique across communicators) and every rank takes
 * the maxima of its own. Collective over MPI_COMM_WORLD. */
static void settle_live_windows(void)
{
  int mine = 0;
  for (struct gc_log_window *lw = windows; lw; lw = lw->next) {
    window_wait(lw, !lw->filling);
    mine += lw->w[lw->filling].n;
  }
  int n = gc_g.world_size, *counts = malloc(sizeof(int) * (size_t)n * 2), total = 0, ok = 1;
  struct pending *own = malloc(sizeof *own * (size_t)(mine + 1)), *all = NULL;
  ok = counts && own;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (ok) {
    int k = 0;
    for (struct gc_log_window *lw = windows; lw; lw = lw->next) {
      struct window *w = &lw->w[lw->filling];
      for (int i = 0; i < w->n; i++)
        own[k++] = (struct pending){lw->comm_id, w->line[i].call, w->span[i],
                                    w->span[GC_WINDOW + i]};
    }
    int bytes = mine * (int)sizeof *own;
    PMPI_Allgather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    int *displs = counts + n;
    for (int r = 0; r < n; r++)
      displs[r] = total, total += counts[r];
    all = malloc((size_t)total + 1);
    ok = all != NULL;
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (ok)
      PMPI_Allgatherv(own, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  }
  size_t nall = ok ? (size_t)total / sizeof *all : 0;
  if (ok)
    qsort(all, nall, sizeof *all, pending_cmp);
  for (struct gc_log_window *lw = windows; lw; lw = lw->next) {
    struct window *w = &lw->w[lw->filling];
    for (int i = 0; ok && i < w->n; i++) {
      struct pending key = {lw->comm_id, w->line[i].call, 0, 0};
      struct pending *p = bsearch(&key, all, nall, sizeof *all, pending_cmp);
      while (p > all && pending_cmp(p - 1, &key) == 0)
        p--;
      for (; p && p < all + nall && pending_cmp(p, &key) == 0; p++) {
        w->span[i] = fmax(w->span[i], p->exit);
        w->span[GC_WINDOW + i] = fmax(w->span[GC_WINDOW + i], p->entry);
      }
    }
    if (!ok) /* no memory for the exchange */
      window_own_times(w);
    window_settle(lw, lw->filling);
  }
  free(all);
  free(own);
  free(counts);
}

void gc_log_issued(struct gc_comm_state *st, struct gc_record *rec)
{
  MPI_Comm priv = MPI_COMM_NULL;
  st->calls++;
  /* lg.timing is the same on every rank, so every member creates the duplicate or none. */
  if (!lg.timing || gc_comm_named(st, &priv) != MPI_SUCCESS)
    return;
  rec->call = st->calls - 1;
  rec->clusters = st->layout.nclusters;
  rec->predicted = -1;
  rec->elapsed = -1;
  struct gc_call_line l;
  gc_call_line_of(rec, &l);
  store(st->id, st->size, &l, -1, rec->candidates);
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
      fprintf(f, "%llu,%s,%s,%.9f,%.9f\n", r->comm, cluster_name(r->from, a, sizeof a),
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
  if (lg.timing && lg.sync)
    settle_live_windows();
  pthread_mutex_lock(&lg.lock);
  write_latency();
  flush_records();
  if (lg.file && fclose(lg.file) != 0)
    write_failed(strerror(errno));
  lg.file = NULL;
  pthread_mutex_unlock(&lg.lock);
}
