/* A call's bookkeeping, in one home: the memo of the last settled call of an op on a
 * communicator (what the dispatch's "same call again" path reads), and the record a
 * timed call leaves (its line, handed to the completion-time window, span.h, which
 * gives it to the log and to learning once its time is known).
 *
 * The memo. A call whose algorithm was settled without measuring (forced, or `auto`
 * decided from what it keeps: the decision cache, a finished learning) arms the memo of
 * its op slot with its key (op.h: gc_call_key), the network view and the count of
 * datatype frees (datatype.h), and what ran: its line. The same three again mean the
 * same bytes, root and choice, so that call runs the same algorithm with nothing
 * prepared, predicted or decided (a grid algorithm's buffers are still validated: a key
 * says nothing of them). Every call that enters the full dispatch disarms it first;
 * what a choice reads (the decision cache, learning's books, the view) changes only
 * there, so a rank that takes the memo's path would have found the same algorithm the
 * long way, whatever key other ranks pass for the same bytes (a derived type here, its
 * elements there: test/mpi/fastkey.c). One memo, one rule. */
#ifndef GC_CALL_H
#define GC_CALL_H

#include <stdatomic.h>

#include "clock.h"
#include "comm_state.h"
#include "datatype.h"
#include "learn.h"
#include "op.h"
#include "record.h"

/* The call as seen now, when every datatype in it is one whose size holds while
 * gc_datatype_frees keeps its count (read first: a free after it moves the count and
 * makes the memo stale, never wrong); 0 when some datatype is not kept so, or the op has
 * no key (MPI_Alltoallv's counts arrays). */
int gc_call_seen_now(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                     struct gc_call_seen *out);

/* 1 when call is the one seen, under the same network view and datatype frees. Inline:
 * the memo's test on every call. */
static inline int gc_call_seen_again(const struct gc_op *op, const void *call,
                                     const struct gc_comm_state *st,
                                     const struct gc_call_seen *seen)
{
  struct gc_call_key key;
  op->key(call, &key);
  return gc_call_key_equal(&key, &seen->key) && seen->version == st->version &&
         seen->frees == atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed);
}

/* Arms the memo with a call settled without measuring: `what` ran it (with logging off
 * only its algorithm is read). GC_MEMO_LIBRARY when that is the MPI library's own and
 * nothing is recorded, GC_MEMO_AGAIN otherwise; nothing when the call cannot be seen
 * again (gc_call_seen_now). */
void gc_call_memo_arm(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                      struct gc_call_memo *memo, const struct gc_call_line *what);

/* A timed call: the entry read here (this rank's clock). `logged`: the log records it
 * (the log on, and the communicator named: the first logged call names it, on every
 * member). */
struct gc_call_clock {
  double t0, t1; /* entry and exit (t1: set by gc_call_end) */
  int logged;
};
void gc_call_start(struct gc_comm_state *st, struct gc_call_clock *clock);
/* The exit, read as soon as the run returns: what the dispatch does before gc_call_stop
 * (the record's last touches, op.h: describe) is not the call's time. */
static inline void gc_call_end(struct gc_call_clock *clock)
{
  clock->t1 = gc_clock_now();
}

/* The call ran (its exit read: gc_call_end), said by rec (what the dispatch built: what ran, its prediction and
 * candidates): its line, with its call index and clusters, to the window (span.h).
 * teach: learning's entry the call measured, running `taught` (NULL: not measured). */
void gc_call_stop(struct gc_comm_state *st, const struct gc_call_clock *clock,
                  const struct gc_record *rec, struct gc_learn *teach, int taught);
/* gc_call_stop for a call the memo's line already says (no record built, no
 * candidates): its call index and times are its own. */
void gc_call_stop_as(struct gc_comm_state *st, const struct gc_call_clock *clock,
                     const struct gc_call_line *what);

/* A nonblocking or persistent call, issued (rec->entry says which), with the log on,
 * outside the summary: pending (its `posted` already read) filled for the executor of a
 * schedule of gridcoll's (nbc.h) or the follower of the MPI library's call (issued.h),
 * which give the line its index at each post and its times at each completion the
 * application sees (span.h: gc_span_own); left as it was where the call is not logged.
 * Collective like gc_call_start for a persistent call (its init names the
 * communicator): call it on every member. */
void gc_call_issued(struct gc_comm_state *st, struct gc_record *rec,
                    struct gc_call_pending *pending);

#endif
