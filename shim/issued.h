/* A nonblocking or persistent collective (MPI_Ialltoall, MPI_Bcast_init ...) that the MPI
 * library runs, issued: the one entry and exit every shim/<op>/<op>_nb.c wrapper shares
 * (gridcoll's own schedules, nbc.h, are issued by tree_nb.c and lg_nb.c), and its
 * completion, followed through the application's completion calls (issued.c).
 *
 * Such a call runs natively, untouched; what gridcoll adds is its line in the log. Where
 * gridcoll wraps the completion calls (nbc.h: GC_HAVE_NBC), the call's request is
 * followed: a nonblocking call takes its index at the post, a persistent one at each
 * MPI_Start, and its line is written when a completion call returns the request complete,
 * with this rank's time from the post to that completion (actual_s, elapsed_s; own_s
 * empty: the library's progress is not seen). Where it cannot be followed (no wrappers; a
 * call from Fortran, whose completion calls may go to PMPI_ directly; more than
 * GC_ISSUED_MAX nonblocking requests in flight; a persistent call some member cannot
 * follow, agreed at its init) the line is written when issued, untimed, as before
 * (doc/log.md). A wrapper packs its arguments into its op's call struct, enters, makes
 * the MPI library's call, leaves with its request. */
#ifndef GC_ISSUED_H
#define GC_ISSUED_H

#include <stdatomic.h>

#include "clock.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "log.h"
#include "nbc.h"    /* GC_HAVE_NBC */
#include "select.h" /* GC_NATIVE */

/* The nonblocking requests followed at once, on this process: more are logged untimed. */
enum { GC_ISSUED_MAX = 64 };

/* A call on its way in: whether it entered the re-entry guard, and its line when logged
 * (log.calls NULL: not logged). */
struct gc_issued {
  int entered;
  enum gc_entry entry;
  MPI_Comm comm;
  const void *caller; /* where the application called from (issued.c: from Fortran) */
  struct gc_call_pending log;
};

/* 1 on a thread inside gridcoll's Fortran entry points (fortran.c, Open MPI): the
 * application's completion calls are Fortran's too, which gridcoll does not see, so its
 * request is not followed. (MPICH's Fortran bindings call the C entry points directly:
 * issued.c knows them by where they call from.) */
extern GC_TLS int gc_issued_unseen_completions;

/* Records a valid call on a communicator gridcoll serves (dispatch.h:
 * gc_dispatch_issued) when gridcoll is active and not re-entered; anything else goes
 * unlogged, exactly as a blocking call that passes through. Then make the MPI library's
 * call, and hand its result to gc_issued_leave. Always inlined into the wrapper, whose
 * return address is then the application's call (GCC: __builtin_return_address). */
__attribute__((always_inline)) static inline void
gc_issued_enter(const struct gc_op *op, void *call, MPI_Comm comm, enum gc_entry entry,
                struct gc_issued *is)
{
  is->entered = 0;
  is->entry = entry;
  is->comm = comm;
  is->caller = __builtin_return_address(0);
  is->log.calls = NULL;
  if (!gc_is_active() || !gc_guard_enter())
    return;
  is->entered = 1;
  is->log.posted = gc_log_enabled() ? gc_clock_now() : 0; /* a nonblocking call's post */
  gc_dispatch_issued(op, call, comm, entry, GC_NATIVE, &is->log);
}

/* The call's line, followed or written now (issued.c). Collective for a persistent call
 * (its init is): every member follows it or none does. */
void gc_issued_follow(const struct gc_issued *is, int rc, MPI_Request request);

/* The MPI library's call returned rc and, when MPI_SUCCESS, *request. */
static inline void gc_issued_leave(struct gc_issued *is, int rc, const MPI_Request *request)
{
  if (is->log.calls)
    gc_issued_follow(is, rc, rc == MPI_SUCCESS ? *request : MPI_REQUEST_NULL);
  if (is->entered)
    gc_guard_leave();
}

/* --- the completion calls (nbc_wait.c) ------------------------------------------------ */

/* How many requests are followed: the completion calls' one load while none is. */
extern atomic_int gc_issued_followed;

/* The followed requests of an array, read before a completion call (which sets a
 * nonblocking call's handle to MPI_REQUEST_NULL). */
struct gc_issued_marks {
  int n;
  int at[GC_ISSUED_MAX];
  MPI_Request request[GC_ISSUED_MAX];
  unsigned char persistent[GC_ISSUED_MAX]; /* how its completion shows (gc_issued_complete) */
};
void gc_issued_mark_slow(const MPI_Request requests[], int count, struct gc_issued_marks *m);
static inline void gc_issued_mark(const MPI_Request requests[], int count,
                                  struct gc_issued_marks *m)
{
  m->n = 0;
  if (atomic_load_explicit(&gc_issued_followed, memory_order_relaxed))
    gc_issued_mark_slow(requests, count, m);
}

/* The completion call returned rc, the array its caller gave it now `after`: each marked
 * request it completed gets its line (rc MPI_SUCCESS) or none (an error: no time to
 * tell), and a nonblocking one is no longer followed. A nonblocking call's request
 * completed where its handle is now MPI_REQUEST_NULL, a persistent one's where the call
 * returned it: at indices[0..n) (indices NULL: at 0..n). */
void gc_issued_complete(const struct gc_issued_marks *m, int rc, const MPI_Request after[],
                        const int indices[], int n);

/* MPI_Start of a request not gridcoll's, posted at `posted` (this rank's clock): a
 * followed persistent call's start takes its index. */
void gc_issued_started(MPI_Request request, double posted);
/* MPI_Request_free of a request not gridcoll's: no longer followed. */
void gc_issued_forget(MPI_Request request);

#endif
