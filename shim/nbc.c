/* The nonblocking schedules' executor (nbc.h). */
#include "nbc.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "count.h"
#include "gridcoll.h"
#include "span.h"

/* One schedule in flight, in one block: the steps, their requests, the pieces. */
struct nbc {
  struct nbc *prev, *next; /* the list in flight */
  MPI_Request greq;        /* the application's */
  MPI_Comm comm;
  int tag, nsteps, npieces;
  int lo, last;    /* steps [0, last) posted, every one below lo completed */
  int rc;          /* the first error, MPI_SUCCESS else: the request's */
  int finished;    /* every step done, the request completed */
  struct gc_nbc_step *steps;
  MPI_Request *reqs;
  struct gc_nbc_piece *pieces;
  int *own_type; /* per piece: its type is ours (a duplicate, or the op's), freed at the end */
  const struct gc_nbc_ops *ops;
  void *data;
  /* Persistent (MPI_Bcast_init): the application's request is a persistent receive of
   * no bytes from this rank itself on comm with tag (signal), started with the schedule
   * at each MPI_Start and completed by the message the schedule's end sends to itself:
   * MPI_Wait, MPI_Test ... then treat it as any persistent request (inactive after
   * completion, restartable, freed by MPI_Request_free). No step has this rank as its
   * peer, so the signal meets nothing else. */
  int persistent, self, active;
  MPI_Request signal;
  /* A start whose steps or finish failed keeps its error in rc (MPI-4.0 section 6.12: it
   * is the request's) until a completion call returns the request complete
   * (gc_nbc_seen), which raises it on `app`, the application's communicator. */
  MPI_Comm app;
  struct nbc *pnext; /* the persistent schedules, found by their request */
  struct gc_nbc_arena arena; /* where this block lies: given back with it */
  /* The log (log.calls NULL: off): the line, its index at this post, when the last step
   * ended (this rank's clock), and for a persistent one whether that end still waits to
   * be seen by the application (gc_nbc_seen). */
  struct gc_call_pending log;
  unsigned long long call;
  double ended;
  int unseen;
};

/* --- the schedules' memory (nbc.h: gc_nbc_pool) --------------------------------------- */

enum { ALIGN = 16 };

struct gc_nbc_pool {
  pthread_mutex_t lock; /* slots are taken at the call, given back in MPI's free function */
  int dropped, busy_count;
  size_t bytes;
  int busy[GC_NBC_SLOTS];
  char *mem;
};

static size_t up(size_t n)
{
  return (n + ALIGN - 1) / ALIGN * ALIGN;
}

size_t gc_nbc_carve_bytes(size_t bytes)
{
  return up(bytes);
}

struct gc_nbc_pool *gc_nbc_pool_make(size_t bytes)
{
  bytes = up(bytes);
  struct gc_nbc_pool *p = calloc(1, sizeof *p);
  if (!p || bytes > SIZE_MAX / GC_NBC_SLOTS || !(p->mem = aligned_alloc(ALIGN, bytes * GC_NBC_SLOTS))) {
    free(p);
    return NULL;
  }
  pthread_mutex_init(&p->lock, NULL);
  p->bytes = bytes;
  return p;
}

static void pool_free(struct gc_nbc_pool *p)
{
  pthread_mutex_destroy(&p->lock);
  free(p->mem);
  free(p);
}

void gc_nbc_pool_drop(struct gc_nbc_pool *p)
{
  if (!p)
    return;
  pthread_mutex_lock(&p->lock);
  p->dropped = 1;
  int last = p->busy_count == 0;
  pthread_mutex_unlock(&p->lock);
  if (last)
    pool_free(p);
}

int gc_nbc_arena_heap(size_t bytes, struct gc_nbc_arena *a)
{
  bytes = up(bytes);
  char *m = aligned_alloc(ALIGN, bytes ? bytes : ALIGN);
  *a = (struct gc_nbc_arena){.at = m, .end = m ? m + bytes : NULL, .heap = m, .slot = -1};
  return m ? 0 : -1;
}

int gc_nbc_pool_take(struct gc_nbc_pool *p, unsigned long long k, struct gc_nbc_arena *a)
{
  int i = (int)(k % GC_NBC_SLOTS);
  pthread_mutex_lock(&p->lock);
  int free_slot = !p->busy[i];
  if (free_slot)
    p->busy[i] = 1, p->busy_count++;
  pthread_mutex_unlock(&p->lock);
  if (!free_slot) /* more schedules in flight than slots: this one's own block */
    return gc_nbc_arena_heap(p->bytes, a);
  char *m = p->mem + (size_t)i * p->bytes;
  *a = (struct gc_nbc_arena){.at = m, .end = m + p->bytes, .pool = p, .slot = i};
  return 0;
}

void *gc_nbc_carve(struct gc_nbc_arena *a, size_t bytes)
{
  bytes = up(bytes);
  if (!a->at || (size_t)(a->end - a->at) < bytes)
    return NULL;
  void *r = a->at;
  a->at += bytes;
  return r;
}

void gc_nbc_arena_give(struct gc_nbc_arena *a)
{
  struct gc_nbc_pool *p = a->pool;
  if (!p) {
    free(a->heap);
  } else {
    pthread_mutex_lock(&p->lock);
    p->busy[a->slot] = 0;
    int last = --p->busy_count == 0 && p->dropped;
    pthread_mutex_unlock(&p->lock);
    if (last)
      pool_free(p);
  }
  *a = (struct gc_nbc_arena){.slot = -1};
}

size_t gc_nbc_block_bytes(int nsteps, int npieces)
{
  size_t n = (size_t)nsteps, np = (size_t)npieces;
  return up(sizeof(struct nbc) + n * (sizeof(struct gc_nbc_step) + sizeof(MPI_Request)) +
            np * (sizeof(struct gc_nbc_piece) + sizeof(int)));
}

/* Persistent schedules ended and not yet seen complete by the application: logged, or
 * failed (their error still to report). */
atomic_int gc_nbc_unseen;

/* nbc.h; LG packs through it too (lg_nb.c), so it is built everywhere. */
int gc_nbc_type_own(MPI_Datatype type, MPI_Datatype *out, int *own)
{
  int ni, na, nt, combiner, rc = PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner);
  *out = type, *own = 0;
  if (rc != MPI_SUCCESS || combiner == MPI_COMBINER_NAMED)
    return rc;
  if ((rc = PMPI_Type_dup(type, out)) == MPI_SUCCESS)
    *own = 1;
  return rc;
}

/* The rest needs generalized requests (nbc.h: GC_HAVE_NBC); the memory above is sized
 * and reserved alike everywhere, so the callers need no #if. */
#if GC_HAVE_NBC

/* The schedules in flight, and one thread advancing them at a time (under
 * MPI_THREAD_MULTIPLE another thread's poll finds the lock taken and returns: the
 * holder advances every schedule). */
static struct nbc *inflight;
static atomic_int ninflight;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#if GC_NBC_EXTENDED
static MPIX_Grequest_class greq_class;
static int have_class;
#endif

/* Posts the steps of the next round. An error stops the posting; what was posted is
 * still waited for. */
static void post_round(struct nbc *s)
{
  if (s->last >= s->nsteps)
    return;
  int round = s->steps[s->last].round;
  if (s->rc == MPI_SUCCESS && s->ops && s->ops->round)
    s->rc = s->ops->round(s->data, round, s->pieces);
  for (; s->last < s->nsteps && s->steps[s->last].round == round; s->last++) {
    const struct gc_nbc_step *st = &s->steps[s->last];
    const struct gc_nbc_piece *p = &s->pieces[st->piece];
    MPI_Request *r = &s->reqs[s->last];
    *r = MPI_REQUEST_NULL;
    if (s->rc != MPI_SUCCESS || p->count < 0) /* an error stops the posting; a negative
                                                  count: the op left the step out */
      continue;
    s->rc = st->kind == GC_NBC_SEND
                ? gc_pmpi_isend(p->buf, p->count, p->type, st->peer, s->tag, s->comm, r)
                : gc_pmpi_irecv(p->buf, p->count, p->type, st->peer, s->tag, s->comm, r);
  }
}

/* 1 when every posted step due before round `before` (nbc_schedule.h: lag) is done;
 * INT_MAX: every posted step. Steps due later are left to MPI's progress for now. */
static int due_done(struct nbc *s, int before)
{
  for (int i = s->lo; i < s->last; i++) {
    if (s->reqs[i] != MPI_REQUEST_NULL) {
      if ((long long)s->steps[i].round + s->steps[i].lag >= before)
        continue;
      int flag = 0, rc = PMPI_Test(&s->reqs[i], &flag, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) {
        s->rc = s->rc != MPI_SUCCESS ? s->rc : rc;
        s->reqs[i] = MPI_REQUEST_NULL; /* MPI freed it with its error */
      } else if (!flag) {
        return 0;
      }
    }
    if (i == s->lo && s->reqs[i] == MPI_REQUEST_NULL)
      s->lo++;
  }
  return 1;
}

static void unlink_nbc(struct nbc *s)
{
  if (s->prev)
    s->prev->next = s->next;
  else
    inflight = s->next;
  if (s->next)
    s->next->prev = s->prev;
  atomic_fetch_sub_explicit(&ninflight, 1, memory_order_relaxed);
}

/* Advances s as far as it goes now; completes its request at the end (after which s
 * belongs to MPI, which frees it through free_fn). */
static void advance(struct nbc *s)
{
  for (;;) {
    /* The end (every step posted, or an error stopped the posting) waits for every
     * posted step; the next round for those due before it. */
    int end = s->rc != MPI_SUCCESS || s->last >= s->nsteps;
    if (!due_done(s, end ? INT_MAX : s->steps[s->last].round))
      return;
    if (end) {
      if (s->rc == MPI_SUCCESS && s->ops && s->ops->finish)
        s->rc = s->ops->finish(s->data);
      const char *ran = s->log.calls && s->ops && s->ops->ran ? s->ops->ran(s->data) : NULL;
      if (ran)
        s->log.line.algorithm_name = ran;
      if (s->log.calls) /* the schedule's own time ends here, its unpacking included */
        s->ended = gc_clock_now();
      if (s->persistent) { /* kept for the next MPI_Start: only the request completes */
        static char none;
        MPI_Request r;
        unlink_nbc(s);
        s->active = 0;
        if ((s->log.calls || s->rc != MPI_SUCCESS) && !s->unseen) {
          s->unseen = 1;
          atomic_fetch_add_explicit(&gc_nbc_unseen, 1, memory_order_relaxed);
        }
        if (PMPI_Isend(&none, 0, MPI_BYTE, s->self, s->tag, s->comm, &r) == MPI_SUCCESS)
          PMPI_Request_free(&r);
        return;
      }
      if (s->ops && s->ops->release)
        s->ops->release(s->data);
      for (int i = 0; i < s->npieces; i++)
        if (s->own_type[i])
          PMPI_Type_free(&s->pieces[i].type);
      unlink_nbc(s);
      s->finished = 1;
      PMPI_Grequest_complete(s->greq);
      return;
    }
    post_round(s);
  }
}

int gc_nbc_inflight(void)
{
  return atomic_load_explicit(&ninflight, memory_order_relaxed) != 0;
}

void gc_nbc_progress(void)
{
  if (atomic_load_explicit(&ninflight, memory_order_relaxed) == 0 ||
      pthread_mutex_trylock(&lock) != 0)
    return;
  for (struct nbc *s = inflight, *next; s; s = next) {
    next = s->next;
    advance(s);
  }
  pthread_mutex_unlock(&lock);
}

/* The request's status: a collective's, as MPICH gives its own (no source, tag or
 * elements); its error the schedule's first. */
static int query_fn(void *extra, MPI_Status *status)
{
  struct nbc *s = extra;
  PMPI_Status_set_elements_x(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  return s->rc;
}

/* Freed by MPI once completed and waited for (or freed by the application after it
 * completed). MPI_Request_free on a nonblocking collective in flight is erroneous
 * (MPI-4.0 section 6.12): such a schedule is left to run and never freed. */
static int free_fn(void *extra)
{
  struct nbc *s = extra;
  /* Here the application sees the request complete: MPICH frees a generalized request
   * in the MPI_Wait or MPI_Test (or MPI_Request_free) that completes it for the
   * application, after MPI_Grequest_complete. No MPI call in the log's path. */
  if (s->finished && s->log.calls)
    gc_span_own(&s->log, s->call, gc_clock_now(), s->ended);
  if (s->finished) {
    struct gc_nbc_arena a = s->arena; /* s lies in it */
    gc_nbc_arena_give(&a);
  }
  return MPI_SUCCESS;
}

/* A collective cannot be cancelled (MPI-4.0 section 6.12: erroneous): nothing to do. */
static int cancel_fn(void *extra, int complete)
{
  (void)extra, (void)complete;
  return MPI_SUCCESS;
}

#if GC_NBC_EXTENDED
static int poll_fn(void *extra, MPI_Status *status)
{
  (void)extra, (void)status;
  gc_nbc_progress();
  return MPI_SUCCESS;
}

/* MPICH's MPI_Waitall calls it for each of ours before waiting for the rest (4.0.2,
 * request_impl.c): every schedule advances while it waits, and the MPI library's own
 * progress runs inside each PMPI_Test, so the application's other requests move too. */
static int wait_fn(int count, void **extra, double timeout, MPI_Status *status)
{
  (void)timeout, (void)status;
  for (int i = 0; i < count; i++)
    while (!((struct nbc *)extra[i])->finished)
      gc_nbc_progress();
  return MPI_SUCCESS;
}
#endif

/* Everything a start that failed was handed, given back. */
static int start_failed(const struct gc_nbc_piece *pieces, int npieces,
                        const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                        int rc)
{
  for (int i = 0; i < npieces; i++)
    if (pieces[i].own) {
      MPI_Datatype t = pieces[i].type;
      PMPI_Type_free(&t);
    }
  if (ops && ops->release)
    ops->release(data);
  gc_nbc_arena_give(arena);
  return rc;
}

/* A block and everything it holds given back: the op's data, the types that are ours,
 * the arena (copied first: the block lies in it). */
static void free_whole(struct nbc *s)
{
  if (s->ops && s->ops->release)
    s->ops->release(s->data);
  for (int i = 0; i < s->npieces; i++)
    if (s->own_type[i])
      PMPI_Type_free(&s->pieces[i].type);
  struct gc_nbc_arena a = s->arena;
  gc_nbc_arena_give(&a);
}

/* A schedule's block, carved from its arena, holding its steps and pieces, every piece's
 * type ours (the op's own, or a duplicate of the caller's: MPI lets the caller free it
 * while the call is in flight). The one set-up of a nonblocking and a persistent
 * schedule. NULL, *rc set: nothing handed over is held any more. */
static struct nbc *block_make(MPI_Comm comm, int tag, const struct gc_nbc_step *steps,
                              int nsteps, const struct gc_nbc_piece *pieces, int npieces,
                              const struct gc_nbc_ops *ops, void *data,
                              struct gc_nbc_arena *arena, const struct gc_call_pending *log,
                              int persistent, int *rc)
{
  size_t n = (size_t)nsteps, np = (size_t)npieces;
  struct nbc *s = gc_nbc_carve(arena, gc_nbc_block_bytes(nsteps, npieces));
  if (!s) {
    *rc = start_failed(pieces, npieces, ops, data, arena, MPI_ERR_INTERN); /* a bound */
    return NULL;
  }
  *s = (struct nbc){.comm = comm, .tag = tag, .nsteps = nsteps, .npieces = npieces,
                    .rc = MPI_SUCCESS, .ops = ops, .data = data, .persistent = persistent,
                    .arena = *arena};
  if (log)
    s->log = *log;
  s->pieces = (struct gc_nbc_piece *)(s + 1); /* the pieces first: MPI_Count alignment */
  s->steps = (struct gc_nbc_step *)(s->pieces + np);
  s->reqs = (MPI_Request *)(s->steps + n);
  s->own_type = (int *)(s->reqs + n);
  if (n) /* a schedule may have no steps or no pieces here, and then passes NULL */
    memcpy(s->steps, steps, n * sizeof *steps);
  if (np)
    memcpy(s->pieces, pieces, np * sizeof *pieces);
  *rc = MPI_SUCCESS;
  for (int i = 0; i < npieces; i++) /* the op's own types first: they are ours from here */
    s->own_type[i] = pieces[i].own;
  for (int i = 0; i < npieces && *rc == MPI_SUCCESS; i++)
    if (!pieces[i].own)
      *rc = gc_nbc_type_own(pieces[i].type, &s->pieces[i].type, &s->own_type[i]);
  if (*rc != MPI_SUCCESS) { /* own_type says which duplicates were made */
    free_whole(s);
    return NULL;
  }
  return s;
}

int gc_nbc_start(MPI_Comm comm, int tag, const struct gc_nbc_step *steps, int nsteps,
                 const struct gc_nbc_piece *pieces, int npieces,
                 const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                 const struct gc_call_pending *log, MPI_Request *request)
{
  int rc;
  struct nbc *s = block_make(comm, tag, steps, nsteps, pieces, npieces, ops, data, arena, log,
                             0, &rc);
  if (!s)
    return rc;
  if (ops && ops->start && (rc = ops->start(data)) != MPI_SUCCESS) {
    free_whole(s);
    return rc;
  }
  pthread_mutex_lock(&lock);
#if GC_NBC_EXTENDED
  if (!have_class &&
      (rc = PMPIX_Grequest_class_create(query_fn, free_fn, cancel_fn, poll_fn, wait_fn,
                                        &greq_class)) == MPI_SUCCESS)
    have_class = 1;
  if (rc == MPI_SUCCESS)
    rc = PMPIX_Grequest_class_allocate(greq_class, s, &s->greq);
#else
  rc = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &s->greq);
#endif
  if (rc != MPI_SUCCESS) {
    pthread_mutex_unlock(&lock);
    free_whole(s);
    return rc;
  }
  *request = s->greq;
  if (s->log.calls) /* started: the call's index, the next on its communicator */
    s->call = (*s->log.calls)++;
  s->next = inflight;
  if (inflight)
    inflight->prev = s;
  inflight = s;
  atomic_fetch_add_explicit(&ninflight, 1, memory_order_relaxed);
  post_round(s);
  advance(s); /* a schedule with nothing to wait for (one rank, no bytes) ends here */
  pthread_mutex_unlock(&lock);
  return MPI_SUCCESS;
}

static struct nbc *persistents;

/* The object behind a persistent schedule's request; NULL: not ours. */
static struct nbc *persistent_of(MPI_Request r)
{
  struct nbc *s = persistents;
  while (s && s->signal != r)
    s = s->pnext;
  return s;
}

int gc_nbc_persistent(MPI_Comm comm, MPI_Comm app, int tag, const struct gc_nbc_step *steps,
                      int nsteps, const struct gc_nbc_piece *pieces, int npieces,
                      const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                      const struct gc_call_pending *log, MPI_Request *request)
{
  int rc;
  struct nbc *s = block_make(comm, tag, steps, nsteps, pieces, npieces, ops, data, arena, log,
                             1, &rc);
  if (!s)
    return rc;
  s->app = app;
  rc = PMPI_Comm_rank(comm, &s->self);
  static char none;
  if (rc == MPI_SUCCESS)
    rc = PMPI_Recv_init(&none, 0, MPI_BYTE, s->self, tag, comm, &s->signal);
  if (rc != MPI_SUCCESS) {
    free_whole(s);
    return rc;
  }
  pthread_mutex_lock(&lock);
  s->pnext = persistents;
  persistents = s;
  pthread_mutex_unlock(&lock);
  *request = s->signal;
  return MPI_SUCCESS;
}

int gc_nbc_start_persistent(MPI_Request *request, int *rc)
{
  if (*request == MPI_REQUEST_NULL)
    return 0;
  pthread_mutex_lock(&lock);
  struct nbc *s = persistent_of(*request);
  if (!s || s->active) { /* not ours; or started twice: the library's own error */
    pthread_mutex_unlock(&lock);
    return 0;
  }
  double posted = s->log.calls ? gc_clock_now() : 0; /* the post, before the library's */
  if ((!s->ops || !s->ops->start || (*rc = s->ops->start(s->data)) == MPI_SUCCESS) &&
      (*rc = PMPI_Start(request)) == MPI_SUCCESS) {
    s->active = 1, s->rc = MPI_SUCCESS, s->lo = s->last = 0, s->prev = NULL;
    /* Each start is a call of its own: the next index on the communicator (every member
     * starts its persistent collectives in one order), posted now. The communicator's
     * count outlives the request: the state holds the duplicate the schedule runs on. */
    if (s->log.calls) {
      s->log.posted = posted;
      s->call = (*s->log.calls)++;
    }
    s->next = inflight;
    if (inflight)
      inflight->prev = s;
    inflight = s;
    atomic_fetch_add_explicit(&ninflight, 1, memory_order_relaxed);
    post_round(s);
    advance(s);
  }
  pthread_mutex_unlock(&lock);
  return 1;
}

int gc_nbc_seen_slow(MPI_Request r, int take, MPI_Comm *app)
{
  pthread_mutex_lock(&lock);
  struct nbc *s = persistent_of(r);
  int seen = s && s->unseen, failed = seen ? s->rc : MPI_SUCCESS; /* rc: until a restart */
  struct gc_call_pending log = {0};
  unsigned long long call = 0;
  double ended = -1;
  if (seen)
    *app = s->app;
  if (seen && take) {
    s->unseen = 0;
    atomic_fetch_sub_explicit(&gc_nbc_unseen, 1, memory_order_relaxed);
    log = s->log, call = s->call, ended = s->ended;
  }
  pthread_mutex_unlock(&lock);
  if (seen && take && log.calls) /* the lock not held: the log takes its own */
    gc_span_own(&log, call, gc_clock_now(), ended);
  return failed;
}

int gc_nbc_free_persistent(MPI_Request *request)
{
  if (*request == MPI_REQUEST_NULL)
    return 0;
  pthread_mutex_lock(&lock);
  struct nbc **at = &persistents;
  while (*at && (*at)->signal != *request)
    at = &(*at)->pnext;
  struct nbc *s = *at;
  if (s && !s->active) { /* active: erroneous (MPI-4.0 section 6.12); left running */
    *at = s->pnext;
    if (s->unseen) /* freed without a completion call: its line is not written */
      atomic_fetch_sub_explicit(&gc_nbc_unseen, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  if (!s || s->active)
    return 0;
  free_whole(s);
  return 0; /* the caller frees the request itself */
}

#else

int gc_nbc_start(MPI_Comm comm, int tag, const struct gc_nbc_step *steps, int nsteps,
                 const struct gc_nbc_piece *pieces, int npieces,
                 const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                 const struct gc_call_pending *log, MPI_Request *request)
{
  (void)comm, (void)tag, (void)steps, (void)nsteps, (void)pieces, (void)npieces, (void)ops,
      (void)data, (void)arena, (void)log, (void)request;
  return MPI_ERR_INTERN;
}

void gc_nbc_progress(void)
{
}

int gc_nbc_seen_slow(MPI_Request r, int take, MPI_Comm *app)
{
  (void)r, (void)take, (void)app;
  return MPI_SUCCESS;
}

int gc_nbc_inflight(void)
{
  return 0;
}

int gc_nbc_persistent(MPI_Comm comm, MPI_Comm app, int tag, const struct gc_nbc_step *steps,
                      int nsteps, const struct gc_nbc_piece *pieces, int npieces,
                      const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                      const struct gc_call_pending *log, MPI_Request *request)
{
  (void)comm, (void)app, (void)tag, (void)steps, (void)nsteps, (void)pieces, (void)npieces,
      (void)ops, (void)data, (void)arena, (void)log, (void)request;
  return MPI_ERR_INTERN;
}

int gc_nbc_start_persistent(MPI_Request *request, int *rc)
{
  (void)request, (void)rc;
  return 0;
}

int gc_nbc_free_persistent(MPI_Request *request)
{
  (void)request;
  return 0;
}

#endif
