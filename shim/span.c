/* The completion-time windows (span.h). */
#include "span.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "gridcoll.h"

/* A nonblocking or persistent call seen complete on this rank (gc_span_own), kept until
 * the next point carries it (carry()): its line (its index in line.call) and this rank's
 * post, completion seen and schedule's end (< 0: unknown), in this rank's clock. */
struct nb_call {
  struct gc_call_line line;
  double posted, seen, ended;
  int have; /* carried: 1 this rank saw it complete in time, 0 its slot says unknown */
};

/* Half a window: the calls gathered since the last post, or posted and in flight. */
struct half {
  int n;
  int cap;                      /* calls it holds now (GC_SPAN_WINDOW, doubled on a full
                                   half while every member has the memory) */
  void *block;                  /* its own storage once grown; NULL: the window's */
  void *next;                   /* posted full: the storage of twice the calls, NULL when
                                   this rank has none; its fate settled with the half */
  int asked;                    /* posted with the agreement's number (below) */
  MPI_Request req;              /* MPI_REQUEST_NULL when not in flight */
  struct gc_learn *teach;       /* the measured call, always the last one: posted at once */
  int taught;
  int alone;                    /* its times are the rank's own (own_times), not agreed */
  struct gc_call_line *line;    /* [cap]: record.h, 72 bytes a call */
  /* [cap]: each call's numbers (span_time.h: GC_SPAN_NUMBERS doubles, in the reference's
   * clock) until it settles, then its times, in place (the same 32 bytes, through memcpy:
   * the reduction reads them as doubles) */
  struct gc_span_time *time;
  struct gc_candidate (*candidates)[GC_MAX_ALGORITHMS]; /* [cap] with log.candidates, else NULL */
  /* The nonblocking calls it carries (carry(), below): their numbers follow the calls'
   * (and the verdict) in its reduction, two sets a call (nb_numbers) */
  struct nb_call *nb; /* [GC_SPAN_NB], the window's */
  int nnb;
};

struct gc_span_window {
  struct half h[2];
  int grow;    /* halves may still double (the log's lines, no member short of memory) */
  int filling; /* the half receiving calls; the other may be in flight */
  struct gc_comm_state *st;
  struct gc_span_window *next, *prev; /* every live one, for MPI_Finalize and exit */
  /* Nonblocking calls (sync mode): the first call index the next point carries, and the
   * calls from it on seen complete here, in the order seen (sp.lock: the completion may
   * come in another thread). kept is the room for them, GC_SPAN_NB calls, and then for
   * each half's carried ones (half.nb), 3 GC_SPAN_NB calls in all (~10 KiB): it follows
   * the window in its block only where the log keeps lines, as learning reads no
   * nonblocking call (NULL otherwise). */
  unsigned long long nb_from;
  unsigned long long id; /* the communicator's, once a nonblocking call was issued on it
                            (gc_span_issued): what a completion finds the window by */
  int nkept;
  struct nb_call *kept; /* [GC_SPAN_NB], then the halves' [GC_SPAN_NB] each */
};

enum { GC_SPAN_READERS = 2 }; /* the log, learning */

_Static_assert(sizeof(struct gc_span_time) == GC_SPAN_NUMBERS * sizeof(double),
               "a call's times take the place of its numbers");

/* Entries of a half's times after its calls': one for the agreement to grow (below),
 * and with the log's lines two for each nonblocking call a point carries. */
static int extra_times(void);

/* The storage of a half of cap calls, carved from p: its lines, its times (extra_times()
 * more entries) and its candidates. Every part is a multiple of 8 bytes, so each stays
 * aligned. */
static size_t half_bytes(int cap, int candidates)
{
  return (sizeof(struct gc_call_line) + sizeof(struct gc_span_time) +
          (candidates ? sizeof(struct gc_candidate[GC_MAX_ALGORITHMS]) : 0)) *
             (size_t)cap +
         sizeof(struct gc_span_time) * (size_t)extra_times();
}

static void half_carve(struct half *h, void *p, int cap, int candidates)
{
  h->cap = cap;
  h->line = p, p = (char *)p + sizeof(struct gc_call_line) * (size_t)cap;
  h->time = p, p = (char *)p + sizeof(struct gc_span_time) * (size_t)(cap + extra_times());
  h->candidates = candidates ? p : NULL;
}

static void numbers_put(struct gc_span_time *t, const double q[GC_SPAN_NUMBERS])
{
  memcpy(t, q, sizeof *t);
}

static void numbers_get(const struct gc_span_time *t, double q[GC_SPAN_NUMBERS])
{
  memcpy(q, t, sizeof *t);
}

static struct {
  int lines, local, candidates;
  gc_span_reader *reader[GC_SPAN_READERS];
  int nreaders;
  struct gc_span_window *windows;
  pthread_mutex_t lock;
} sp = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int extra_times(void)
{
  return 1 + (sp.lines ? 2 * GC_SPAN_NB : 0);
}

void gc_span_configure(int lines, int local, int candidates)
{
  sp.lines = lines;
  sp.local = local;
  sp.candidates = candidates;
  sp.nreaders = 0;
}

void gc_span_reader_add(gc_span_reader *reader)
{
  if (sp.nreaders < GC_SPAN_READERS)
    sp.reader[sp.nreaders++] = reader;
}

static void read_all(const struct gc_span_settled *s)
{
  for (int r = 0; r < sp.nreaders; r++)
    sp.reader[r](s);
}

/* One call to the readers at once: the call and elapsed time given, its times `time`,
 * on the communicator (id, size, this rank's rank) given. */
static void read_one_on(unsigned long long id, int size, int rank,
                        const struct gc_call_line *line, unsigned long long call, double elapsed,
                        const struct gc_candidate *candidates, struct gc_span_time time)
{
  struct gc_call_line l = *line;
  l.call = call;
  l.elapsed = elapsed;
  struct gc_candidate c[1][GC_MAX_ALGORITHMS];
  if (candidates)
    memcpy(c[0], candidates, sizeof c[0][0] * (size_t)line->ncandidates);
  struct gc_span_settled s = {id, size, rank, 1, &l,
                              candidates ? (const struct gc_candidate(*)[GC_MAX_ALGORITHMS])c : NULL,
                              &time, NULL, 0, 1, NULL};
  read_all(&s);
}

static void read_one(const struct gc_comm_state *st, const struct gc_call_line *line,
                     unsigned long long call, double elapsed,
                     const struct gc_candidate *candidates, struct gc_span_time time)
{
  read_one_on(st->id, st->size, st->rank, line, call, elapsed, candidates, time);
}

/* Where half h's carried nonblocking calls' numbers lie: after its calls' and the
 * verdict, GC_SPAN_NUMBERS for the post and the completion seen, as many for the post and
 * the schedule's end. */
static double *nb_numbers(const struct half *h)
{
  return (double *)&h->time[h->n] + h->asked;
}

/* Numbers in the reference's clock of carried call c, into x (two sets): a slot this rank
 * cannot fill says "unknown" by an infinite exit, which MPI_MAX keeps. */
static void nb_put(double *x, const struct nb_call *c, int rank)
{
  double offset = gc_clock_offset();
  int rooted = c->line.root >= 0, root = c->line.root == rank;
  if (!c->have) {
    for (int i = 0; i < 2 * GC_SPAN_NUMBERS; i++)
      x[i] = -DBL_MAX;
    x[GC_SPAN_EXIT] = INFINITY;
    return;
  }
  gc_span_numbers(x, c->posted - offset, c->seen - offset, rooted, root);
  gc_span_numbers(x + GC_SPAN_NUMBERS, c->posted - offset, c->ended - offset, rooted, root);
  if (c->ended < 0) /* the MPI library's: its end is nobody's to say */
    x[GC_SPAN_NUMBERS + GC_SPAN_EXIT] = -DBL_MAX;
}

/* A nonblocking call's times as one rank has them: post to seen, post to the end. */
static struct gc_span_time nb_own(const struct nb_call *c)
{
  return (struct gc_span_time){c->seen - c->posted,
                               c->ended >= c->posted ? c->ended - c->posted : -1, -1, -1};
}

/* Half h's carried nonblocking calls (their numbers at x, assembled unless `alone`) that
 * this rank saw to the readers: the times assembled where every member saw the call
 * complete (no infinite exit), each rank's own otherwise. */
static void settle_nb(const struct gc_comm_state *st, struct half *h, const double *x, int alone)
{
  struct gc_call_line line[GC_SPAN_NB];
  struct gc_span_time time[GC_SPAN_NB];
  int r = 0;
  for (int j = 0; j < h->nnb; j++) {
    const struct nb_call *c = &h->nb[j];
    const double *q = x + 2 * GC_SPAN_NUMBERS * j;
    if (!c->have)
      continue; /* seen later here: its own times then (gc_span_own) */
    line[r] = c->line;
    line[r].elapsed = c->seen - c->posted;
    if (alone || !(q[GC_SPAN_EXIT] < INFINITY)) {
      time[r] = nb_own(c);
    } else {
      /* post to the last completion seen; own: from when it could start to the last
       * schedule's end (span_time.h), none where the MPI library ran it */
      time[r] = gc_span_time_of(q, c->line.root >= 0);
      time[r].own = gc_span_time_of(q + GC_SPAN_NUMBERS, c->line.root >= 0).own;
    }
    r++;
  }
  h->nnb = 0;
  struct gc_span_settled s = {st->id, st->size, st->rank, r, line, NULL, time, NULL, 0,
                              sp.lines, NULL};
  if (r)
    read_all(&s);
}

/* Half k's numbers are assembled: its calls to the readers, each call's numbers become
 * its times in place; then the nonblocking calls it carried. */
static void settle(struct gc_span_window *w, int k)
{
  struct half *h = &w->h[k];
  const struct gc_comm_state *st = w->st;
  const double *x = nb_numbers(h);
  for (int i = 0; i < h->n; i++) {
    double q[GC_SPAN_NUMBERS];
    numbers_get(&h->time[i], q);
    h->time[i] = gc_span_time_of(q, h->line[i].root >= 0);
  }
  struct gc_span_settled s = {st->id,
                              st->size,
                              st->rank,
                              h->n,
                              h->line,
                              (const struct gc_candidate(*)[GC_MAX_ALGORITHMS])h->candidates,
                              h->time,
                              h->teach,
                              h->taught,
                              sp.lines,
                              h->alone ? NULL : w->st};
  if (h->n)
    read_all(&s);
  settle_nb(st, h, x, h->alone);
  h->n = 0;
  h->teach = NULL;
  h->alone = 0;
}

/* The verdict a posted full half carried, read once its reduction is complete and before
 * it settles (settling empties it): 0 every member has the storage, 1 one lacks it. */
static double verdict_of(const struct half *h)
{
  return h->asked ? ((const double *)&h->time[h->n])[0] : 1;
}

/* A full half grows for the next time it fills: the storage for twice its calls was
 * taken when it was posted, and the reduction carried, after its calls' numbers, a 1 from
 * any member that could not get it (MPI_MAX: the same verdict on every member). All have
 * it: every member takes it, so the halves' sizes stay the same everywhere; one lacks it:
 * none does, and the window grows no more (that member says why, once). A busy
 * communicator so pays one reduction per GC_SPAN_WINDOW_MAX calls, not per
 * GC_SPAN_WINDOW (issue 24: the reduction was most of what the window cost).
 * Half h, settled, after its verdict (agreed: 1, the reduction completed; 0: none came,
 * and nothing grows). */
static void half_grow(struct gc_span_window *w, struct half *h, double verdict, int agreed)
{
  if (!h->asked)
    return;
  if (agreed && !(verdict > 0) && h->next) {
    free(h->block);
    h->block = h->next;
    half_carve(h, h->block, 2 * h->cap, sp.candidates);
  } else {
    if (agreed && !h->next)
      gc_warn_oom("the log's window; it stays at %d calls", h->cap);
    free(h->next);
    w->grow = 0;
  }
  h->next = NULL;
  h->asked = 0;
}

/* No completion time to be had: each call keeps the rank's own. */
static void own_times(struct half *h)
{
  double q[GC_SPAN_NUMBERS];
  h->alone = 1;
  for (int i = 0; i < h->n; i++) {
    gc_span_numbers_alone(q, h->line[i].elapsed);
    numbers_put(&h->time[i], q);
  }
}

/* Calls seen complete, one at a time to the readers with this rank's own times. */
static void read_own(const struct gc_comm_state *st, const struct nb_call *c, int n)
{
  for (int i = 0; i < n; i++)
    read_one(st, &c[i].line, c[i].line.call, c[i].seen - c[i].posted, NULL, nb_own(&c[i]));
}

/* At a point (the filling half h about to be reduced, at a half's post, MPI_Comm_free or
 * MPI_Finalize; every member at the same call): the first GC_SPAN_NB nonblocking calls
 * posted since the last point, those call indices that no call of h has (every member
 * posts its collectives in one order, so they are the same calls everywhere), carried by
 * h, their numbers after h's calls' (nb_put). Those kept here beyond them get their own
 * times now, and a later completion of any of them too (gc_span_own): the same calls
 * assembled on every member. Returns the number of doubles they add to the reduction. */
static int carry(struct gc_span_window *w, struct half *h)
{
  h->nnb = 0;
  if (!sp.lines)
    return 0;
  struct nb_call *c = h->nb, left[GC_SPAN_NB];
  unsigned long long end = w->st->calls;
  int i = 0, m = 0, nleft = 0;
  pthread_mutex_lock(&sp.lock);
  /* None posted since the last point (the calls indexed since are all h's): nothing to
   * walk, nothing kept (a completion is kept only for a call posted since). */
  unsigned long long from = end - w->nb_from > (unsigned)h->n ? w->nb_from : end;
  for (unsigned long long k = from; k < end && m < GC_SPAN_NB; k++) {
    while (i < h->n && h->line[i].call < k)
      i++;
    if (i < h->n && h->line[i].call == k)
      continue; /* a blocking call's */
    int j = 0;
    while (j < w->nkept && w->kept[j].line.call != k)
      j++;
    if (j < w->nkept) {
      c[m] = w->kept[j];
      c[m].have = 1;
      w->kept[j] = w->kept[--w->nkept];
    } else {
      c[m] = (struct nb_call){.line.call = k, .have = 0};
    }
    m++;
  }
  for (int j = 0; j < w->nkept; j++)
    left[nleft++] = w->kept[j];
  w->nkept = 0;
  w->nb_from = end;
  pthread_mutex_unlock(&sp.lock);
  read_own(w->st, left, nleft);
  h->nnb = m;
  double *x = nb_numbers(h);
  for (int j = 0; j < m; j++)
    nb_put(x + 2 * GC_SPAN_NUMBERS * j, &c[j], w->st->rank);
  return 2 * GC_SPAN_NUMBERS * m;
}

static void wait_half(struct gc_span_window *w, int k)
{
  if (w->h[k].req != MPI_REQUEST_NULL) {
    PMPI_Wait(&w->h[k].req, MPI_STATUS_IGNORE);
    double verdict = verdict_of(&w->h[k]);
    settle(w, k);
    half_grow(w, &w->h[k], verdict, 1);
  }
}

/* The filling half posted, once the other (posted earlier) is settled. */
static void post(struct gc_span_window *w)
{
  int k = w->filling;
  struct half *h = &w->h[k];
  wait_half(w, !k);
  /* Full and the window may grow: the same on every member (the same calls, the same
   * verdicts before). */
  h->asked = w->grow && h->n == h->cap && h->cap < GC_SPAN_WINDOW_MAX;
  if (h->asked) {
    h->next = malloc(half_bytes(2 * h->cap, sp.candidates));
    ((double *)&h->time[h->n])[0] = h->next ? 0 : 1;
  }
  int nb = carry(w, h);
  if (PMPI_Iallreduce(MPI_IN_PLACE, h->time, GC_SPAN_NUMBERS * h->n + h->asked + nb,
                      MPI_DOUBLE, MPI_MAX, w->st->private_comm, &h->req) != MPI_SUCCESS) {
    h->req = MPI_REQUEST_NULL;
    own_times(h);
    settle(w, k);
    half_grow(w, h, 1, 0);
  }
  w->filling = !k;
}

void gc_span_leave(struct gc_comm_state *st, double t0, double t1,
                   const struct gc_call_line *line, const struct gc_candidate *candidates,
                   struct gc_learn *teach, int taught)
{
  unsigned long long call = st->calls++;
  if (sp.local) /* the rank's own time, at once */
    read_one(st, line, call, t1 - t0, candidates, gc_span_time_alone(t1 - t0));
  struct gc_span_window *w = st->span;
  if (!w || !(sp.lines || teach))
    return;
  struct half *h = &w->h[w->filling];
  int i = h->n++;
  struct gc_call_line *l = &h->line[i];
  *l = *line;
  l->call = call;
  l->elapsed = t1 - t0;
  if (h->candidates && candidates)
    memcpy(h->candidates[i], candidates, sizeof candidates[0] * (size_t)line->ncandidates);
  double offset = gc_clock_offset(), q[GC_SPAN_NUMBERS];
  gc_span_numbers(q, t0 - offset, t1 - offset, line->root >= 0, line->root == st->rank);
  numbers_put(&h->time[i], q);
  if (teach) {
    h->teach = teach;
    h->taught = taught;
  }
  /* Posted early, too, once the nonblocking calls posted since the last point fill what a
   * point carries (their count is the same on every member: the calls indexed since then
   * that are not this half's), so that a loop of nonblocking and blocking calls has them
   * all assembled, not the first GC_SPAN_NB of each half. */
  if (h->n == h->cap || teach || (sp.lines && st->calls - w->nb_from - (unsigned)h->n >= GC_SPAN_NB))
    post(w);
}

void gc_span_untimed(const struct gc_call_pending *p, unsigned long long call)
{
  read_one_on(p->comm_id, p->comm_size, p->comm_rank, &p->line, call, -1, NULL,
              (struct gc_span_time){-1, -1, -1, -1});
}

/* A nonblocking call seen complete, kept for the next point of its communicator's window
 * (sync mode): 1, or 0 where it has its own times at once (no window, its point passed,
 * or GC_SPAN_NB kept already: then no member assembles it, carry()). */
static int keep_nb(const struct gc_call_pending *p, unsigned long long call, double seen,
                   double ended)
{
  int kept = 0;
  pthread_mutex_lock(&sp.lock);
  struct gc_span_window *w = sp.windows;
  while (w && w->id != p->comm_id)
    w = w->next;
  if (w && call >= w->nb_from && w->nkept < GC_SPAN_NB) {
    struct nb_call *c = &w->kept[w->nkept++];
    *c = (struct nb_call){p->line, p->posted, seen, ended, 1};
    c->line.call = call;
    kept = 1;
  }
  pthread_mutex_unlock(&sp.lock);
  return kept;
}

void gc_span_issued(struct gc_comm_state *st)
{
  struct gc_span_window *w = st->span;
  if (w && !w->id && sp.lines) {
    pthread_mutex_lock(&sp.lock);
    w->id = st->id;
    pthread_mutex_unlock(&sp.lock);
  }
}

void gc_span_own(const struct gc_call_pending *p, unsigned long long call, double seen,
                 double ended)
{
  if (sp.lines && keep_nb(p, call, seen, ended))
    return;
  /* As local mode gives a blocking call (actual = elapsed), the schedule's own time in
   * own; no spread nor lateness: nothing was assembled. */
  double elapsed = seen - p->posted, own = ended >= p->posted ? ended - p->posted : -1;
  read_one_on(p->comm_id, p->comm_size, p->comm_rank, &p->line, call, elapsed, NULL,
              (struct gc_span_time){elapsed, own, -1, -1});
}

void gc_span_settle_taught(struct gc_comm_state *st)
{
  struct gc_span_window *w = st->span;
  if (w && w->h[!w->filling].teach)
    wait_half(w, !w->filling);
}

/* --- the window's life ---------------------------------------------------------------- */

int gc_span_make(struct gc_comm_state *st)
{
  int learns = 0;
  for (int op = 0; op < GC_OP_LAST; op++)
    learns |= st->op[op].learn != NULL;
  if (!sp.lines && !learns)
    return 0;
  /* Calls a half holds at first: GC_SPAN_WINDOW with the log's lines, growing while the
   * communicator stays busy; else 1 (learning alone: its measured call is posted as soon
   * as it is in). */
  int cap = sp.lines ? GC_SPAN_WINDOW : 1;
  size_t half = half_bytes(cap, sp.candidates);
  size_t room = sp.lines ? sizeof(struct nb_call) * 3 * GC_SPAN_NB : 0;
  /* One block: the window, its two halves, then the nonblocking calls' room (~40 KiB
   * with the log's lines: 10 KiB of them that room, 4 KiB the nonblocking calls' numbers
   * in the halves' times; under 1 KiB for learning alone). Every part is a multiple of 8
   * bytes (half_bytes, struct nb_call), so each stays aligned. */
  struct gc_span_window *w = calloc(1, sizeof *w + 2 * half + room);
  if (!w)
    return -1;
  if (room)
    w->kept = (struct nb_call *)((char *)(w + 1) + 2 * half);
  for (int k = 0; k < 2; k++) {
    w->h[k].req = MPI_REQUEST_NULL;
    w->h[k].nb = room ? w->kept + (k + 1) * GC_SPAN_NB : NULL;
    half_carve(&w->h[k], (char *)(w + 1) + (size_t)k * half, cap, sp.candidates);
  }
  w->nb_from = st->calls;
  /* Grown only where learning does not watch: its watch reads the kept algorithm's
   * times as halves settle, and halves of 1024 calls would show a drift up to 2048
   * calls late (test/smpi/drift.sh). Learning runs on two clusters or more, so the
   * one-node log this growth was for (issue 24) still grows. */
  w->grow = sp.lines && !learns;
  w->st = st;
  pthread_mutex_lock(&sp.lock);
  w->next = sp.windows;
  if (sp.windows)
    sp.windows->prev = w;
  sp.windows = w;
  pthread_mutex_unlock(&sp.lock);
  st->span = w;
  return 0;
}

static void unlink_window(struct gc_span_window *w)
{
  pthread_mutex_lock(&sp.lock);
  if (w->prev)
    w->prev->next = w->next;
  else
    sp.windows = w->next;
  if (w->next)
    w->next->prev = w->prev;
  pthread_mutex_unlock(&sp.lock);
}

/* The communicator is being freed (its attribute's delete callback, on every member:
 * MPI_Comm_free is collective): the calls still waiting are assembled over the private
 * duplicate, which the state frees after its parts. */
void gc_span_drop(struct gc_comm_state *st)
{
  struct gc_span_window *w = st->span;
  if (!w)
    return;
  unlink_window(w);
  wait_half(w, !w->filling);
  struct half *h = &w->h[w->filling];
  /* Every member holds the same number of calls and carries the same nonblocking ones:
   * the same allreduce on all of them. */
  int nb = carry(w, h);
  if (h->n || nb) {
    if (PMPI_Allreduce(MPI_IN_PLACE, h->time, GC_SPAN_NUMBERS * h->n + nb, MPI_DOUBLE,
                       MPI_MAX, st->private_comm) != MPI_SUCCESS)
      own_times(h);
    settle(w, w->filling);
  }
  for (int k = 0; k < 2; k++) {
    free(w->h[k].block);
    free(w->h[k].next);
  }
  free(w);
  st->span = NULL;
}

void gc_span_abandon(void)
{
  for (struct gc_span_window *w = sp.windows; w; w = w->next) {
    for (int older = 1; older >= 0; older--) {
      int k = older ? !w->filling : w->filling;
      own_times(&w->h[k]);
      w->h[k].req = MPI_REQUEST_NULL;
      settle(w, k);
      half_grow(w, &w->h[k], 1, 0);
    }
    read_own(w->st, w->kept, w->nkept);
    w->nkept = 0;
  }
}

/* --- MPI_Finalize: the communicators the application did not free -------------------- */

/* One call still waiting, as the world exchanges it: a blocking call's numbers as key
 * 2 * call; a carried nonblocking call's two sets as 2 * call and 2 * call + 1. */
struct pending {
  unsigned long long comm, call;
  double q[GC_SPAN_NUMBERS]; /* as the window holds them (span_time.h) */
};

/* The numbers half h waits with, one set at a time: its calls', then its carried calls'
 * (nb_numbers), each with its key. */
static int half_sets(const struct half *h)
{
  return h->n + 2 * h->nnb;
}

static double *half_set(const struct half *h, int i, unsigned long long *key)
{
  if (i < h->n) {
    *key = 2 * h->line[i].call;
    return (double *)&h->time[i];
  }
  i -= h->n;
  *key = 2 * h->nb[i / 2].line.call + (unsigned)(i % 2);
  return nb_numbers(h) + GC_SPAN_NUMBERS * i;
}

static int pending_cmp(const void *a, const void *b)
{
  const struct pending *x = a, *y = b;
  return x->comm != y->comm ? (x->comm > y->comm) - (x->comm < y->comm)
                            : (x->call > y->call) - (x->call < y->call);
}

/* Every rank's waiting calls, gathered (ids are unique across communicators); NULL with
 * *n = 0 when memory ran out on some rank (agreed: every rank then keeps its own times). */
static struct pending *gather(int mine, size_t *n)
{
  int size = gc_g.world_size, *counts = malloc(sizeof(int) * (size_t)size * 2), total = 0;
  struct pending *own = malloc(sizeof *own * (size_t)(mine + 1)), *all = NULL;
  int here = counts && own, ok = here;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (ok) {
    int k = 0;
    for (struct gc_span_window *w = sp.windows; w; w = w->next) {
      struct half *h = &w->h[w->filling];
      for (int i = 0; i < half_sets(h); i++, k++) {
        own[k].comm = w->st->id;
        memcpy(own[k].q, half_set(h, i, &own[k].call), sizeof own[k].q);
      }
    }
    int bytes = mine * (int)sizeof *own, *displs = counts + size;
    PMPI_Allgather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
      displs[r] = total, total += counts[r];
    ok = here = (all = malloc((size_t)total + 1)) != NULL;
    PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (ok)
      PMPI_Allgatherv(own, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  }
  if (!here)
    gc_warn_oom("at MPI_Finalize: the calls still waiting keep each rank's own time");
  free(own);
  free(counts);
  if (!ok) {
    free(all);
    all = NULL;
  }
  *n = ok ? (size_t)total / sizeof *all : 0;
  if (all)
    qsort(all, *n, sizeof *all, pending_cmp);
  return all;
}

void gc_span_finalize(void)
{
  int mine = 0;
  for (struct gc_span_window *w = sp.windows; w; w = w->next) {
    wait_half(w, !w->filling);
    carry(w, &w->h[w->filling]);
    mine += half_sets(&w->h[w->filling]);
  }
  size_t n;
  struct pending *all = gather(mine, &n);
  for (struct gc_span_window *w = sp.windows; w; w = w->next) {
    struct half *h = &w->h[w->filling];
    for (int i = 0; all && i < half_sets(h); i++) {
      struct pending key = {w->st->id, 0, {0}};
      double *q = half_set(h, i, &key.call);
      struct pending *p = bsearch(&key, all, n, sizeof *all, pending_cmp);
      while (p && p > all && pending_cmp(p - 1, &key) == 0)
        p--;
      for (; p && p < all + n && pending_cmp(p, &key) == 0; p++)
        for (int k = 0; k < GC_SPAN_NUMBERS; k++)
          q[k] = fmax(q[k], p->q[k]);
    }
    if (!all)
      own_times(h);
    settle(w, w->filling);
  }
  free(all);
}
