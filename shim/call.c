/* A call's bookkeeping (call.h). */
#include "call.h"

#include <limits.h>

#include "clock.h"
#include "gridcoll.h"
#include "log.h"
#include "select.h"
#include "span.h"

int gc_call_seen_now(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                     struct gc_call_seen *out)
{
  if (!op->key)
    return 0;
  out->frees = atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed);
  out->version = st->version;
  op->key(call, &out->key);
  for (int i = 0; i < 2; i++)
    if (out->key.type[i] != MPI_DATATYPE_NULL && !gc_datatype_kept(out->key.type[i], out->frees))
      return 0;
  return 1;
}

void gc_call_memo_arm(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                      struct gc_call_memo *memo, const struct gc_call_line *what)
{
  if (!gc_call_seen_now(op, call, st, &memo->seen))
    return;
  memo->line = *what;
  memo->armed = what->algorithm == GC_NATIVE && !gc_log_enabled() ? GC_MEMO_LIBRARY
                                                                   : GC_MEMO_AGAIN;
  memo->left = memo->granted = ULLONG_MAX;
  memo->learn = NULL;
}

void gc_call_start(struct gc_comm_state *st, struct gc_call_clock *clock)
{
  MPI_Comm priv = MPI_COMM_NULL;
  /* The private duplicate also gives the communicator its id for the records (an id is
   * never 0, and is set on every member at once). */
  clock->logged = gc_log_enabled() && (st->id || gc_comm_named(st, &priv) == MPI_SUCCESS);
  clock->t0 = gc_clock_now();
}

void gc_call_stop(struct gc_comm_state *st, const struct gc_call_clock *clock,
                  const struct gc_record *rec, struct gc_learn *teach, int taught)
{
  if (!clock->logged && !teach)
    return;
  struct gc_call_line line;
  gc_call_line_of(rec, &line);
  line.explored = teach != NULL;
  /* Measured for learning only: no line is written, none of its candidates. */
  gc_span_leave(st, clock->t0, clock->t1, &line, clock->logged ? rec->candidates : NULL, teach, taught);
}

void gc_call_stop_as(struct gc_comm_state *st, const struct gc_call_clock *clock,
                     const struct gc_call_line *what)
{
  if (clock->logged)
    gc_span_leave(st, clock->t0, gc_clock_now(), what, NULL, NULL, 0);
}

void gc_call_issued(struct gc_comm_state *st, struct gc_record *rec,
                    struct gc_call_pending *pending)
{
  MPI_Comm priv = MPI_COMM_NULL;
  /* gc_log_enabled() is the same on every rank, so every member names the communicator
   * or none does; a nonblocking call only where it is named already (a blocking call's
   * record, or MPI_Init for MPI_COMM_WORLD, named it): it may not wait for the others. */
  if (rec->entry == GC_ENTRY_NONBLOCKING ? !st->id : gc_comm_named(st, &priv) != MPI_SUCCESS)
    return;
  gc_span_issued(st);
  rec->elapsed = -1;
  struct gc_call_line l;
  gc_call_line_of(rec, &l);
  l.clusters = st->layout.nclusters;
  /* its index at each post, its times at each completion seen (nbc.c, issued.c) */
  *pending = (struct gc_call_pending){.line = l, .calls = &st->calls, .comm_id = st->id,
                                      .comm_size = st->size, .comm_rank = st->rank,
                                      .posted = pending->posted};
}
