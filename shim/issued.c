/* The MPI library's own nonblocking and persistent collectives, followed from their post
 * to the completion the application sees (issued.h).
 *
 * A table of the requests followed, by handle. A nonblocking call's handle is the
 * application's until a completion call returns it complete (and sets it to
 * MPI_REQUEST_NULL) or MPI_Request_free frees it, so the completion calls read the
 * followed handles of their array first (gc_issued_mark) and say which completed after
 * (gc_issued_complete). A persistent call's handle stays until freed: each MPI_Start
 * gives it a post, each completion seen after a start its line.
 *
 * One handle may stand for several calls at once: MPICH gives every call that completes
 * at once (an all-to-all of 0 bytes) one built-in request. Such entries are taken oldest
 * first; they are alike but for their index and post.
 *
 * A program that completes a followed request where gridcoll does not see it (its own
 * PMPI_Wait) leaves an entry behind, and the handle, once the library reissues it for a
 * request gridcoll does not follow (a point-to-point one), would be taken for the
 * collective by the completion call that returns it: a line with that operation's time,
 * which gridcoll cannot tell from the collective's. The table holds GC_ISSUED_MAX; a
 * call beyond that is logged untimed when issued. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "issued.h"

#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm_state.h"
#include "span.h"

GC_TLS int gc_issued_unseen_completions;
atomic_int gc_issued_followed;

struct followed {
  int used;
  MPI_Request request;
  struct gc_call_pending log; /* log.posted: the post (each MPI_Start's) */
  unsigned long long call; /* its index, taken at the post */
  int persistent;
  int started; /* a post whose completion is not seen yet */
  unsigned long long seq; /* the order followed in: the oldest of one handle first */
  struct followed *next; /* a persistent one's, in `persistents` */
};

/* The table, under the lock: a completion call of one thread may run beside another's. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct followed table[GC_ISSUED_MAX]; /* the nonblocking calls' */
static struct followed *persistents; /* each made at its init, freed with its request */
static unsigned long long followed_so_far;

/* The oldest entry of r, or NULL. Under the lock. */
static struct followed *find(MPI_Request r)
{
  for (struct followed *p = persistents; p; p = p->next)
    if (p->request == r)
      return p;
  struct followed *f = NULL;
  for (int i = 0; i < GC_ISSUED_MAX; i++)
    if (table[i].used && table[i].request == r && (!f || table[i].seq < f->seq))
      f = &table[i];
  return f;
}

static struct followed *free_entry(void)
{
  for (int i = 0; i < GC_ISSUED_MAX; i++)
    if (!table[i].used)
      return &table[i];
  return NULL;
}

static void drop(struct followed *f)
{
  f->used = 0;
  atomic_fetch_sub_explicit(&gc_issued_followed, 1, memory_order_relaxed);
}

/* --- calls from Fortran --------------------------------------------------------------- */

/* MPICH's Fortran bindings (libmpichfort) call the C entry points, MPI_Ialltoallv and the
 * others, so gridcoll's wrappers see their posts; but `use mpi_f08`'s completion calls go
 * to PMPI_Wait and its kin (MPICH 4.0), which gridcoll does not see, and Open MPI's all do.
 * A call made from a Fortran binding's code is therefore not followed (logged untimed,
 * as before), whichever binding: they share one library. Known by where it was called
 * from: the executable segments of the loaded objects named like an MPI library's Fortran
 * binding, read once (they are loaded with the program, before MPI_Init). */
enum { FORTRAN_SEGMENTS = 16 };
static struct {
  uintptr_t lo, hi;
} fortran_code[FORTRAN_SEGMENTS];
static int nfortran_code;
static pthread_once_t fortran_once = PTHREAD_ONCE_INIT;

static int fortran_object(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size, (void)data;
  static const char *const names[] = {"libmpichfort", "libmpifort", "libmpi_mpifh",
                                      "libmpi_usempi"};
  int fortran = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    fortran |= info->dlpi_name && strstr(info->dlpi_name, names[i]) != NULL;
  for (int i = 0; fortran && i < info->dlpi_phnum && nfortran_code < FORTRAN_SEGMENTS; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
      fortran_code[nfortran_code].lo = info->dlpi_addr + ph->p_vaddr;
      fortran_code[nfortran_code++].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
  }
  return 0;
}

static void find_fortran_code(void)
{
  dl_iterate_phdr(fortran_object, NULL);
}

static int from_fortran(const void *caller)
{
  pthread_once(&fortran_once, find_fortran_code);
  uintptr_t at = (uintptr_t)caller;
  for (int i = 0; i < nfortran_code; i++)
    if (at >= fortran_code[i].lo && at < fortran_code[i].hi)
      return 1;
  return 0;
}

/* --- following ------------------------------------------------------------------------ */

/* 1 where this call's completion can be seen. */
static int seeable(const struct gc_issued *is)
{
  return GC_HAVE_NBC && !gc_issued_unseen_completions && !from_fortran(is->caller);
}

/* A persistent call's entry, made at its init and agreed there (the init is collective and
 * may block, as gridcoll's own persistent schedules' agreement is): a line per MPI_Start
 * on every member, or the one untimed line at the init on every member, so that each
 * member numbers the communicator's later calls alike. */
static struct followed *follow_persistent(const struct gc_issued *is, int rc,
                                          MPI_Request request)
{
  struct gc_comm_state *st = gc_comm_state_find(is->comm);
  MPI_Comm priv;
  /* named already, by this call's record: no communication */
  if (!GC_HAVE_NBC || !st || gc_comm_named(st, &priv) != MPI_SUCCESS)
    return NULL;
  struct followed *f = NULL;
  int ok = rc == MPI_SUCCESS && request != MPI_REQUEST_NULL && seeable(is);
  if (ok && !(f = malloc(sizeof *f))) {
    gc_warn_oom("the log's entry of a persistent collective of the MPI library's; it is "
                "logged untimed, at its init, on every rank");
    ok = 0;
  }
  if (PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, priv) != MPI_SUCCESS || !ok) {
    free(f);
    return NULL;
  }
  *f = (struct followed){.used = 1, .request = request, .log = is->log, .persistent = 1};
  pthread_mutex_lock(&lock);
  f->next = persistents;
  persistents = f;
  atomic_fetch_add_explicit(&gc_issued_followed, 1, memory_order_relaxed);
  pthread_mutex_unlock(&lock);
  return f;
}

/* A nonblocking call's entry, where the table has room: its index at the post, the order
 * every member posts in, whether it is followed or not. */
static struct followed *follow_nonblocking(const struct gc_issued *is, int rc,
                                           MPI_Request request)
{
  if (rc != MPI_SUCCESS || request == MPI_REQUEST_NULL || !seeable(is))
    return NULL;
  pthread_mutex_lock(&lock);
  struct followed *f = free_entry();
  if (f) {
    *f = (struct followed){.used = 1, .request = request, .log = is->log, .started = 1,
                           .seq = followed_so_far++, .call = (*is->log.calls)++};
    atomic_fetch_add_explicit(&gc_issued_followed, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  return f;
}

void gc_issued_follow(const struct gc_issued *is, int rc, MPI_Request request)
{
  struct followed *f = is->entry == GC_ENTRY_PERSISTENT ? follow_persistent(is, rc, request)
                                                        : follow_nonblocking(is, rc, request);
  if (!f) /* not followed: its line now, untimed, its index the issue's */
    gc_span_untimed(&is->log, (*is->log.calls)++);
}

void gc_issued_mark_slow(const MPI_Request requests[], int count, struct gc_issued_marks *m)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < count && m->n < GC_ISSUED_MAX; i++) {
    const struct followed *f = requests[i] != MPI_REQUEST_NULL ? find(requests[i]) : NULL;
    if (f) {
      m->at[m->n] = i;
      m->persistent[m->n] = (unsigned char)f->persistent;
      m->request[m->n++] = requests[i];
    }
  }
  pthread_mutex_unlock(&lock);
}

/* 1 when position `at` is among indices[0..n) (indices NULL: below n). */
static int returned(int at, const int indices[], int n)
{
  if (!indices)
    return at < n;
  for (int i = 0; i < n; i++)
    if (indices[i] == at)
      return 1;
  return 0;
}

void gc_issued_complete(const struct gc_issued_marks *m, int rc, const MPI_Request after[],
                        const int indices[], int n)
{
  double seen = -1;
  for (int k = 0; k < m->n; k++) {
    /* Decided without the lock, and without a clock read while a request is polled in
     * vain (an MPI_Test loop): the entry's kind does not change. */
    if (m->persistent[k] ? !returned(m->at[k], indices, n)
                         : after[m->at[k]] != MPI_REQUEST_NULL)
      continue;
    if (seen < 0)
      seen = gc_clock_now();
    pthread_mutex_lock(&lock);
    struct followed *f = find(m->request[k]), was = {0};
    int done = f != NULL;
    if (done) {
      was = *f;
      f->started = 0;
      if (!f->persistent)
        drop(f);
    }
    pthread_mutex_unlock(&lock);
    /* The lock not held: the log takes its own. A persistent request completed again
     * without a start (an inactive one) has no line. */
    if (done && was.started && rc == MPI_SUCCESS)
      gc_span_own(&was.log, was.call, seen, -1);
  }
}

void gc_issued_started(MPI_Request request, double posted)
{
  if (!atomic_load_explicit(&gc_issued_followed, memory_order_relaxed))
    return;
  pthread_mutex_lock(&lock);
  struct followed *f = find(request);
  if (f && f->persistent) {
    f->log.posted = posted;
    f->call = (*f->log.calls)++;
    f->started = 1;
  }
  pthread_mutex_unlock(&lock);
}

void gc_issued_forget(MPI_Request request)
{
  if (request == MPI_REQUEST_NULL ||
      !atomic_load_explicit(&gc_issued_followed, memory_order_relaxed))
    return;
  pthread_mutex_lock(&lock);
  struct followed *f = find(request), **at = &persistents;
  if (f && f->persistent) {
    while (*at != f)
      at = &(*at)->next;
    *at = f->next;
  }
  if (f)
    drop(f);
  pthread_mutex_unlock(&lock);
  if (f && f->persistent)
    free(f);
}
