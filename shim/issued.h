/* A nonblocking or persistent collective (MPI_Ialltoall, MPI_Bcast_init ...), issued: the
 * one entry and exit every shim/<op>/<op>_nb.c wrapper shares.
 *
 * gridcoll has no nonblocking grid algorithm: LG would need a progress engine to run
 * behind the application's back. So these calls always run natively, untouched; what
 * gridcoll adds is the record. Their completion is the application's MPI_Wait/MPI_Test
 * (and, for the persistent ones, every MPI_Start), which gridcoll does not intercept, so
 * the record is written when the call is issued and carries no time (log.h: native-nb,
 * native-persistent). A wrapper packs its arguments into its op's call struct, enters,
 * makes the MPI library's call, leaves. */
#ifndef GC_ISSUED_H
#define GC_ISSUED_H

#include "dispatch.h"
#include "gridcoll.h"
#include "select.h" /* GC_NATIVE */

/* Records a valid call on a communicator gridcoll serves (dispatch.h:
 * gc_dispatch_issued) when gridcoll is active and not re-entered; anything else goes
 * unlogged, exactly as a blocking call that passes through. Returns whether it entered
 * the re-entry guard: hand that to gc_issued_leave after the MPI library's call. */
static inline int gc_issued_enter(const struct gc_op *op, void *call, MPI_Comm comm,
                                  enum gc_entry entry)
{
  if (!gc_is_active() || !gc_guard_enter())
    return 0;
  gc_dispatch_issued(op, call, comm, entry, GC_NATIVE);
  return 1;
}

static inline void gc_issued_leave(int entered)
{
  if (entered)
    gc_guard_leave();
}

#endif
