/* The one road every intercepted collective takes (dispatch.c). A wrapper validates
 * nothing itself: it packs its arguments into its op's call struct and hands them here
 * with the op's descriptor (op.h). */
#ifndef GC_DISPATCH_H
#define GC_DISPATCH_H

#include "gridcoll.h"
#include "log.h"
#include "op.h"
#include "record.h"
#include "span.h"

/* At MPI_Init, once the configuration and the log are settled: what op's calls can
 * skip entirely (a forced `native` with nothing recorded goes straight to the library). */
void gc_dispatch_configure(const struct gc_op *op);

/* Per op id, written at MPI_Init before any call is intercepted, read-only afterwards:
 * 1 when every blocking call of the op goes straight to the MPI library. */
extern int gc_dispatch_passthrough[GC_OP_LAST] __attribute__((visibility("hidden")));

/* 1 when a blocking call of op id goes straight to PMPI (gridcoll off, or the op's
 * passthrough): tested by the wrapper before the re-entry guard, so such a call costs
 * two loads and a jump. */
static inline int gc_dispatch_bypass(enum gc_op_id id)
{
  return !gc_is_active() || gc_dispatch_passthrough[id];
}

/* A blocking call: the state of comm, the choice (cached, or gc_select over what each
 * algorithm supports and predicts), the run, the fall-back to the MPI library's own
 * algorithm on GC_FALLBACK, the record. Returns what the MPI call returns. */
int gc_dispatch(const struct gc_op *op, void *call, MPI_Comm comm);

/* The algorithm a nonblocking or persistent call runs as a schedule (nbc.h): with `auto`,
 * the models' pick (gc_select) among the MPI library's own and the algorithms with a
 * schedule (has_schedule[a]), from the models alone: no probe, no learning, no decision
 * cache (a nonblocking call may not communicate, and learning measures blocking calls;
 * doc/design.md). With an algorithm forced: it, where it has a schedule and serves the
 * call. GC_NATIVE otherwise: the MPI library's own. The call prepared (op.h); every input
 * identical on every rank (the configuration, the layout, the agreed network view, the
 * call's bytes), so every rank takes the same road. */
int gc_dispatch_scheduled(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                          const int *has_schedule);

/* A nonblocking or persistent call, issued, as run by `algorithm`, with its prediction
 * (the blocking call's model), when the log is on, the call valid and comm served
 * (call.h: gc_call_issued): its line in pending for the executor of a schedule of
 * gridcoll's (nbc.h) or the follower of the MPI library's call (GC_NATIVE, issued.h),
 * which log it at each completion the application sees; pending->calls NULL when
 * nothing is to be logged. Collective at a persistent call's first record on a
 * communicator (it names the communicator): on every member. */
void gc_dispatch_issued(const struct gc_op *op, void *call, MPI_Comm comm, enum gc_entry entry,
                        int algorithm, struct gc_call_pending *pending);

/* Learning's reader of the completion-time window (span.h: gc_span_reader_add): a call
 * measured for a learning `auto` teaches its books its time. */
void gc_dispatch_measured(const struct gc_span_settled *s);

#endif
