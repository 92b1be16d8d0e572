/* The completion-time windows (span.h). */
#include "span.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "gridcoll.h"

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
};

struct gc_span_window {
  struct half h[2];
  int grow;    /* halves may still double (the log's lines, no member short of memory) */
  int filling; /* the half receiving calls; the other may be in flight */
  struct gc_comm_state *st;
  struct gc_span_window *next, *prev; /* every live one, for MPI_Finalize and exit */
};

enum { GC_SPAN_READERS = 2 }; /* the log, learning */

_Static_assert(sizeof(struct gc_span_time) == GC_SPAN_NUMBERS * sizeof(double),
               "a call's times take the place of its numbers");

/* The storage of a half of cap calls, carved from p: its lines, its times (one more entry:
 * a full half's reduction carries the agreement to grow, below) and its candidates. Every
 * part is a multiple of 8 bytes, so each stays aligned. */
static size_t half_bytes(int cap, int candidates)
{
  return (sizeof(struct gc_call_line) + sizeof(struct gc_span_time) +
          (candidates ? sizeof(struct gc_candidate[GC_MAX_ALGORITHMS]) : 0)) *
             (size_t)cap +
         sizeof(struct gc_span_time);
}

static void half_carve(struct half *h, void *p, int cap, int candidates)
{
  h->cap = cap;
  h->line = p, p = (char *)p + sizeof(struct gc_call_line) * (size_t)cap;
  h->time = p, p = (char *)p + sizeof(struct gc_span_time) * (size_t)(cap + 1);
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

/* Half k's numbers are assembled: its calls to the readers, each call's numbers become
 * its times in place. */
static void settle(struct gc_span_window *w, int k)
{
  struct half *h = &w->h[k];
  const struct gc_comm_state *st = w->st;
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
  if (PMPI_Iallreduce(MPI_IN_PLACE, h->time, GC_SPAN_NUMBERS * h->n + h->asked, MPI_DOUBLE,
                      MPI_MAX, w->st->private_comm, &h->req) != MPI_SUCCESS) {
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
  if (h->n == h->cap || teach)
    post(w);
}

void gc_span_untimed(const struct gc_call_pending *p, unsigned long long call)
{
  read_one_on(p->comm_id, p->comm_size, p->comm_rank, &p->line, call, -1, NULL,
              (struct gc_span_time){-1, -1, -1, -1});
}

void gc_span_own(const struct gc_call_pending *p, unsigned long long call, double seen,
                 double ended)
{
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
  /* One block: the window, then its two halves (~26 KiB with the log's lines). */
  struct gc_span_window *w = calloc(1, sizeof *w + 2 * half);
  if (!w)
    return -1;
  for (int k = 0; k < 2; k++) {
    w->h[k].req = MPI_REQUEST_NULL;
    half_carve(&w->h[k], (char *)(w + 1) + (size_t)k * half, cap, sp.candidates);
  }
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
  /* Every member holds the same number of calls: the same allreduce on all of them. */
  if (h->n) {
    if (PMPI_Allreduce(MPI_IN_PLACE, h->time, GC_SPAN_NUMBERS * h->n, MPI_DOUBLE, MPI_MAX,
                       st->private_comm) != MPI_SUCCESS)
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
  for (struct gc_span_window *w = sp.windows; w; w = w->next)
    for (int older = 1; older >= 0; older--) {
      int k = older ? !w->filling : w->filling;
      own_times(&w->h[k]);
      w->h[k].req = MPI_REQUEST_NULL;
      settle(w, k);
      half_grow(w, &w->h[k], 1, 0);
    }
}

/* --- MPI_Finalize: the communicators the application did not free -------------------- */

/* One call still waiting, as the world exchanges it. */
struct pending {
  unsigned long long comm, call;
  double q[GC_SPAN_NUMBERS]; /* as the window holds them (span_time.h) */
};

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
      for (int i = 0; i < h->n; i++, k++) {
        own[k].comm = w->st->id, own[k].call = h->line[i].call;
        numbers_get(&h->time[i], own[k].q);
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
    mine += w->h[w->filling].n;
  }
  size_t n;
  struct pending *all = gather(mine, &n);
  for (struct gc_span_window *w = sp.windows; w; w = w->next) {
    struct half *h = &w->h[w->filling];
    for (int i = 0; all && i < h->n; i++) {
      struct pending key = {w->st->id, h->line[i].call, {0}};
      double q[GC_SPAN_NUMBERS];
      numbers_get(&h->time[i], q);
      struct pending *p = bsearch(&key, all, n, sizeof *all, pending_cmp);
      while (p && p > all && pending_cmp(p - 1, &key) == 0)
        p--;
      for (; p && p < all + n && pending_cmp(p, &key) == 0; p++)
        for (int k = 0; k < GC_SPAN_NUMBERS; k++)
          q[k] = fmax(q[k], p->q[k]);
      numbers_put(&h->time[i], q);
    }
    if (!all)
      own_times(h);
    settle(w, w->filling);
  }
  free(all);
}
